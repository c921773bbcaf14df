import { RemovalPolicy, Stack, Validations, type Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { LAMBDA_BUNDLE } from './bundling.js';

const root = join(import.meta.dirname, '..');

/** How every function of the service is built: ESM, arm64, nodejs22.x, minified, no source maps. */
const BUNDLING: NodejsFunctionProps['bundling'] = {
  format: OutputFormat.ESM,
  target: LAMBDA_BUNDLE.target,
  minify: LAMBDA_BUNDLE.minify,
  sourceMap: LAMBDA_BUNDLE.sourcemap,
  mainFields: LAMBDA_BUNDLE.mainFields,
  externalModules: LAMBDA_BUNDLE.external,
  banner: LAMBDA_BUNDLE.banner,
};

export function serviceFunction(
  scope: Construct,
  id: string,
  props: { entry: string; memorySize: number; timeout: Duration; environment: Record<string, string>; description: string },
) {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  // Its own role that may write to its own log group: not the AWS-managed basic execution policy,
  // which allows writing to every log group of the account.
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: props.description,
  });
  logGroup.grantWrite(role);
  return new NodejsFunction(scope, id, {
    role,
    entry: join(root, props.entry),
    handler: 'handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize,
    timeout: props.timeout,
    description: props.description,
    environment: { NODE_ENV: 'production', LOG_LEVEL: 'INFO', ...props.environment },
    bundling: BUNDLING,
    logGroup,
    depsLockFilePath: join(root, 'package-lock.json'),
    projectRoot: root,
  });
}

/** The role of a function made by `serviceFunction` (which always gives it one). */
export function roleOf(fn: NodejsFunction): IRole {
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
      // Every model call streams (shared/agent/anthropic.ts): InvokeModelWithResponseStream.
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
}

/** The environment variables of the settings given; none for those left to the service's AWS defaults. */
export function accessEnvironment(access: AccessSettings = {}): Record<string, string> {
  return {
    ...(access.signupMode ? { SIGNUP_MODE: access.signupMode } : {}),
    ...(access.allowServiceModelKey !== undefined ? { ALLOW_SERVICE_MODEL_KEY: String(access.allowServiceModelKey) } : {}),
  };
}
