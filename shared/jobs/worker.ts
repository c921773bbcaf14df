import type { z } from 'zod';
import type { Deps } from '../deps.js';
import {
  claimJob,
  completeJob,
  countCompleted,
  deliveryModeOf,
  getJob,
  JOB_LEASE_MS,
  recordJob,
  transitionJob,
  unrecordedJob,
  type JobItem,
  type JobMessage,
  type QueueName,
} from './ledger.js';
import { errorMessage } from '../platform/errors.js';
import { issueLines } from '../platform/validation.js';

/**
 * How a queue's jobs are done. `run` must be idempotent: a job delivered twice has one effect.
 * It may answer false when it found its work done already (a `claimed-on-delivery` queue counts
 * the outcome of the delivery that did it).
 */
export interface JobHandler<T> {
  schema: z.ZodType<T>;
  run(deps: Deps, data: T, job: JobItem): Promise<unknown>;
  /** Called once when the job fails for good (after its last attempt). */
  onFailed?(deps: Deps, data: T, job: JobItem, error: string): Promise<void>;
}

// Each queue's handler has its own payload type; the registry only needs them to agree with their schema.
export type JobHandlers = Record<QueueName, JobHandler<unknown>>;

export type JobOutcome =
  | { kind: 'completed' }
  | { kind: 'retry'; delayMs: number; error: string }
  /** Sent back for later, not for a failure (`RunLaterError`): no attempt counted. */
  | { kind: 'later'; delayMs: number; reason: string }
  | { kind: 'failed'; error: string }
  | { kind: 'skipped'; reason: string };

/** One delivery of a job: what the local runner runs, once started. */
export type JobDelivery = (message: JobMessage) => Promise<JobOutcome>;

/** Deliveries done by `processJob` with the core's deps and the queues' handlers. */
export function deliveryOf(deps: Deps, handlers: JobHandlers, settings: WorkerSettings): JobDelivery {
  return (message) => processJob(deps, handlers, settings, message);
}

/**
 * Thrown by a handler whose job may not run yet, for a limit of its organisation (the query rate of
 * an evaluation's case): the job waits `delayMs` and is tried again, the attempt not counted, so
 * however long it waits it does not fail for it.
 */
export class RunLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'RunLaterError';
  }
}

export interface WorkerSettings {
  maxAttempts: number;
  retryBaseMs: number;
}

/** The last error of a job whose payload does not validate: it will not validate next time either. */
const invalidData = (error: z.ZodError) => `invalid job data: ${issueLines(error).join('; ')}`;

function messageOfError(error: unknown): string {
  return errorMessage(error).slice(0, 1000) || 'failed';
}

/**
 * Does one delivery of a job, the same for the local runner and the SQS consumer, one path for
 * every queue: a job of a `recorded-on-failure` queue that the ledger does not hold runs at once
 * (`runUnrecorded`); any other is claimed in the ledger (`claimJob`: one conditional write, so a
 * duplicate delivery or a drained job is skipped), its payload validated, its handler run, and
 * its outcome recorded: completed; delayed for a retry with exponential backoff; or failed with
 * the last error after `maxAttempts` attempts.
 */
export async function processJob(deps: Deps, handlers: JobHandlers, settings: WorkerSettings, message: JobMessage): Promise<JobOutcome> {
  if (deliveryModeOf(message.queue) === 'recorded-on-failure' && !(await getJob(deps, message.jobId)))
    return runUnrecorded(deps, handlers, settings, message);
  const claim = await claimJob(deps, message);
  if (claim.kind === 'drained') return { kind: 'skipped', reason: 'drained' };
  if (claim.kind === 'refused') return refused(deps, message.queue, claim.job);
  const claimed = claim.job;
  const handler = handlers[claimed.queue];
  const parsed = handler.schema.safeParse(claimed.data);
  if (!parsed.success) return failInvalid(deps, claimed, parsed.error);
  let wrote: boolean;
  try {
    wrote = (await handler.run(deps, parsed.data, claimed)) !== false;
  } catch (caught) {
    if (caught instanceof RunLaterError) return sendBack(deps, claimed, caught);
    return afterFailure(deps, handler, settings, claimed, parsed.data, messageOfError(caught));
  }
  await completeJob(deps, claim, wrote);
  countOutcome(deps, claimed, 'completed');
  return { kind: 'completed' };
}

/**
 * A delivery whose claim was refused, by the job as the ledger holds it: delivered before its
 * time (SQS delays stop at 15 minutes), sent back for the rest of the wait; held by another
 * delivery, on a `claimed-on-delivery` queue (where the due index, not the pending index, watches
 * it), tried again once its lease has lapsed; anything else (done, failed, drained, held on a
 * queue whose stuck jobs the sweep finds, gone) skipped.
 */
function refused(deps: Deps, queue: QueueName, job: JobItem | undefined): JobOutcome {
  if (!job) return { kind: 'skipped', reason: 'job is gone' };
  const now = deps.clock.now().getTime();
  const early = new Date(job.run_at).getTime() - now;
  // Refused as delayed: not due when claimed, however near its time is by this read.
  if (job.state === 'delayed') return { kind: 'retry', delayMs: Math.max(0, early), error: 'not due yet' };
  if (job.state === 'active' && deliveryModeOf(queue) === 'claimed-on-delivery') {
    const lapses = job.lease_until ? new Date(job.lease_until).getTime() - now : JOB_LEASE_MS;
    return { kind: 'retry', delayMs: Math.max(1000, lapses + 1000), error: 'claimed by another delivery' };
  }
  return { kind: 'skipped', reason: `job is ${job.state}` };
}

