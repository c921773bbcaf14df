import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../platform/config.js';
import type { Store } from '../platform/store.js';
import { EventBridgeScheduler } from './scheduler.js';
import { once } from '../platform/once.js';
import { SqsJobQueue, type QueueUrls } from './sqs.js';

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required on AWS (set by the CDK stack)`);
  return value;
}

export function queueUrlsOf(config: Config): QueueUrls {
  return {
    lifecycle: required(config.queues.lifecycleUrl, 'LIFECYCLE_QUEUE_URL'),
    'cold-messages': required(config.queues.coldMessagesUrl, 'COLD_MESSAGES_QUEUE_URL'),
    'conversation-stats': required(config.queues.statsUrl, 'STATS_QUEUE_URL'),
    // Required when a case is sent (sqs.ts), not at start: most functions never send one.
    evals: config.queues.evalsUrl,
  };
}

/**
 * The AWS job adapters (SQS queues, EventBridge Scheduler), made once per Lambda container. Their
 * SDK clients are loaded on first use: most API requests send no job.
 */
export function createAwsJobs(config: Config, store: Store) {
  const sqs = once(async (): Promise<SQSClient> => new (await import('@aws-sdk/client-sqs')).SQSClient({ region: config.awsRegion }));
  const schedulerClient = once(
    async (): Promise<SchedulerClient> => new (await import('@aws-sdk/client-scheduler')).SchedulerClient({ region: config.awsRegion }),
  );
  const jobs = new SqsJobQueue(sqs, queueUrlsOf(config), store);
  const scheduler = new EventBridgeScheduler(schedulerClient, {
    groupName: required(config.queues.schedulerGroup, 'SCHEDULER_GROUP_NAME'),
    targetArn: required(config.queues.lifecycleArn, 'LIFECYCLE_QUEUE_ARN'),
    roleArn: required(config.queues.schedulerRoleArn, 'SCHEDULER_ROLE_ARN'),
  });
  return { sqs, jobs, scheduler };
}
