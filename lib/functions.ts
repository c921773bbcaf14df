import { AssetHashType, DockerImage, RemovalPolicy, Stack, Validations, type Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * A function's code: its bundle as `lib/bundling.ts` builds it (ESM for nodejs22.x, minified, no
 * source maps, code-split: `index.mjs`, the chunks it imports and those loaded on demand), the very
 * build the bundle test loads and the benchmark measures. Built locally by the project's esbuild,
 * in a process of its own (esbuild's plugins need its asynchronous API; CDK bundles synchronously).
 */
function bundledCode(entry: string): Code {
  return Code.fromAsset(root, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // The same build in a container, should local bundling ever decline (it does not: esbuild and
      // tsx are the project's devDependencies). The command also keys CDK's cache of bundles,
      // which would otherwise give every function the first one built.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
      workingDirectory: '/asset-input',
      command: ['node', '--import', 'tsx', 'lib/build-lambda.ts', entry, '/asset-output'],
      local: {
        tryBundle(outputDir) {
          const built = spawnSync(
            process.execPath,
            ['--import', 'tsx', join(root, 'lib', 'build-lambda.ts'), join(root, entry), outputDir],
            {
              cwd: root,
              stdio: ['ignore', 'inherit', 'inherit'],
            },
          );
          if (built.status !== 0) throw new Error(`bundling ${entry} failed (exit ${built.status ?? built.signal})`);
          return true;
        },
      },
    },
  });
}

export function serviceFunction(
  scope: Construct,
  id: string,
  props: {
    entry: string;
    memorySize: number;
    timeout: Duration;
    environment: Record<string, string>;
    description: string;
    /** Concurrent executions reserved (and capped); 0 or unset: none. */
    reservedConcurrency?: number;
  },
) {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  // Its own role that may write to its own log group: not the AWS-managed basic execution policy,
  // which allows writing to every log group of the account.
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: props.description,
  });
  logGroup.grantWrite(role);
  return new LambdaFunction(scope, id, {
    role,
    code: bundledCode(props.entry),
    handler: 'index.handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    description: props.description,
    ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
    // The functions' metrics (EMF, shared/platform/metrics-emf.ts) go to a CloudWatch namespace named after the stack.
    environment: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_NAMESPACE: Stack.of(scope).stackName,
      ...props.environment,
    },
    logGroup,
  });
}

/** The role of a function made by `serviceFunction` (which always gives it one). */
export function roleOf(fn: LambdaFunction): IRole {
  if (!fn.role) throw new Error(`function ${fn.node.path} has no role`);
  return fn.role;
}

/**
 * Claude on Amazon Bedrock, for organisations whose `ai_provider` is `bedrock`: invoking
 * Anthropic's foundation models and the cross-region inference profiles that route to them.
 */
export function grantBedrockClaude(scope: Construct, fn: IGrantable): void {
  fn.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      // Every model call streams (shared/models/anthropic.ts): InvokeModelWithResponseStream.
      actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      resources: [
        'arn:aws:bedrock:*::foundation-model/anthropic.*',
        Stack.of(scope).formatArn({ service: 'bedrock', region: '*', resource: 'inference-profile', resourceName: '*anthropic.*' }),
      ],
    }),
  );
  const reason =
    'Bedrock model and inference-profile ids differ per model tier and region: the grant is InvokeModel (and its streaming form) on Anthropic models only.';
  for (const resource of [
    'arn:aws:bedrock:*::foundation-model/anthropic.*',
    'arn:<AWS::Partition>:bedrock:*:<AWS::AccountId>:inference-profile/*anthropic.*',
  ]) {
    Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
  }
}

/** The operator's access settings of a deployment (docs/security.md). */
export interface AccessSettings {
  signupMode?: 'open' | 'invite' | 'closed';
  allowServiceModelKey?: boolean;
  /** Metrics by workspace (`METRICS_BY_WORKSPACE`): CloudWatch bills each workspace's metrics, and tenants make workspaces. */
  metricsByWorkspace?: boolean;
}

/** The environment variables of the settings given; none for those left to the service's AWS defaults. */
export function accessEnvironment(access: AccessSettings = {}): Record<string, string> {
  return {
    ...(access.signupMode ? { SIGNUP_MODE: access.signupMode } : {}),
    ...(access.allowServiceModelKey !== undefined ? { ALLOW_SERVICE_MODEL_KEY: String(access.allowServiceModelKey) } : {}),
    ...(access.metricsByWorkspace !== undefined ? { METRICS_BY_WORKSPACE: String(access.metricsByWorkspace) } : {}),
  };
}
