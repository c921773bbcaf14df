import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { Context } from 'hono';
import { systemClock } from './clock.js';
import { parseConfig, type Config } from './config.js';
import { createDynamoClient } from './dynamo.js';
import { errorMessage } from './errors.js';
import { createLogger, type AppLogger } from './logger.js';
import type { Metrics } from './metrics.js';
import { EnvelopeSecrets } from './secrets.js';
import { KmsKeyWrapper } from './secrets-kms.js';
import type { SecretStore } from './store.js';
import { Table } from './table.js';
import { awsClientAddress } from './viewer-address.js';

/*
 * The platform of a process on AWS (a Lambda container, a Fargate task): configuration, logger,
 * traces, the table with its secrets, the session and origin secrets. The deps the core takes are
 * assembled from it by the entry points' wiring (shared/wiring/aws-deps.ts), which adds the job
 * queues and the clients a function needs.
 */

/** A secret the stack generated in Secrets Manager (at least 32 characters), read at cold start. */
async function generatedSecret(arn: string, name: string): Promise<string> {
  const secret = await getSecret(arn, { maxAge: 3600 });
  if (typeof secret !== 'string' || secret.length < 32)
    throw new Error(`the ${name} in Secrets Manager is missing or shorter than 32 characters`);
  return secret;
}

/** The session secret: `SESSION_SECRET`, else the Secrets Manager secret the stack generated. */
async function sessionSecretOf(config: Config): Promise<string | undefined> {
  if (config.sessionSecret) return config.sessionSecret;
  if (!config.sessionSecretArn) return undefined;
  return generatedSecret(config.sessionSecretArn, 'session secret');
}

/**
 * The origin secret that CloudFront sends to the HTTP functions (lib/front-door.ts), when the
 * stack gave its ARN (`ORIGIN_VERIFY_SECRET_ARN`). Without it no request is taken for CloudFront's.
 */
async function originSecretOf(config: Config): Promise<string | undefined> {
  return config.originSecretArn ? generatedSecret(config.originSecretArn, 'origin secret') : undefined;
}

export interface AwsPlatformOptions {
  needsSession: boolean;
  /** Where a request comes from when CloudFront does not vouch for its viewer: the Lambda event's source IP unless given. */
  sourceAddress?: (c: Context) => string | undefined;
}

/**
 * The platform of an AWS process, made once at module load: configuration from the environment,
 * the logger, traces (only when the environment names an OTLP endpoint; the SDK is loaded then
 * only), the table with KMS envelope encryption, the session secret, and the address per-address
 * limits count (the viewer's behind CloudFront, else the source IP).
 */
export async function openAwsPlatform(env: Record<string, string | undefined>, options: AwsPlatformOptions) {
  const config = parseConfig(env, 'aws');
  const logger = createLogger(config);
  const tracing = config.otlpEndpoint ? (await import('./tracing-sdk.js')).startTracing(config) : undefined;
  const [sessionSecret, originSecret] = await Promise.all([sessionSecretOf(config), originSecretOf(config)]);
  if (options.needsSession && !sessionSecret) throw new Error('SESSION_SECRET or SESSION_SECRET_ARN is required');
  if (!config.secretsKmsKeyId) throw new Error('SECRETS_KMS_KEY_ID is required on AWS (set by the CDK stack)');
  const store: SecretStore = {
    table: new Table(createDynamoClient(config, config.dynamoEndpoint), config.tableName, systemClock),
    clock: systemClock,
    secrets: new EnvelopeSecrets(new KmsKeyWrapper(config.secretsKmsKeyId, config.awsRegion)),
  };
  return { config, logger, store, sessionSecret, tracing, clientAddress: awsClientAddress(originSecret, options.sourceAddress) };
}

/** What each invocation writes out before it returns (`flushedAfter`): its metrics, its spans. */
export function telemetryOf(metrics: Metrics, tracing: { flush(): Promise<void> } | undefined, logger: AppLogger) {
  return {
    async flush() {
      metrics.flush();
      await tracing?.flush().catch((error: unknown) => logger.warn('traces not sent', { error: errorMessage(error) }));
    },
  };
}
