import { Stack } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jobs } from '../../lib/jobs.js';
import { ServiceStack } from '../../lib/service-stack.js';
import { ROUTE_TABLE, routeKeyOf } from '../../shared/wiring/route-table.js';
import { SCHEMA_VERSION } from '../../migrations/index.js';
import { cdkApps, nagFindings } from '../support/cdk.js';

let template: Template;
const { newApp, removeAll } = cdkApps('wap-cdk-');

beforeAll(() => {
  template = Template.fromStack(new ServiceStack(newApp(), 'Service', { jobMaxAttempts: 3 }));
}, 120_000);
afterAll(() => {
  removeAll();
});

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;
const resourcesOf = (type: string) => template.findResources(type) as Resources;
/**
 * The service's own functions: not the handler CDK's bucket deployment adds to upload the web
 * console (lib/console.ts), nor the migration (its own test below): both run only during a deploy.
 */
const serviceFunctions = () =>
  Object.fromEntries(
    Object.entries(resourcesOf('AWS::Lambda::Function')).filter(
      ([id]) => !id.startsWith('CustomCDKBucketDeployment') && !id.startsWith('MigrateFunction'),
    ),
  );
/** A function's environment variables. */
const variablesOf = (fn: { Properties?: Record<string, unknown> }) =>
  (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
/** The logical id and properties of the event source mapping of the jobs queue whose logical id starts with `queueIdStart`. */
const mappingOf = (queueIdStart: string) => {
  const queue = Object.keys(resourcesOf('AWS::SQS::Queue')).find((id) => id.startsWith(queueIdStart));
  expect(queue).toBeDefined();
  const found = Object.entries(resourcesOf('AWS::Lambda::EventSourceMapping')).filter(([, mapping]) =>
    JSON.stringify(mapping.Properties?.EventSourceArn).includes(`"${queue}"`),
  );
  expect(found).toHaveLength(1);
  const [id, mapping] = found[0] as [string, Resources[string]];
  return { id, properties: mapping.Properties ?? {} };
};
const knowledgeMapping = () => mappingOf('JobsKnowledgeQueue');

describe('ServiceStack', () => {
  it('keeps the table under its stable logical id, retained and protected', () => {
    expect(Object.keys(resourcesOf('AWS::DynamoDB::GlobalTable'))).toEqual(['DataTableFDBAD0F2']);
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        Replicas: [
          Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
        ],
      }),
    });
  });

  it('runs every function on nodejs22.x, arm64, from minified ESM bundles without source maps', () => {
    const functions = serviceFunctions();
    // API, agent, stream, jobs.
    expect(Object.keys(functions)).toHaveLength(4);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      const environment = (fn.Properties?.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables;
      expect(environment?.NODE_OPTIONS).toBeUndefined();
      expect(environment?.NODE_ENV).toBe('production');
      // Their metrics (EMF) go to the stack's own CloudWatch namespace.
      expect(environment?.POWERTOOLS_METRICS_NAMESPACE).toBe('Service');
    }
    // Each its own bundle (lib/bundling.ts): CDK's cache of bundles once gave all four the first one built.
    const code = Object.values(functions).map((fn) => JSON.stringify((fn.Properties?.Code as { S3Key?: unknown } | undefined)?.S3Key));
    expect(new Set(code).size).toBe(4);
  });

  it('gives each job kind a queue with a dead-letter queue, maxReceiveCount = JOB_MAX_ATTEMPTS, visibility ≥ 6× the consumer timeout', () => {
    const consumer = Object.values(resourcesOf('AWS::Lambda::Function')).find((fn) =>
      String(fn.Properties?.Description).startsWith('Background jobs'),
    );
    const timeout = Number(consumer?.Properties?.Timeout);
    expect(timeout).toBe(Jobs.CONSUMER_TIMEOUT.toSeconds());
    const queues = Object.values(resourcesOf('AWS::SQS::Queue'));
    const main = queues.filter((queue) => queue.Properties?.RedrivePolicy);
    const deadLetters = queues.filter((queue) => !queue.Properties?.RedrivePolicy);
    expect(main).toHaveLength(6);
    expect(deadLetters).toHaveLength(6);
    for (const queue of main) {
      expect(queue.Properties).toMatchObject({
        RedrivePolicy: { maxReceiveCount: 3 },
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: 4 * 24 * 3600,
      });
      expect(Number(queue.Properties?.VisibilityTimeout)).toBeGreaterThanOrEqual(6 * timeout);
    }
    for (const queue of deadLetters) {
      // Dead letters outlive the queue's own messages.
      expect(Number(queue.Properties?.MessageRetentionPeriod)).toBe(14 * 24 * 3600);
    }
  });

  it('consumes every queue with partial batch failure reporting, in batches of 10 but knowledge documents one at a time', () => {
    const mappings = Object.entries(resourcesOf('AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(6);
    for (const [id, mapping] of mappings) {
      const batchSize = id === knowledgeMapping().id ? 1 : 10;
      expect(mapping.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: batchSize });
    }
  });

  it('gives evaluation cases a queue of their own whose consumers are capped below the consumer’s reserved concurrency', () => {
    const consumer = Object.entries(resourcesOf('AWS::Lambda::Function')).find(([, fn]) =>
      String(fn.Properties?.Description).startsWith('Background jobs'),
    );
    const reserved = Number(consumer?.[1].Properties?.ReservedConcurrentExecutions);
    const evals = mappingOf('JobsEvalsQueue');
    // The evaluation cases, the routines' runs and the knowledge documents (below) are capped, the other queues not.
    const capped = Object.entries(resourcesOf('AWS::Lambda::EventSourceMapping'))
      .filter(([, mapping]) => mapping.Properties?.ScalingConfig)
      .map(([id]) => id);
    expect(capped.sort()).toEqual([evals.id, mappingOf('JobsRoutinesQueue').id, knowledgeMapping().id].sort());
    const cap = (evals.properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency;
    expect(cap).toBeGreaterThanOrEqual(2);
    expect(cap).toBeLessThan(reserved);
    // Every function that sends jobs knows where the evaluation cases go.
    for (const fn of Object.values(serviceFunctions())) expect(variablesOf(fn).EVALS_QUEUE_URL).toBeDefined();
  });

  it('reads knowledge documents one per invocation on at most 2 consumers, with the memory for the reader’s worker', () => {
    expect(knowledgeMapping().properties).toMatchObject({ BatchSize: 1, ScalingConfig: { MaximumConcurrency: 2 } });
    // The worker may take 288 MB of heap (shared/knowledge/ingest/read-in-worker.ts) beside the function's own.
    const consumer = Object.values(resourcesOf('AWS::Lambda::Function')).find((fn) =>
      String(fn.Properties?.Description).startsWith('Background jobs'),
    );
    expect(consumer?.Properties?.MemorySize).toBe(1024);
    // Every function that sends jobs knows where the knowledge jobs go.
    for (const fn of Object.values(serviceFunctions())) expect(variablesOf(fn).KNOWLEDGE_QUEUE_URL).toBeDefined();
  });

  it('alarms on each dead-letter queue holding a message', () => {
    const alarms = Object.values(resourcesOf('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(6);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('has a scheduler group, a role that may only send to the lifecycle queue, and the one-minute sweep', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: Match.objectLike({ Input: '{"kind":"sweep"}' }),
    });
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })],
      }),
    });
  });

  it('reserves concurrency for the API function and the jobs consumer, so a burst of queries never starves them', () => {
    const reserved = (descriptionStart: string) =>
      Object.values(resourcesOf('AWS::Lambda::Function')).find((fn) =>
        String(fn.Properties?.Description ?? '').startsWith(descriptionStart),
      )?.Properties?.ReservedConcurrentExecutions;
    expect(reserved('The HTTP API')).toBe(100);
    expect(reserved('Background jobs')).toBe(50);
    // The agent and stream functions share the rest of the account's concurrency.
    expect(reserved('The query (agent loop')).toBeUndefined();
    expect(reserved('The query and the messaging webhook')).toBeUndefined();
    const lowered = Template.fromStack(
      new ServiceStack(newApp(), 'Limits', {
        limits: { apiReservedConcurrency: 0, jobsReservedConcurrency: 5, requestsPerSecond: 200, burst: 400 },
      }),
    );
    const functions = Object.values(lowered.findResources('AWS::Lambda::Function'));
    expect(
      functions
        .filter((fn) => fn.Properties?.ReservedConcurrentExecutions !== undefined)
        .map((fn) => fn.Properties.ReservedConcurrentExecutions),
    ).toEqual([5]);
    lowered.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 },
    });
  });

  it('serves the API through an HTTP API with throttling and access logs, the agent routes on the agent function', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      // The account's default HTTP API quota: tenants are limited by the service itself.
      DefaultRouteSettings: { ThrottlingRateLimit: 10_000, ThrottlingBurstLimit: 5_000 },
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') }),
    });
    const routes = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((route) => route.Properties?.RouteKey);
    // The agent function's routes are the route table's (every other path goes to $default, the API function).
    const agentRoutes = ROUTE_TABLE.filter((entry) => entry.runs === 'agent').map(routeKeyOf);
    expect(routes.sort()).toEqual(['$default', ...agentRoutes].sort());
    expect(agentRoutes).toEqual(
      expect.arrayContaining(['POST /api/workspaces/{id}/query', 'ANY /api/workspaces/{id}/mcp', 'POST /api/consumers/{id}/messages']),
    );
    // No CORS unless origins are configured.
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
  });

  it('turns CORS on for the configured origins only', () => {
    const withCors = Template.fromStack(new ServiceStack(newApp(), 'Cors', { corsOrigins: ['https://app.example.com'] }));
    withCors.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com'], AllowCredentials: true }),
    });
  }, 120_000);

  it("leaves sign-up, the model account and metrics by workspace to the service's defaults unless the operator sets them, then gives them to every function", () => {
    const accessOf = (stack: Template) =>
      Object.entries(stack.findResources('AWS::Lambda::Function') as Resources)
        .filter(([id, fn]) => variablesOf(fn).SECRETS_KMS_KEY_ID !== undefined && !id.startsWith('MigrateFunction'))
        .map(([, fn]) => fn)
        .map((fn) => {
          const variables = variablesOf(fn);
          return {
            signup: variables.SIGNUP_MODE,
            serviceKey: variables.ALLOW_SERVICE_MODEL_KEY,
            byWorkspace: variables.METRICS_BY_WORKSPACE,
            table: variables.TABLE_NAME,
          };
        })
        .filter((fn) => fn.table !== undefined);
    expect(accessOf(template).every((fn) => fn.signup === undefined && fn.serviceKey === undefined && fn.byWorkspace === undefined)).toBe(
      true,
    );
    const open = Template.fromStack(
      new ServiceStack(newApp(), 'Access', { access: { signupMode: 'open', allowServiceModelKey: true, metricsByWorkspace: false } }),
    );
    const functions = accessOf(open);
    expect(functions).toHaveLength(4);
    expect(functions.every((fn) => fn.signup === 'open' && fn.serviceKey === 'true' && fn.byWorkspace === 'false')).toBe(true);
  }, 120_000);

  it('gives every function the OTLP endpoint when the operator deploys with one, and none otherwise', () => {
    const tracingOf = (stack: Template) =>
      Object.entries(stack.findResources('AWS::Lambda::Function') as Resources)
        .filter(([id]) => !id.startsWith('MigrateFunction'))
        .map(([, fn]) => variablesOf(fn))
        .filter((variables) => variables.SECRETS_KMS_KEY_ID !== undefined)
        .map((variables) => [variables.OTEL_EXPORTER_OTLP_ENDPOINT, variables.OTEL_CAPTURE_CONTENT]);
    expect(tracingOf(template)).toEqual(Array(4).fill([undefined, undefined]));
    const traced = Template.fromStack(
      new ServiceStack(newApp(), 'Traced', { tracing: { otlpEndpoint: 'https://collector.example.com:4318' } }),
    );
    expect(tracingOf(traced)).toEqual(Array(4).fill(['https://collector.example.com:4318', 'false']));
  }, 120_000);

  it('generates the session and origin secrets in Secrets Manager and gives them to the HTTP functions (API, agent, stream) only', () => {
    // The origin secret's wiring is checked in test/infra/stream.test.ts.
    template.resourceCountIs('AWS::SecretsManager::Secret', 2);
    const secretReaders = Object.values(resourcesOf('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties).includes('secretsmanager:GetSecretValue'),
    );
    expect(secretReaders).toHaveLength(3);
  });

  it('keeps one rotating KMS key for secrets at rest, retained, and lets every function, the bridge and the migration use it (not administer it)', () => {
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ EnableKeyRotation: true }) });
    template.resourceCountIs('AWS::KMS::Key', 1);
    const keyId = Object.keys(resourcesOf('AWS::KMS::Key'))[0];
    const users = Object.values(resourcesOf('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties).includes('kms:GenerateDataKey'),
    );
    // The API, agent, stream and jobs functions, the bridge task, and the migration function.
    expect(users).toHaveLength(6);
    for (const policy of users) {
      const statements =
        (policy.Properties?.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] } | undefined)?.Statement ??
        [];
      const kms = statements.filter((statement) => JSON.stringify(statement.Action).includes('kms:'));
      expect(kms).toEqual([
        expect.objectContaining({ Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Resource: { 'Fn::GetAtt': [keyId, 'Arn'] } }),
      ]);
    }
    for (const fn of Object.values(serviceFunctions())) {
      const environment = (fn.Properties?.Environment as { Variables: Record<string, unknown> } | undefined)?.Variables;
      expect(environment?.SECRETS_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    }
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      ContainerDefinitions: [
        Match.objectLike({ Environment: Match.arrayWith([{ Name: 'SECRETS_KMS_KEY_ID', Value: { 'Fn::GetAtt': [keyId, 'Arn'] } }]) }),
      ],
    });
  });

  it('runs the chat bridge as one arm64 Fargate task with a health check, circuit breaker with rollback, and logs', () => {
    template.hasResourceProperties('AWS::ECS::Service', {
      LaunchType: 'FARGATE',
      DesiredCount: 1,
      DeploymentConfiguration: Match.objectLike({ DeploymentCircuitBreaker: { Enable: true, Rollback: true } }),
    });
    const image = new Capture();
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [
        Match.objectLike({
          Image: image,
          HealthCheck: Match.objectLike({ Command: Match.arrayWith(['CMD', 'node']) }),
          LogConfiguration: Match.objectLike({ LogDriver: 'awslogs' }),
          PortMappings: [Match.objectLike({ ContainerPort: 8080 })],
        }),
      ],
    });
    expect(JSON.stringify(image.asObject())).toContain('cdk-hnb659fds-container-assets');
  });

  it('migrates stored data before the functions, queues and bridge that read it change, when the schema version changes', () => {
    const migrate = Object.entries(resourcesOf('AWS::Lambda::Function')).filter(([id]) => id.startsWith('MigrateFunction'));
    expect(migrate).toHaveLength(1);
    const [migrateId, migrateFn] = migrate[0] as [string, Resources[string]];
    expect(migrateFn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 900 });
    // The table and the secrets' key (migrations seal stored secrets: 009), no other secret, no queue.
    expect(Object.keys(variablesOf(migrateFn)).sort()).toEqual([
      'LOG_LEVEL',
      'NODE_ENV',
      'POWERTOOLS_METRICS_NAMESPACE',
      'SECRETS_KMS_KEY_ID',
      'TABLE_NAME',
    ]);
    const keyId = Object.keys(resourcesOf('AWS::KMS::Key'))[0];
    expect(variablesOf(migrateFn).SECRETS_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    // Its role may make data keys and open them (it re-seals what it opens), and do nothing else with the key.
    const role = (migrateFn.Properties?.Role as { 'Fn::GetAtt': [string, string] } | undefined)?.['Fn::GetAtt'][0];
    expect(role).toBeDefined();
    const policies = Object.entries(resourcesOf('AWS::IAM::Policy')).filter(([, policy]) =>
      JSON.stringify(policy.Properties?.Roles).includes(`"${role}"`),
    );
    // The function (so the migration it runs) waits for its grants.
    const dependsOn = (template.toJSON() as { Resources: Record<string, { DependsOn?: string[] }> }).Resources[migrateId]?.DependsOn;
    expect(dependsOn).toEqual(expect.arrayContaining(policies.map(([id]) => id)));
    const kms = policies.flatMap(([, policy]) =>
      (
        (policy.Properties?.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] } | undefined)?.Statement ??
        []
      ).filter((statement) => JSON.stringify(statement.Action).includes('kms:')),
    );
    expect(kms).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
        Resource: { 'Fn::GetAtt': [keyId, 'Arn'] },
      }),
    ]);
    const migrations = (template.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> })
      .Resources;
    const custom = Object.entries(migrations).filter(([, resource]) => resource.Type === 'Custom::Migration');
    expect(custom).toHaveLength(1);
    const [customId, resource] = custom[0] as [string, { Properties: Record<string, unknown> }];
    expect(resource.Properties).toEqual({ ServiceToken: { 'Fn::GetAtt': [migrateId, 'Arn'] }, SchemaVersion: SCHEMA_VERSION });
    // Everything that reads the table waits for it.
    const resources = (template.toJSON() as { Resources: Record<string, { DependsOn?: string[] }> }).Resources;
    for (const id of Object.keys(serviceFunctions())) expect(resources[id]?.DependsOn ?? []).toContain(customId);
    const services = Object.keys(resourcesOf('AWS::ECS::Service'));
    for (const id of services) expect(resources[id]?.DependsOn ?? []).toContain(customId);
  });

  it('grants no wildcard IAM actions', () => {
    const actions = Object.values(resourcesOf('AWS::IAM::Policy')).flatMap((policy) =>
      ((policy.Properties?.PolicyDocument as { Statement: { Action: string | string[] }[] } | undefined)?.Statement ?? []).flatMap(
        (statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]),
      ),
    );
    expect(actions.length).toBeGreaterThan(10);
    expect(actions.filter((action) => action === '*' || action.endsWith(':*'))).toEqual([]);
    // Functions use their own roles, not the AWS-managed basic execution policy.
    for (const role of Object.values(resourcesOf('AWS::IAM::Role'))) {
      expect(JSON.stringify(role.Properties?.ManagedPolicyArns ?? [])).not.toContain('AWSLambdaBasicExecutionRole');
    }
  });

  it("outputs the service's URL (CloudFront), the API and stream function URLs, the table and bucket names and the queue URLs", () => {
    const outputs = Object.keys(template.findOutputs('*')).sort();
    expect(outputs).toEqual([
      'ApiUrl',
      'ColdMessagesQueueUrl',
      'ConversationStatsQueueUrl',
      'EvalsQueueUrl',
      'KnowledgeBucketName',
      'KnowledgeQueueUrl',
      'LifecycleQueueUrl',
      'RoutinesQueueUrl',
      'ServiceUrl',
      'StreamFunctionUrl',
      'TableName',
    ]);
  });

  it('has this resource list (review changes to it deliberately)', () => {
    const resources = (template.toJSON() as { Resources: Resources }).Resources;
    const list = Object.entries(resources)
      .map(([logicalId, resource]) => `${resource.Type} ${logicalId}`)
      .sort();
    expect(list).toMatchSnapshot();
  });
});

