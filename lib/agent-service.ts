import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { VpcLink } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpAlbIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Peer, Port, SecurityGroup, SubnetType, type Vpc } from 'aws-cdk-lib/aws-ec2';
import {
  type ContainerDefinition,
  Cluster,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { ApplicationLoadBalancer, ApplicationProtocol, type ApplicationListener } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { QUERIES_IN_FLIGHT_METRIC } from '../shared/agent/in-flight.js';
import { Construct } from 'constructs';
import { fargateImage, flowLoggedVpc } from './fargate.js';
import { grantBedrockClaude } from './functions.js';
import type { Jobs } from './jobs.js';

const SERVICE_PORT = 8080;
/** The CloudWatch metric each task reports every 10 s (functions/agent-service/main.ts). */
const IN_FLIGHT_METRIC = { metricName: QUERIES_IN_FLIGHT_METRIC.name, dimensionsMap: { ...QUERIES_IN_FLIGHT_METRIC.dimension } };

/** How many tasks, and how many queries each runs before the service adds one. */
export interface AgentServiceScaling {
  minTasks: number;
  maxTasks: number;
  /** The queries in flight per task the service keeps on average: it adds tasks above, removes below. */
  queriesPerTask: number;
}

export interface AgentServiceProps {
  table: ITableV2;
  jobs: Jobs;
  /** What the agent function would have: the table, the secrets' ARNs, the operator's access settings. */
  environment: Record<string, string>;
  secrets: ISecret[];
  scaling: AgentServiceScaling;
  /** Origins allowed by CORS, as the HTTP API's: the service answers it on the streamable routes CloudFront sends it. */
  corsOrigins: string[];
}

/**
 * The agent loop as a service on Fargate (`agentRuntime: 'fargate'`, docs/capacity.md): the query,
 * streamed or not, and the MCP connectors, served by long-running tasks (arm64) where one process
 * holds hundreds of model waits, instead of a Lambda instance per query billed for its whole wait.
 *
 * The tasks sit behind an internal Application Load Balancer in isolated subnets, which nothing on
 * the internet reaches: CloudFront sends the streamable routes to it as a VPC origin
 * (lib/front-door.ts), and API Gateway the agent's other routes through a VPC link, so users keep
 * the same paths. The tasks run in public subnets with a public address for their way out (the
 * model, tool servers, AWS APIs) and no NAT gateway; their security group takes traffic from the
 * load balancer only. The service scales on the queries in flight per task; a task that stops
 * (a deploy, a scale-in) takes no new request and has 2 minutes to finish those it has.
 */
export class AgentService extends Construct {
  readonly service: FargateService;
  readonly taskDefinition: FargateTaskDefinition;
  readonly container: ContainerDefinition;
  readonly loadBalancer: ApplicationLoadBalancer;
  readonly listener: ApplicationListener;
  /** API Gateway's way to the service: the agent's routes (lib/api.ts `routeAgentPaths`). */
  readonly integration: HttpAlbIntegration;

  constructor(scope: Construct, id: string, props: AgentServiceProps) {
    super(scope, id);
    // Public subnets for the tasks (their way out, with no NAT gateway), isolated ones for the balancer.
    const vpc = flowLoggedVpc(this, [
      { name: 'tasks', subnetType: SubnetType.PUBLIC, cidrMask: 22 },
      { name: 'balancer', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
    ]);
    const cluster = new Cluster(this, 'Cluster', { vpc });
    Validations.of(cluster).acknowledge({
      id: 'AwsSolutions-ECS4',
      reason:
        'The service reports its own signal (QueriesInFlight) and the queries’ metrics; Container Insights is billed per task and metric.',
    });
    this.taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: 1024,
      memoryLimitMiB: 2048,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    this.container = this.addContainer(props);
    this.loadBalancer = this.internalBalancer(vpc);
    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.scaling.minTasks,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      circuitBreaker: { enable: true, rollback: true },
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
    });
    // HTTP inside the VPC: CloudFront and API Gateway end TLS, and the balancer is not on the internet.
    this.listener = this.loadBalancer.addListener('Http', { port: 80, protocol: ApplicationProtocol.HTTP, open: false });
    this.listener.addTargets('Tasks', {
      port: SERVICE_PORT,
      protocol: ApplicationProtocol.HTTP,
      targets: [this.service],
      // A stopping task answers 503 here at once; it is given as long as ECS gives it to finish.
      healthCheck: { path: '/health', interval: Duration.seconds(10), healthyThresholdCount: 2, unhealthyThresholdCount: 2 },
      deregistrationDelay: Duration.seconds(120),
    });
    this.scaleOnQueriesInFlight(props.scaling);
    const vpcLink = new VpcLink(this, 'ApiLink', { vpc, subnets: { subnetType: SubnetType.PRIVATE_ISOLATED } });
    this.integration = new HttpAlbIntegration('Agent', this.listener, { vpcLink });
  }

  /** The container: the image of functions/agent-service, with the agent's environment and grants. */
  private addContainer(props: AgentServiceProps): ContainerDefinition {
    const logs = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const container = this.taskDefinition.addContainer('Agent', {
      image: fargateImage('functions/agent-service/main.ts'),
      environment: {
        ...props.environment,
        ...(props.corsOrigins.length ? { CORS_ORIGINS: props.corsOrigins.join(',') } : {}),
        NODE_ENV: 'production',
        LOG_LEVEL: 'INFO',
        PORT: String(SERVICE_PORT),
        MCP_ALLOW_PRIVATE_URLS: 'false',
        // A task holds this many queries at once (429 past it), twice what the scaling aims at.
        MAX_QUERIES_IN_FLIGHT: String(props.scaling.queriesPerTask * 2),
        POWERTOOLS_METRICS_NAMESPACE: Stack.of(this).stackName,
      },
      portMappings: [{ containerPort: SERVICE_PORT }],
      logging: LogDrivers.awsLogs({ streamPrefix: 'agent', logGroup: logs }),
      // SIGTERM, then this long for the queries in flight before SIGKILL: Fargate's maximum.
      stopTimeout: Duration.seconds(120),
    });
    const role = this.taskDefinition.taskRole;
    props.table.grantReadWriteData(role);
    for (const secret of props.secrets) secret.grantRead(role);
    props.jobs.wireJobs(role, (key, value) => container.addEnvironment(key, value));
    grantBedrockClaude(this, role);
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The environment holds configuration and the ARNs of secrets (read from Secrets Manager at start), never a secret itself.',
    });
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: "The execution role's ecr:GetAuthorizationToken has no resource-level scope; pulling is limited to the asset repository.",
    });
    return container;
  }

  /** The internal balancer, in the isolated subnets, taking HTTP from the VPC's own range only. */
  private internalBalancer(vpc: Vpc): ApplicationLoadBalancer {
    const group = new SecurityGroup(this, 'BalancerSecurityGroup', {
      vpc,
      description: 'The agent service load balancer: HTTP from inside the VPC only (CloudFront VPC origin, API Gateway VPC link)',
      allowAllOutbound: false,
    });
    group.addIngressRule(Peer.ipv4(vpc.vpcCidrBlock), Port.tcp(80), 'CloudFront VPC origin and API Gateway VPC link');
    Validations.of(group).acknowledge({
      id: 'AwsSolutions-EC23',
      reason: "Inbound from the VPC's own range only (a token cdk-nag cannot read): CloudFront's VPC origin and the VPC link sit in it.",
    });
    const balancer = new ApplicationLoadBalancer(this, 'Balancer', {
      vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
      securityGroup: group,
      // A streamed answer sends a comment every 15 s; a plain answer may take as long as the loop.
      idleTimeout: Duration.seconds(120),
      dropInvalidHeaderFields: true,
    });
    Validations.of(balancer).acknowledge({
      id: 'AwsSolutions-ELB2',
      reason:
        'Internal, reached only through CloudFront and API Gateway, whose access logs hold every request (lib/front-door.ts, lib/api.ts).',
    });
    return balancer;
  }

  /** Target tracking on the tasks' average queries in flight. */
  private scaleOnQueriesInFlight(target: AgentServiceScaling): void {
    const scaling = this.service.autoScaleTaskCount({ minCapacity: target.minTasks, maxCapacity: target.maxTasks });
    scaling.scaleToTrackCustomMetric('QueriesInFlight', {
      metric: new Metric({ namespace: Stack.of(this).stackName, ...IN_FLIGHT_METRIC, statistic: 'Average', period: Duration.minutes(1) }),
      targetValue: target.queriesPerTask,
      scaleOutCooldown: Duration.seconds(60),
      // Slowly in: a task taken away ends its queries within 2 minutes.
      scaleInCooldown: Duration.minutes(5),
    });
  }
}
