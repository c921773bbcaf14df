import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Deps } from '../deps.js';
import type { Config } from '../platform/config.js';
import { EventBridgeScheduler } from './scheduler.js';
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
  };
}

/** The AWS job adapters (SQS queues, EventBridge Scheduler), made once per Lambda container. */
export function createAwsJobs(config: Config, deps: () => Deps) {
  const sqs = new SQSClient({ region: config.awsRegion });
  const jobs = new SqsJobQueue(sqs, queueUrlsOf(config), deps);
  const scheduler = new EventBridgeScheduler(new SchedulerClient({ region: config.awsRegion }), {
    groupName: required(config.queues.schedulerGroup, 'SCHEDULER_GROUP_NAME'),
    targetArn: required(config.queues.lifecycleArn, 'LIFECYCLE_QUEUE_ARN'),
    roleArn: required(config.queues.schedulerRoleArn, 'SCHEDULER_ROLE_ARN'),
  });
  return { sqs, jobs, scheduler };
}