/** A claimed job whose payload does not validate: it will not validate next time either, so it fails now. */
async function failInvalid(deps: Deps, claimed: JobItem, issues: z.ZodError): Promise<JobOutcome> {
  const error = invalidData(issues);
  await transitionJob(deps, claimed, { from: ['active'], to: 'failed', lastError: error });
  countOutcome(deps, claimed, 'failed');
  return { kind: 'failed', error };
}

/** A claimed attempt that threw: delayed for a retry with exponential backoff, or failed for good after `maxAttempts`. */
async function afterFailure<T>(
  deps: Deps,
  handler: JobHandler<T>,
  settings: WorkerSettings,
  claimed: JobItem,
  data: T,
  error: string,
): Promise<JobOutcome> {
  if (claimed.attempts < settings.maxAttempts) {
    const delayMs = settings.retryBaseMs * 2 ** (claimed.attempts - 1);
    const runAt = new Date(deps.clock.now().getTime() + delayMs).toISOString();
    await transitionJob(deps, claimed, { from: ['active'], to: delayMs > 0 ? 'delayed' : 'waiting', lastError: error, runAt });
    countOutcome(deps, claimed, 'retried');
    return { kind: 'retry', delayMs, error };
  }
  const failed = await transitionJob(deps, claimed, { from: ['active'], to: 'failed', lastError: error });
  return failedForGood(deps, handler, data, failed, claimed, error);
}

/** A claimed job that may not run yet (`RunLaterError`): delayed, its attempt taken back, and not counted as one. */
async function sendBack(deps: Deps, claimed: JobItem, later: RunLaterError): Promise<JobOutcome> {
  const runAt = new Date(deps.clock.now().getTime() + later.delayMs).toISOString();
  await transitionJob(deps, claimed, { from: ['active'], to: 'delayed', attempts: 'decrement', lastError: later.message, runAt });
  return { kind: 'later', delayMs: later.delayMs, reason: later.message };
}

/**
 * A delivery of a job of a `recorded-on-failure` queue that the ledger does not hold: runs it with nothing
 * written first. Done, it adds to the queue's `completed`; failed, it is recorded after this first
 * attempt, delayed for its retry (or failed for good), and goes on as any job. A payload that does
 * not validate is recorded as failed.
 */
async function runUnrecorded(deps: Deps, handlers: JobHandlers, settings: WorkerSettings, message: JobMessage): Promise<JobOutcome> {
  const job = unrecordedJob(deps, message);
  const handler = handlers[message.queue];
  const parsed = handler.schema.safeParse(message.data);
  if (!parsed.success) {
    const error = invalidData(parsed.error);
    await recordJob(deps, message, 0, { error });
    countOutcome(deps, job, 'failed');
    return { kind: 'failed', error };
  }
  try {
    await handler.run(deps, parsed.data, job);
  } catch (caught) {
    const error = messageOfError(caught);
    if (settings.maxAttempts > 1) {
      // Another delivery that failed at the same moment may have recorded it first: that one goes on.
      if (!(await recordJob(deps, message, 0, { error, retryInMs: settings.retryBaseMs })))
        return { kind: 'skipped', reason: 'recorded by another delivery' };
      countOutcome(deps, job, 'retried');
      return { kind: 'retry', delayMs: settings.retryBaseMs, error };
    }
    const recorded = await recordJob(deps, message, 0, { error });
    return failedForGood(deps, handler, parsed.data, recorded ? { ...job, state: 'failed', last_error: error } : undefined, job, error);
  }
  await countCompleted(deps, message);
  countOutcome(deps, job, 'completed');
  return { kind: 'completed' };
}

/**
 * A job that failed for good: its handler's failure hook, once (`failed`: this delivery moved it to
 * failed; undefined when another had), the warning and the metric.
 */
async function failedForGood<T>(
  deps: Deps,
  handler: JobHandler<T>,
  data: T,
  failed: JobItem | undefined,
  job: JobItem,
  error: string,
): Promise<JobOutcome> {
  if (failed) {
    await handler
      .onFailed?.(deps, data, failed, error)
      .catch((hookError: unknown) => deps.logger.error('job failure hook failed', { job: job.id, error: messageOfError(hookError) }));
  }
  deps.logger.warn('job failed for good', { job: job.id, queue: job.queue, attempts: job.attempts, error });
  countOutcome(deps, job, 'failed');
  return { kind: 'failed', error };
}

/**
 * A claimed attempt's outcome, in the metrics: the same for the local runner and the SQS consumer.
 * Deliveries that claim nothing (duplicates, drained jobs, an early delivery sent back) are not attempts.
 */
function countOutcome(deps: Deps, job: JobItem, outcome: 'completed' | 'failed' | 'retried'): void {
  deps.metrics.count('jobs', 1, { queue: job.queue, outcome });
}