describe('the knowledge bucket', () => {
  it('comes without a vector bucket or an embedding provider when no embedding model is named (test/infra/embeddings.test.ts: with one)', () => {
    expect(Object.keys(template.findResources('AWS::S3Vectors::VectorBucket'))).toEqual([]);
    expect(JSON.stringify(template.toJSON())).not.toContain('EMBEDDINGS_PROVIDER');
    expect(JSON.stringify(template.toJSON())).not.toContain('VECTOR_BUCKET_ARN');
  });

  const bucketId = () => {
    const ids = Object.keys(resourcesOf('AWS::S3::Bucket')).filter((id) => id.startsWith('Knowledge'));
    expect(ids).toHaveLength(1);
    return ids[0] as string;
  };
  /** The role of the function whose description starts with `descriptionStart`. */
  const roleOfFunction = (descriptionStart: string) => {
    const fn = Object.values(serviceFunctions()).find((candidate) =>
      String(candidate.Properties?.Description).startsWith(descriptionStart),
    );
    const role = (fn?.Properties?.Role as { 'Fn::GetAtt': [string, string] } | undefined)?.['Fn::GetAtt'][0];
    expect(role, descriptionStart).toBeDefined();
    return role as string;
  };
  const bridgeRole = () => {
    const [task] = Object.values(resourcesOf('AWS::ECS::TaskDefinition'));
    const role = (task?.Properties?.TaskRoleArn as { 'Fn::GetAtt': [string, string] } | undefined)?.['Fn::GetAtt'][0];
    expect(role).toBeDefined();
    return role as string;
  };
  /** What a role may do with the bucket: `<action> bucket` or `<action> objects`, from every policy attached to it. */
  const bucketGrantsOf = (role: string) => {
    const bucket = { 'Fn::GetAtt': [bucketId(), 'Arn'] };
    const objects = { 'Fn::Join': ['', [bucket, '/*']] };
    return Object.values(resourcesOf('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties?.Roles).includes(`"${role}"`))
      .flatMap(
        (policy) =>
          (policy.Properties?.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] } | undefined)?.Statement ??
          [],
      )
      .filter((statement) => JSON.stringify(statement.Resource).includes(`"${bucketId()}"`))
      .flatMap((statement) => {
        const actions = Array.isArray(statement.Action) ? statement.Action : [statement.Action];
        const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
        return actions.flatMap((action) =>
          resources.map((resource) => {
            const text = JSON.stringify(resource);
            return `${action} ${text === JSON.stringify(bucket) ? 'bucket' : text === JSON.stringify(objects) ? 'objects' : text}`;
          }),
        );
      })
      .sort();
  };

  it('keeps the files under a stable logical id, retained, private, encrypted, TLS only, unfinished uploads aborted and unclaimed ones gone after a day', () => {
    expect(bucketId()).toBe('KnowledgeFiles50D1ECE8');
    const bucket = (template.toJSON() as { Resources: Record<string, Record<string, unknown>> }).Resources[bucketId()];
    expect(bucket).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(bucket?.Properties).toEqual({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      // No versioning: a replaced index version is deleted on purpose (shared/knowledge/search/index-store.ts).
      LifecycleConfiguration: {
        Rules: [
          { AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
          { Id: 'UnclaimedUploads', Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' },
        ],
      },
      // Browsers POST files to uploads (presigned: the signed policy is what lets one in), and do nothing else.
      CorsConfiguration: {
        CorsRules: [
          {
            AllowedMethods: ['POST'],
            AllowedOrigins: ['*'],
            AllowedHeaders: ['*'],
            MaxAge: 3600,
          },
        ],
      },
    });
    // Requests without TLS are denied by the bucket's policy.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId() },
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      }),
    });
  });

  it('lets the API function write (uploads), the jobs consumer write and delete (ingestion), the agent and stream functions and the bridge only read', () => {
    // ListBucket: a missing file is then NoSuchKey (shared/platform/blobs-s3.ts reads it as none), not 403.
    const read = ['s3:GetObject objects', 's3:ListBucket bucket'];
    // …and delete a claimed upload's file, under `uploads/` only.
    const uploads = JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, '/uploads/*']] });
    expect(bucketGrantsOf(roleOfFunction('The HTTP API'))).toEqual([...read, 's3:PutObject objects', `s3:DeleteObject ${uploads}`].sort());
    expect(bucketGrantsOf(roleOfFunction('Background jobs'))).toEqual([...read, 's3:DeleteObject objects', 's3:PutObject objects'].sort());
    expect(bucketGrantsOf(roleOfFunction('The query (agent loop'))).toEqual(read);
    expect(bucketGrantsOf(roleOfFunction('The query and the messaging webhook'))).toEqual(read);
    expect(bucketGrantsOf(bridgeRole())).toEqual(read);
    // No other policy names the bucket (the console's deployment role has the console's bucket only).
    const granted = Object.values(resourcesOf('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties?.PolicyDocument).includes(`"${bucketId()}"`),
    );
    expect(granted).toHaveLength(5);
  });

  it('gives its name (KNOWLEDGE_BUCKET) to every function and task that builds the deps, none to the migration', () => {
    for (const fn of Object.values(serviceFunctions())) expect(variablesOf(fn).KNOWLEDGE_BUCKET).toEqual({ Ref: bucketId() });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      ContainerDefinitions: [
        Match.objectLike({ Environment: Match.arrayWith([{ Name: 'KNOWLEDGE_BUCKET', Value: { Ref: bucketId() } }]) }),
      ],
    });
    const [migrate] = Object.entries(resourcesOf('AWS::Lambda::Function')).filter(([id]) => id.startsWith('MigrateFunction'));
    expect(migrate && variablesOf(migrate[1]).KNOWLEDGE_BUCKET).toBeUndefined();
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  it('reports no finding that is neither fixed nor acknowledged with a reason', () => {
    const app = newApp();
    new ServiceStack(app, 'Nag');
    const { violations, threw } = nagFindings(app);
    expect(violations).toEqual([]);
    expect(threw).toBeUndefined();
  }, 120_000);

  it('does run: a queue without a dead-letter queue or TLS enforcement is reported', () => {
    const app = newApp();
    const stack = new Stack(app, 'Control');
    new Queue(stack, 'Careless', { enforceSSL: false });
    const rules = nagFindings(app).violations.map((violation) => violation.split(' at ')[0]);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
  });
});
