import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule, CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { grantBedrockClaude, roleOf, serviceFunction } from './functions.js';

/** The job kinds of shared/jobs/ledger.ts, each with its own queue. */
export const JOB_QUEUES = [
  { name: 'lifecycle', env: 'LIFECYCLE_QUEUE_URL' },
  { name: 'cold-messages', env: 'COLD_MESSAGES_QUEUE_URL' },
  { name: 'conversation-stats', env: 'STATS_QUEUE_URL' },
  { name: 'evals', env: 'EVALS_QUEUE_URL' },
  { name: 'knowledge', env: 'KNOWLEDGE_QUEUE_URL' },
  { name: 'routines', env: 'ROUTINES_QUEUE_URL' },
] as const;

/**
 * Concurrent consumers the evaluation cases may take (the consumer's reserved concurrency is 50 by
 * default): a run of 200 cases waits its turn there rather than taking every consumer the other
 * queues' jobs need. SQS event sources take at least 2.
 */
function evalsMaxConcurrency(reservedConcurrency: number): number {
  return reservedConcurrency > 0 ? Math.max(2, Math.min(10, Math.floor(reservedConcurrency / 4))) : 10;
}

/**
 * Knowledge ingestion. One document per invocation: a batch's documents would be read one after
 * another (each in a worker of up to 256 MB: shared/knowledge/ingest/read-in-worker.ts), up to 30 s
 * each plus its fetch, past the consumer's timeout. At most 2 invocations at once (the least an SQS
 * event source takes): a burst of uploads waits in the queue rather than taking the consumers the
 * other queues' jobs need.
 */
const KNOWLEDGE_CONSUMER = { batchSize: 1, maxConcurrency: 2 };

/** `conversation-stats` → `ConversationStats`: construct and output ids. */
export function pascalCase(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_, _dash: string, letter: string) => letter.toUpperCase());
}

export interface JobsProps {
  table: ITableV2;
  /** Attempts per job (`JOB_MAX_ATTEMPTS`): also the queues' `maxReceiveCount`. */
  maxAttempts: number;
  /** More environment of the consumer (the operator's access settings). */
  environment?: Record<string, string>;
  /** Concurrent executions reserved for the consumer, which also caps it; 0: none. */
  reservedConcurrency: number;
}

/**
 * Background jobs: an SQS queue and a dead-letter queue per job kind, one consumer function
 * reporting partial batch failures, the EventBridge Scheduler group for conversation moves (and
 * the role it sends to the lifecycle queue with), the periodic sweep, and an alarm per DLQ.
 */
export class Jobs extends Construct {
  /**
   * Consumer timeout: the statistics job's model call may take up to 2 minutes; a document's
   * ingestion (its fetch, 30 s at most, its reading, 30 s, and the index's change) well under it.
   */
  static readonly CONSUMER_TIMEOUT = Duration.seconds(150);
  readonly queues: Record<(typeof JOB_QUEUES)[number]['name'], Queue>;
  readonly deadLetterQueues: Queue[] = [];
  readonly consumer: LambdaFunction;
  readonly scheduleGroup: CfnScheduleGroup;
  readonly schedulerRole: Role;

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);
    const queues = {} as Record<(typeof JOB_QUEUES)[number]['name'], Queue>;
    for (const { name } of JOB_QUEUES) {
      const key = pascalCase(name);
      const deadLetterQueue = new Queue(this, `${key}DeadLetters`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      this.deadLetterQueues.push(deadLetterQueue);
      queues[name] = new Queue(this, `${key}Queue`, {
        // At least 6× the consumer's timeout, as AWS recommends for Lambda event sources.
        visibilityTimeout: Duration.seconds(Jobs.CONSUMER_TIMEOUT.toSeconds() * 6),
        retentionPeriod: Duration.days(4),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: props.maxAttempts },
      });
      new Alarm(this, `${key}DeadLettersAlarm`, {
        alarmDescription: `Messages in the ${name} dead-letter queue: the job consumer failed on them (see docs/operations.md)`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
    this.queues = queues;

    this.scheduleGroup = new CfnScheduleGroup(this, 'Schedules', {});
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
      description: 'Lets EventBridge Scheduler send conversation moves and the sweep to the lifecycle queue',
    });
    queues.lifecycle.grantSendMessages(this.schedulerRole);

    this.consumer = serviceFunction(this, 'Consumer', {
      entry: 'functions/jobs/handler.ts',
      // A document's reader may take 256 + 32 MB of heap in its worker thread, beside this thread's
      // (about 85 MB at load, and the passage indexes it keeps) and the document's bytes held twice
      // (20 MB each): at 512 MB the function would be stopped before the worker's own limit refuses
      // the document. Twice the memory also gives twice the CPU to read it within its 30 s.
      memorySize: 1024,
      timeout: Jobs.CONSUMER_TIMEOUT,
      description:
        'Background jobs: conversation moves, cold notices, conversation statistics, evaluation cases, knowledge ingestion, routine runs',
      environment: { TABLE_NAME: props.table.tableName, JOB_MAX_ATTEMPTS: String(props.maxAttempts), ...props.environment },
      reservedConcurrency: props.reservedConcurrency,
    });
    this.wireJobs(roleOf(this.consumer), (key, value) => this.consumer.addEnvironment(key, value));
    props.table.grantReadWriteData(this.consumer);
    // Statistics and evaluation cases call the model, on Bedrock for organisations that chose it.
    grantBedrockClaude(this, this.consumer);
    for (const [name, queue] of Object.entries(queues)) {
      const consumption =
        name === 'knowledge'
          ? KNOWLEDGE_CONSUMER
          : {
              batchSize: 10,
              maxConcurrency: name === 'evals' || name === 'routines' ? evalsMaxConcurrency(props.reservedConcurrency) : undefined,
            };
      this.consumer.addEventSource(new SqsEventSource(queue, { ...consumption, reportBatchItemFailures: true }));
    }

    // The backstop for lost schedules: every minute, a sweep message on the lifecycle queue.
    new CfnSchedule(this, 'Sweep', {
      groupName: this.scheduleGroup.ref,
      scheduleExpression: 'rate(1 minute)',
      flexibleTimeWindow: { mode: 'OFF' },
      description: 'Sends overdue conversation moves and stuck jobs again (docs/operations.md)',
      target: { arn: queues.lifecycle.queueArn, roleArn: this.schedulerRole.roleArn, input: JSON.stringify({ kind: 'sweep' }) },
    });
  }

  /**
   * Gives a function what it needs to send jobs: the queue URLs and send rights, and the right to
   * create, update and delete one-time schedules in this group (passing the scheduler role).
   */
  wireJobs(fn: IGrantable & IConstruct, addEnvironment: (key: string, value: string) => unknown): void {
    for (const { name, env } of JOB_QUEUES) {
      this.queues[name].grantSendMessages(fn);
      addEnvironment(env, this.queues[name].queueUrl);
    }
    addEnvironment('LIFECYCLE_QUEUE_ARN', this.queues.lifecycle.queueArn);
    addEnvironment('SCHEDULER_GROUP_NAME', this.scheduleGroup.ref);
    addEnvironment('SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
    const stack = Stack.of(this);
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
        resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.scheduleGroup.ref}/*` })],
      }),
    );
    this.schedulerRole.grantPassRole(fn.grantPrincipal);
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<${stack.getLogicalId(this.scheduleGroup)}>/*]`,
      reason:
        "One-time schedules are created per conversation and move at run time, with names not known in advance; the grant is limited to this stack's schedule group.",
    });
  }
}
