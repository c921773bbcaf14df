import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { Store } from '../platform/store.js';
import { QUEUE_NAMES, recordOrCheck, type JobMessage, type QueueName } from './ledger.js';
import type { JobQueue } from './queue.js';
import { processJob, type JobHandlers, type WorkerSettings } from './worker.js';
import { errorMessage } from '../platform/errors.js';

/** SQS caps a message's delay at 15 minutes; longer retries wait in the ledger's run_at and a shorter delay. */
const MAX_DELAY_SECONDS = 900;

/** Each queue's URL; `evals`, `knowledge` and `routines` may be missing where none of their jobs is sent (a send there then fails). */
export type QueueUrls = Record<Exclude<QueueName, 'evals' | 'knowledge' | 'routines'>, string> & {
  evals: string | undefined;
  knowledge: string | undefined;
  routines: string | undefined;
};

/**
 * The SQS client, or how to make it. The API function only sends a job now and then, so it loads
 * the SQS SDK on the first send rather than at cold start (docs/architecture.md, bundle budget).
 */
export type SqsClientSource = SQSClient | (() => Promise<SQSClient>);

function clientOf(source: SqsClientSource): Promise<SQSClient> {
  return typeof source === 'function' ? source() : Promise.resolve(source);
}

/**
 * The job queue on AWS: one SQS queue per job kind (each with a dead-letter queue, set up by the
 * CDK stack). Sending records the job in the ledger first, then sends a message that points at it
 * (or, by its queue's delivery mode, only checks or counts it: ledger.ts `recordOrCheck`).
 */
export class SqsJobQueue implements JobQueue {
  constructor(
    private readonly sqs: SqsClientSource,
    private readonly urls: QueueUrls,
    private readonly store: Store,
  ) {}

  private async send(message: JobMessage, delayMs: number): Promise<void> {
    const queueUrl = this.urls[message.queue];
    if (!queueUrl) throw new Error(`no URL for the ${message.queue} queue: EVALS_QUEUE_URL is required on AWS (set by the CDK stack)`);
    const [client, { SendMessageCommand }] = await Promise.all([clientOf(this.sqs), import('@aws-sdk/client-sqs')]);
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.ceil(Math.max(0, delayMs) / 1000)),
      }),
    );
  }

  async enqueue(message: JobMessage, delayMs = 0): Promise<boolean> {
    const sent = await recordOrCheck(this.store, message, delayMs);
    if (sent) await this.send(sent, delayMs);
    return !!sent;
  }

  async redeliver(message: JobMessage): Promise<void> {
    await this.send(message, 0);
  }

  cancel(): void {
    // Nothing to do: a drained job's message is dropped when it arrives (its ledger entry says removed).
  }
}

const JobMessageSchema = z.object({
  jobId: z.string().min(1).max(512),
  queue: z.enum(QUEUE_NAMES),
  orgId: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
  sentAt: z.string().max(40).optional(),
  takeover: z.boolean().optional(),
});

/** Thrown for a job to retry once its visibility timeout is set: the record is reported as a failure. */
class RetryLater extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is to be retried`);
    this.name = 'RetryLater';
  }
}

/** Powertools reads `.message` of what a record's handler throws: a thrown null would fail the whole batch. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

/**
 * The jobs Lambda's work: each record is one job delivery. A job to retry gets its visibility
 * timeout set to the backoff and is reported as a batch item failure, so SQS delivers it again
 * then; a job sent back for later is sent again as a new message, delayed; everything else (done, failed for good, skipped duplicates, unreadable messages) is
 * acknowledged. An error of the service itself (the store unreachable) is a failure too, and after
 * `maxReceiveCount` receives SQS moves the message to the dead-letter queue.
 *
 * Powertools' batch processor does the bookkeeping: a record whose handler throws is reported in
 * `batchItemFailures`. The records of a batch are processed in parallel, as before.
 */
export async function handleSqsBatch(
  deps: Deps,
  handlers: JobHandlers,
  settings: WorkerSettings,
  sqs: SqsClientSource,
  queueUrlOf: (eventSourceArn: string | undefined) => string | undefined,
  event: SQSEvent,
  extra: { onOtherMessage?: (body: unknown) => Promise<void>; context?: Context } = {},
): Promise<SQSBatchResponse> {
  const deliver = async (record: SQSRecord): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      deps.logger.error('dropping a job message that is not JSON', { messageId: record.messageId });
      return;
    }
    const parsed = JobMessageSchema.safeParse(body);
    if (!parsed.success) {
      if (extra.onOtherMessage) {
        try {
          await extra.onOtherMessage(body);
        } catch (error) {
          deps.logger.error('message handling failed', { messageId: record.messageId, error: String(error) });
          throw asError(error);
        }
        return;
      }
      deps.logger.error('dropping a message that is not a job', { messageId: record.messageId });
      return;
    }
    try {
      const outcome = await processJob(deps, handlers, settings, parsed.data);
      if (outcome.kind !== 'retry' && outcome.kind !== 'later') return;
      const queueUrl = queueUrlOf(record.eventSourceARN);
      if (queueUrl) {
        const [client, commands] = await Promise.all([clientOf(sqs), import('@aws-sdk/client-sqs')]);
        const seconds = Math.ceil(outcome.delayMs / 1000);
        if (outcome.kind === 'later') {
          // A new message, and this one acknowledged: waiting for a limit of its organisation is not
          // a failed receive, and so never takes the job to the dead-letter queue.
          const DelaySeconds = Math.min(MAX_DELAY_SECONDS, seconds);
          await client.send(new commands.SendMessageCommand({ QueueUrl: queueUrl, MessageBody: record.body, DelaySeconds }));
          return;
        }
        await client.send(
          new commands.ChangeMessageVisibilityCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: Math.min(43_200, seconds),
          }),
        );
      }
    } catch (error) {
      deps.logger.error('job delivery failed', { messageId: record.messageId, error: errorMessage(error) });
      throw asError(error);
    }
    throw new RetryLater(parsed.data.jobId);
  };
  // A processor per batch: it holds the batch's records and failures, and outside Lambda's invoke
  // store (tests, other callers) nothing keeps two batches on one processor apart.
  const processor = new BatchProcessor(EventType.SQS);
  // A batch in which every record fails is reported record by record, as a partial one is, rather
  // than thrown (Powertools' default): a retry is a failure too, and a batch of one job to retry
  // must still return its batchItemFailures (test/jobs/aws-adapters.test.ts).
  return processPartialResponse(event, deliver, processor, { context: extra.context, throwOnFullBatchFailure: false });
}
