import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { Context } from 'hono';
import { getConnInfo } from 'hono/aws-lambda';
import { createDeps, type DepsParts } from '../deps.js';
import { createAwsJobs } from '../jobs/aws.js';
import { systemClock } from './clock.js';
import { parseConfig, type Config } from './config.js';
import { createDynamoClient } from './dynamo.js';
import { createLogger } from './logger.js';
import { EnvelopeSecrets } from './secrets.js';
import { KmsKeyWrapper } from './secrets-kms.js';
import type { SecretStore } from './store.js';
import { Table } from './table.js';

/** The session secret: `SESSION_SECRET`, else the Secrets Manager secret the stack generated. */
async function sessionSecretOf(config: Config): Promise<string | undefined> {
  if (config.sessionSecret) return config.sessionSecret;
  if (!config.sessionSecretArn) return undefined;
  const secret = await getSecret(config.sessionSecretArn, { maxAge: 3600 });
  if (typeof secret !== 'string' || secret.length < 32)
    throw new Error('the session secret in Secrets Manager is missing or shorter than 32 characters');
  return secret;
}

/**
 * The deps of a Lambda container, built once at module load: configuration from the environment,
 * the table, the SQS job queues and EventBridge schedules. `extra` adds what a function needs
 * beyond the core (the agent's clients).
 */
export async function createAwsDeps(
  env: Record<string, string | undefined>,
  options: {
    needsSession: boolean;
    extra?: (config: Config, logger: ReturnType<typeof createLogger>, store: SecretStore) => Partial<DepsParts>;
  } = { needsSession: true },
) {
  const config = parseConfig(env, 'aws');
  const logger = createLogger(config);
  const sessionSecret = await sessionSecretOf(config);
  if (options.needsSession && !sessionSecret) throw new Error('SESSION_SECRET or SESSION_SECRET_ARN is required');
  if (!config.secretsKmsKeyId) throw new Error('SECRETS_KMS_KEY_ID is required on AWS (set by the CDK stack)');
  const store: SecretStore = {
    table: new Table(createDynamoClient(config, config.dynamoEndpoint), config.tableName, systemClock),
    clock: systemClock,
    secrets: new EnvelopeSecrets(new KmsKeyWrapper(config.secretsKmsKeyId, config.awsRegion)),
  };
  const { sqs, jobs, scheduler } = createAwsJobs(config, store);
  const deps = createDeps({ config, ...store, logger, sessionSecret, jobs, scheduler, ...options.extra?.(config, logger, store) });
  return { config, deps, sqs };
}

/** API Gateway's source IP of the request (never a header the client sets), or undefined outside a Lambda event. */
export function lambdaClientAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
