import { CfnOutput, Stack, Validations, type CfnElement, type StackProps } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AgentService, type AgentServiceScaling } from './agent-service.js';
import { Api } from './api.js';
import { accessEnvironment, roleOf, type AccessSettings } from './functions.js';
import { ChatBridge } from './chat-bridge.js';
import { Data } from './data.js';
import { FrontDoor, type FrontDoorProps } from './front-door.js';
import { CONSOLE_DIST } from '../bin/console.js';
import { JOB_QUEUES, Jobs, pascalCase } from './jobs.js';
import { Knowledge, type KnowledgeAccess, type KnowledgeEmbeddings } from './knowledge.js';
import { migrateBefore } from './migration.js';

export interface ServiceStackProps extends StackProps {
  /** Origins allowed by CORS; empty: CORS off. */
  corsOrigins?: string[];
  /** Attempts per background job. */
  jobMaxAttempts?: number;
  /**
   * Who may sign up and whose model account organisations may use (`SIGNUP_MODE`,
   * `ALLOW_SERVICE_MODEL_KEY`; docs/security.md). Unset: the service's AWS defaults, invite and false.
   */
  access?: AccessSettings;
  /** The built web console (default web/dist: `bin/app.ts` builds it before synth). */
  consoleDir?: string;
  /**
   * Traces (docs/observability.md): the OTLP endpoint the functions send to, and whether spans may
   * hold content. Unset: no tracing. An endpoint that needs a key is best a collector of yours that
   * adds it: a function's environment is not the place for a secret.
   */
  tracing?: { otlpEndpoint?: string; captureContent?: boolean };
  /** The deployment's own limits (docs/deploy.md, "Limits"); unset: `DEFAULT_LIMITS`. */
  limits?: Partial<DeploymentLimits>;
  /**
   * Where the agent loop runs (`AGENT_RUNTIME`; docs/deploy.md, docs/capacity.md): the agent and
   * stream functions (`lambda`, the default), or the agent service on Fargate (`fargate`), scaled
   * on its queries in flight (`agentService`; unset: `DEFAULT_AGENT_SERVICE`).
   */
  agentRuntime?: 'lambda' | 'fargate';
  agentService?: Partial<AgentServiceScaling>;
  /**
   * Hybrid knowledge search (docs/knowledge.md, "Embeddings"): a Bedrock embedding model and an S3
   * vector bucket. Unset: full text alone.
   */
  embeddings?: KnowledgeEmbeddings;
}

/** Two tasks at least (one per zone), up to 20, each holding about 100 queries. */
const DEFAULT_AGENT_SERVICE: AgentServiceScaling = { minTasks: 2, maxTasks: 20, queriesPerTask: 100 };

interface DeploymentLimits {
  /** The HTTP API stage's throttle, for every tenant together: requests per second and burst. */
  requestsPerSecond: number;
  burst: number;
  /**
   * Concurrency reserved for the API function (so a burst of queries on the agent functions never
   * leaves sign-in and the console without instances) and for the jobs consumer (so a backlog of
   * jobs takes at most this many). 0: none reserved. The agent and stream functions share the rest.
   */
  apiReservedConcurrency: number;
  jobsReservedConcurrency: number;
}

/**
 * The HTTP API's throttle at the account's default quota for HTTP APIs (10 000 requests/s, bursts
 * of 5 000 per region), tenants being limited by the service itself; 150 of a region's default 1 000
 * concurrent executions reserved, leaving the 100 unreserved that Lambda requires with room to spare.
 */
const DEFAULT_LIMITS: DeploymentLimits = {
  requestsPerSecond: 10_000,
  burst: 5_000,
  apiReservedConcurrency: 100,
  jobsReservedConcurrency: 50,
};

