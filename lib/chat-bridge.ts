import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SubnetType } from 'aws-cdk-lib/aws-ec2';
import {
  type ContainerDefinition,
  Cluster,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { fargateImage, flowLoggedVpc } from './fargate.js';
import { grantBedrockClaude } from './functions.js';
import type { Jobs } from './jobs.js';

const BRIDGE_PORT = 8080;

export interface ChatBridgeProps {
  table: ITableV2;
  jobs: Jobs;
}

/**
 * The always-on team-chat bridge: one Fargate task (arm64) holding the socket-mode connections.
 * It needs no inbound traffic, so it runs in public subnets with a public address and no NAT
 * gateway (a NAT would cost more at rest than the task itself).
 */
export class ChatBridge extends Construct {
  readonly service: FargateService;
  readonly taskDefinition: FargateTaskDefinition;
  readonly container: ContainerDefinition;

  constructor(scope: Construct, id: string, props: ChatBridgeProps) {
    super(scope, id);
    const vpc = flowLoggedVpc(this, [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 }]);
    const cluster = new Cluster(this, 'Cluster', { vpc });
    Validations.of(cluster).acknowledge({
      id: 'AwsSolutions-ECS4',
      reason: "One task: Container Insights would cost more than the task; its logs and the service's CPU and memory metrics are kept.",
    });
    this.taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: 256,
      memoryLimitMiB: 512,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    const logs = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.container = this.taskDefinition.addContainer('Bridge', {
      image: fargateImage('functions/chat-bridge/main.ts'),
      environment: {
        TABLE_NAME: props.table.tableName,
        PORT: String(BRIDGE_PORT),
        NODE_ENV: 'production',
        MCP_ALLOW_PRIVATE_URLS: 'false',
      },
      portMappings: [{ containerPort: BRIDGE_PORT }],
      logging: LogDrivers.awsLogs({ streamPrefix: 'bridge', logGroup: logs }),
      healthCheck: {
        command: [
          'CMD',
          'node',
          '-e',
          `fetch('http://127.0.0.1:${BRIDGE_PORT}/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
        ],
        interval: Duration.seconds(30),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(20),
      },
    });
    const container = this.container;
    // It runs the agent loop for chat messages: the table, the job queues and schedules, Bedrock.
    props.table.grantReadWriteData(this.taskDefinition.taskRole);
    props.jobs.wireJobs(this.taskDefinition.taskRole, (key, value) => container.addEnvironment(key, value));
    grantBedrockClaude(this, this.taskDefinition.taskRole);
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason:
        'The environment holds configuration only (table name, port); the chat tokens are organisation settings in the table, never in the environment.',
    });
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: "The execution role's ecr:GetAuthorizationToken has no resource-level scope; pulling is limited to the asset repository.",
    });
    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      circuitBreaker: { enable: true, rollback: true },
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
    });
  }
}
