import type { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../lib/service-stack.js';
import { ROUTE_TABLE, STREAMABLE_ROUTES, fullPath } from '../../shared/wiring/route-table.js';
import { cdkApps, nagFindings } from '../support/cdk.js';

/**
 * The agent loop on Fargate (`agentRuntime: 'fargate'`, lib/agent-service.ts): the same paths for
 * users, no agent or stream function, a service scaled on its queries in flight behind an internal
 * load balancer that only CloudFront and API Gateway reach.
 */

let template: Template;
let app: App;
const { newApp, removeAll } = cdkApps('wap-cdk-fargate-');

beforeAll(() => {
  app = newApp();
  template = Template.fromStack(
    new ServiceStack(app, 'Fargate', {
      agentRuntime: 'fargate',
      agentService: { minTasks: 3, maxTasks: 30, queriesPerTask: 150 },
      corsOrigins: ['https://app.example.com'],
    }),
  );
}, 120_000);
afterAll(() => {
  removeAll();
});

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
const resourcesOf = (type: string) => template.findResources(type) as Resources;
const onlyOne = (type: string) => {
  const found = Object.entries(resourcesOf(type));
  expect(found).toHaveLength(1);
  return found[0] as [string, Resources[string]];
};

describe('the agent service on Fargate', () => {
  it('replaces the agent and stream functions: the API function, the jobs consumer and the migration remain', () => {
    const descriptions = Object.values(resourcesOf('AWS::Lambda::Function')).map((fn) => String(fn.Properties.Description ?? ''));
    expect(descriptions.some((text) => text.startsWith('The query (agent loop'))).toBe(false);
    expect(descriptions.some((text) => text.startsWith('The query and the messaging webhook, streamed'))).toBe(false);
    expect(descriptions.some((text) => text.startsWith('The HTTP API, except'))).toBe(true);
    template.resourcePropertiesCountIs('AWS::Lambda::Url', {}, 0);
  });

  it('runs arm64 tasks with the agent environment, 2 minutes to stop, and the grants of the agent function', () => {
    const [, task] = Object.entries(resourcesOf('AWS::ECS::TaskDefinition')).find(([, definition]) =>
      JSON.stringify(definition.Properties.ContainerDefinitions).includes('"Name":"Agent"'),
    )!;
    expect(task.Properties.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
    expect(task.Properties).toMatchObject({ Cpu: '1024', Memory: '2048' });
    const container = task.Properties.ContainerDefinitions[0];
    expect(container.StopTimeout).toBe(120);
    const environment = Object.fromEntries(
      (container.Environment as { Name: string; Value: unknown }[]).map((variable) => [variable.Name, variable.Value]),
    );
    expect(environment).toMatchObject({
      MCP_ALLOW_PRIVATE_URLS: 'false',
      MAX_QUERIES_IN_FLIGHT: '300',
      PORT: '8080',
      NODE_ENV: 'production',
      POWERTOOLS_METRICS_NAMESPACE: 'Fargate',
      // CloudFront sends the streamable routes here, where no gateway answers CORS.
      CORS_ORIGINS: 'https://app.example.com',
    });
    for (const name of [
      'TABLE_NAME',
      'SESSION_SECRET_ARN',
      'ORIGIN_VERIFY_SECRET_ARN',
      'SECRETS_KMS_KEY_ID',
      'PUBLIC_BASE_URL',
      'KNOWLEDGE_BUCKET',
    ]) {
      expect(environment[name], name).toBeDefined();
    }
    // The task role: the table, Bedrock's Claude models, the secrets, the knowledge files (read: search_knowledge).
    const taskRoleId = (task.Properties.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const taskPolicies = Object.values(resourcesOf('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes(taskRoleId),
    );
    const actions = JSON.stringify(taskPolicies.map((policy) => policy.Properties.PolicyDocument));
    for (const action of [
      'dynamodb:PutItem',
      'bedrock:InvokeModelWithResponseStream',
      'secretsmanager:GetSecretValue',
      'kms:Decrypt',
      'sqs:SendMessage',
      's3:GetObject',
    ]) {
      expect(actions, action).toContain(action);
    }
    for (const action of ['s3:PutObject', 's3:DeleteObject']) expect(actions, action).not.toContain(action);
  });

  it('sits behind an internal load balancer in isolated subnets, which takes HTTP from inside the VPC only', () => {
    const [, balancer] = onlyOne('AWS::ElasticLoadBalancingV2::LoadBalancer');
    expect(balancer.Properties.Scheme).toBe('internal');
    const [, listener] = onlyOne('AWS::ElasticLoadBalancingV2::Listener');
    expect(listener.Properties).toMatchObject({ Port: 80, Protocol: 'HTTP' });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: 8080,
      HealthCheckPath: '/health',
      TargetType: 'ip',
      TargetGroupAttributes: Match.arrayWith([{ Key: 'deregistration_delay.timeout_seconds', Value: '120' }]),
    });
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      SecurityGroupIngress: [Match.objectLike({ FromPort: 80, ToPort: 80, CidrIp: { 'Fn::GetAtt': [Match.anyValue(), 'CidrBlock'] } })],
    });
    // The tasks take traffic from the balancer only.
    template.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: 8080,
      ToPort: 8080,
      SourceSecurityGroupId: Match.anyValue(),
    });
    template.hasResourceProperties('AWS::ECS::Service', {
      DesiredCount: 3,
      DeploymentConfiguration: Match.objectLike({ DeploymentCircuitBreaker: { Enable: true, Rollback: true } }),
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
    });
  });

  it('scales between the configured counts on the average queries in flight per task', () => {
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      MinCapacity: 3,
      MaxCapacity: 30,
      ScalableDimension: 'ecs:service:DesiredCount',
    });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 150,
        ScaleInCooldown: 300,
        ScaleOutCooldown: 60,
        CustomizedMetricSpecification: {
          MetricName: 'QueriesInFlight',
          Namespace: 'Fargate',
          Dimensions: [{ Name: 'Service', Value: 'AgentService' }],
          Statistic: 'Average',
        },
      },
    });
  });

  it('keeps the same paths: CloudFront sends the streamable routes to the balancer, API Gateway the agent routes through a VPC link', () => {
    const [, distribution] = onlyOne('AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig;
    const vpcOrigins = (config.Origins as { Id: string; VpcOriginConfig?: unknown }[]).filter((origin) => origin.VpcOriginConfig);
    expect(vpcOrigins).toHaveLength(1);
    const [vpcOrigin] = onlyOne('AWS::CloudFront::VpcOrigin');
    expect(JSON.stringify(vpcOrigins[0]?.VpcOriginConfig)).toContain(vpcOrigin);
    template.hasResourceProperties('AWS::CloudFront::VpcOrigin', {
      VpcOriginEndpointConfig: Match.objectLike({ HTTPPort: 80, OriginProtocolPolicy: 'http-only' }),
    });
    const behaviours = config.CacheBehaviors as { PathPattern: string; TargetOriginId: string }[];
    for (const entry of STREAMABLE_ROUTES) {
      const pattern = fullPath(entry).replace(/\{[^}]+\}/g, '*');
      expect(behaviours.find((behaviour) => behaviour.PathPattern === pattern)?.TargetOriginId, pattern).toBe(vpcOrigins[0]?.Id);
    }
    // The origin secret goes to the balancer too.
    expect(JSON.stringify(config.Origins.find((origin: { Id: string }) => origin.Id === vpcOrigins[0]?.Id))).toContain('x-origin-verify');

    onlyOne('AWS::ApiGatewayV2::VpcLink');
    const viaLink = Object.entries(resourcesOf('AWS::ApiGatewayV2::Integration')).filter(
      ([, candidate]) => candidate.Properties.ConnectionType === 'VPC_LINK',
    );
    expect(viaLink).toHaveLength(1);
    const [integrationId, integration] = viaLink[0]!;
    expect(integration.Properties).toMatchObject({ IntegrationType: 'HTTP_PROXY', IntegrationMethod: 'ANY' });
    expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain('AgentServiceBalancerHttp');
    const agentRouteKeys = ROUTE_TABLE.filter((entry) => entry.runs === 'agent').length;
    const toService = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).filter((route) =>
      JSON.stringify(route.Properties.Target).includes(integrationId),
    );
    expect(toService).toHaveLength(agentRouteKeys);
  });

  it('reports no cdk-nag finding that is neither fixed nor acknowledged with a reason', () => {
    const nagged = newApp();
    new ServiceStack(nagged, 'NagFargate', { agentRuntime: 'fargate' });
    const { violations, threw } = nagFindings(nagged);
    expect(violations).toEqual([]);
    expect(threw).toBeUndefined();
  }, 120_000);
});