/** The whole service in one stack; constructs model its parts. */
export class ServiceStack extends Stack {
  readonly data: Data;
  readonly knowledge: Knowledge;
  readonly jobs: Jobs;
  readonly api: Api;
  readonly chatBridge: ChatBridge;
  readonly frontDoor: FrontDoor;
  /** The agent loop on Fargate, when `agentRuntime` is `fargate`. */
  readonly agentService?: AgentService;

  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);
    this.data = new Data(this, 'Data');
    this.knowledge = new Knowledge(this, 'Knowledge', props.embeddings);
    const access = accessEnvironment(props.access);
    const limits = { ...DEFAULT_LIMITS, ...props.limits };
    this.jobs = new Jobs(this, 'Jobs', {
      table: this.data.table,
      maxAttempts: props.jobMaxAttempts ?? 3,
      environment: access,
      reservedConcurrency: limits.jobsReservedConcurrency,
    });
    this.api = new Api(this, 'Api', {
      table: this.data.table,
      jobs: this.jobs,
      environment: access,
      corsOrigins: props.corsOrigins ?? [],
      throttle: { rateLimit: limits.requestsPerSecond, burstLimit: limits.burst },
      reservedConcurrency: limits.apiReservedConcurrency,
      agentRuntime: props.agentRuntime ?? 'lambda',
    });
    if (props.agentRuntime === 'fargate') {
      this.agentService = new AgentService(this, 'AgentService', {
        table: this.data.table,
        jobs: this.jobs,
        environment: this.api.appEnvironment,
        secrets: [this.api.sessionSecret, this.api.originSecret],
        scaling: { ...DEFAULT_AGENT_SERVICE, ...props.agentService },
        corsOrigins: props.corsOrigins ?? [],
      });
      this.api.routeAgentPaths(this.agentService.integration);
    }
    this.frontDoor = new FrontDoor(this, 'FrontDoor', {
      httpApi: this.api.httpApi,
      streams: this.streamsOrigin(),
      corsOrigins: props.corsOrigins ?? [],
      originSecret: this.api.originSecret,
      consoleDir: props.consoleDir ?? CONSOLE_DIST,
    });
    // OAuth redirect URIs (made when an MCP connection is saved, on the agent function) lead back
    // to the domain users sign in on, where their session cookie is. Not the stream function's:
    // its URL is CloudFront's origin (a cycle), and it only reads redirect URIs already stored.
    this.api.agentFunction?.addEnvironment('PUBLIC_BASE_URL', this.frontDoor.url);
    // The MCP gateway's authorization server (on the API function) is the front door's origin: its
    // issuer, and the resource its tokens are bound to, are the addresses MCP clients connect to.
    this.api.apiFunction.addEnvironment('PUBLIC_BASE_URL', this.frontDoor.url);
    this.agentService?.container.addEnvironment('PUBLIC_BASE_URL', this.frontDoor.url);
    this.chatBridge = new ChatBridge(this, 'ChatBridge', { table: this.data.table, jobs: this.jobs });
    // The bot sends chat users a link to the console's page that links their chat account.
    this.chatBridge.container.addEnvironment('PUBLIC_BASE_URL', this.frontDoor.url);
    this.wireSecretsAndTracing(props.tracing);
    this.wireKnowledgeFiles();
    // Stored data is brought to the keys this version reads before anything that reads them changes.
    migrateBefore(this, this.data, [this.api, this.jobs, this.chatBridge, ...(this.agentService ? [this.agentService] : [])]);
    this.data.wireSecrets(this.chatBridge.taskDefinition.taskRole, (key, value) => this.chatBridge.container.addEnvironment(key, value));

    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.data.table.node.defaultChild as CfnElement)}.Arn>/index/*]`,
      reason: "Reads use the table's global secondary indexes (docs/data-model.md); the grant covers this table's indexes only.",
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The service targets nodejs22.x (the runtime it is built and tested for); moving to a newer runtime is a deliberate upgrade.',
    });

    this.addOutputs();
  }

  /** The secrets' key to everything that runs the app, and the traces' endpoint when there is one (not to the bridge: its own below). */
  private wireSecretsAndTracing(tracing: ServiceStackProps['tracing']): void {
    const functions = [this.api.apiFunction, this.api.agentFunction, this.api.streamFunction, this.jobs.consumer];
    const runners: { grantee: IGrantable; addEnvironment: (key: string, value: string) => void }[] = functions
      .filter((candidate) => candidate !== undefined)
      .map((fn) => ({ grantee: fn, addEnvironment: (key, value) => fn.addEnvironment(key, value) }));
    if (this.agentService) {
      const { container, taskDefinition } = this.agentService;
      runners.push({ grantee: taskDefinition.taskRole, addEnvironment: (key, value) => container.addEnvironment(key, value) });
    }
    for (const { grantee, addEnvironment } of runners) {
      this.data.wireSecrets(grantee, addEnvironment);
      if (tracing?.otlpEndpoint) {
        addEnvironment('OTEL_EXPORTER_OTLP_ENDPOINT', tracing.otlpEndpoint);
        addEnvironment('OTEL_CAPTURE_CONTENT', String(tracing.captureContent ?? false));
      }
    }
  }

  /** The knowledge files to everything that builds the app's deps (shared/wiring/aws-deps.ts), each with what it does with them. */
  private wireKnowledgeFiles(): void {
    const { apiFunction, agentFunction, streamFunction } = this.api;
    const functions: [LambdaFunction | undefined, KnowledgeAccess][] = [
      [apiFunction, 'upload'],
      [agentFunction, 'search'],
      [streamFunction, 'search'],
      [this.jobs.consumer, 'ingest'],
    ];
    for (const [fn, access] of functions) {
      if (fn) this.knowledge.wireFiles(roleOf(fn), (key, value) => fn.addEnvironment(key, value), access);
    }
    // The agent loop's search_knowledge, on Fargate and in team chat.
    for (const task of [this.agentService, this.chatBridge]) {
      if (task) this.knowledge.wireFiles(task.taskDefinition.taskRole, (key, value) => task.container.addEnvironment(key, value), 'search');
    }
  }

  private addOutputs(): void {
    new CfnOutput(this, 'ServiceUrl', {
      value: this.frontDoor.url,
      description: 'The URL to give users: the web console and the whole API on one domain (CloudFront), streamed answers not cut at 30 s',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API (API Gateway), behind ServiceUrl' });
    if (this.frontDoor.functionUrl) {
      new CfnOutput(this, 'StreamFunctionUrl', {
        value: this.frontDoor.functionUrl.url,
        description: "The stream function's URL, behind ServiceUrl: the query and the messaging webhook only",
      });
    }
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'KnowledgeBucketName', {
      value: this.knowledge.bucket.bucketName,
      description: "The knowledge documents' files: uploads, passages, each workspace's index",
    });
    for (const { name } of JOB_QUEUES) {
      new CfnOutput(this, `${pascalCase(name)}QueueUrl`, {
        value: this.jobs.queues[name].queueUrl,
        description: `The ${name} job queue`,
      });
    }
  }

  /** Where CloudFront sends the streamable routes: the agent service when there is one, else the stream function. */
  private streamsOrigin(): FrontDoorProps['streams'] {
    if (this.agentService) return { loadBalancer: this.agentService.loadBalancer };
    if (this.api.streamFunction) return { function: this.api.streamFunction };
    throw new Error('the stack has neither the stream function nor the agent service');
  }
}
