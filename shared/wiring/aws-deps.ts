import { S3BlobStore } from '../platform/blobs-s3.js';
import { lazyVectorStore } from '../platform/vectors.js';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDeps, type DepsParts } from './deps.js';
import { EventBridgeScheduler } from '../jobs/scheduler.js';
import { SqsJobQueue, type QueueUrls } from '../jobs/sqs.js';
import type { Config } from '../platform/config.js';
import { openAwsPlatform, telemetryOf, type AwsPlatformOptions } from '../platform/aws-runtime.js';
import type { AppLogger } from '../platform/logger.js';
import { once } from '../platform/once.js';
import type { SecretStore, Store } from '../platform/store.js';

/*
 * The wiring of a process on AWS: the platform (shared/platform/aws-runtime.ts), the job queues
 * and schedules, and the clients a function adds, assembled into the core's deps. Used by every
 * entry under functions/.
 */

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required on AWS (set by the CDK stack)`);
  return value;
}

function queueUrlsOf(config: Config): QueueUrls {
  return {
    lifecycle: required(config.queues.lifecycleUrl, 'LIFECYCLE_QUEUE_URL'),
    'cold-messages': required(config.queues.coldMessagesUrl, 'COLD_MESSAGES_QUEUE_URL'),
    'conversation-stats': required(config.queues.statsUrl, 'STATS_QUEUE_URL'),
    // Required when a case is sent (sqs.ts), not at start: most functions never send one.
    evals: config.queues.evalsUrl,
    knowledge: config.queues.knowledgeUrl,
    routines: config.queues.routinesUrl,
  };
}

/**
 * The AWS job adapters (SQS queues, EventBridge Scheduler), made once per Lambda container. Their
 * SDK clients are loaded on first use: most API requests send no job.
 */
function createAwsJobs(config: Config, store: Store) {
  const sqs = once(async (): Promise<SQSClient> => new (await import('@aws-sdk/client-sqs')).SQSClient({ region: config.awsRegion }));
  const schedulerClient = once(
    async (): Promise<SchedulerClient> => new (await import('@aws-sdk/client-scheduler')).SchedulerClient({ region: config.awsRegion }),
  );
  const queueUrls = queueUrlsOf(config);
  const jobs = new SqsJobQueue(sqs, queueUrls, store);
  const scheduler = new EventBridgeScheduler(schedulerClient, {
    groupName: required(config.queues.schedulerGroup, 'SCHEDULER_GROUP_NAME'),
    targetArn: required(config.queues.lifecycleArn, 'LIFECYCLE_QUEUE_ARN'),
    roleArn: required(config.queues.schedulerRoleArn, 'SCHEDULER_ROLE_ARN'),
  });
  return { sqs, queueUrls, jobs, scheduler };
}

/**
 * The deps of a Lambda container or AWS task, built once at module load: the platform, the SQS
 * job queues and EventBridge schedules. `extra` adds what a function needs beyond the core (the
 * agent's clients). `clientAddress` is the HTTP functions' `ClientAddressOf`; `queueUrls`, the
 * queues the jobs function consumes.
 */
export async function createAwsDeps(
  env: Record<string, string | undefined>,
  options: AwsPlatformOptions & {
    extra?: (config: Config, logger: AppLogger, store: SecretStore) => Partial<DepsParts>;
  },
) {
  const { config, logger, store, sessionSecret, tracing, clientAddress } = await openAwsPlatform(env, options);
  const { sqs, queueUrls, jobs, scheduler } = createAwsJobs(config, store);
  const blobs = new S3BlobStore(required(config.knowledgeBucket, 'KNOWLEDGE_BUCKET'), config.awsRegion);
  // The knowledge's vectors go to the stack's vector bucket when an embedding provider is configured.
  const vectorBucketArn = config.embeddings ? config.vectorBucketArn : undefined;
  const vectors = vectorBucketArn
    ? lazyVectorStore(
        async () => new (await import('../platform/vectors-s3.js')).S3VectorStore(vectorBucketArn, { region: config.awsRegion }),
      )
    : undefined;
  const deps = createDeps({
    config,
    ...store,
    logger,
    sessionSecret,
    jobs,
    scheduler,
    blobs,
    vectors,
    ...options.extra?.(config, logger, store),
  });
  return { config, deps, sqs, queueUrls, telemetry: telemetryOf(deps.metrics, tracing, logger), clientAddress };
}
