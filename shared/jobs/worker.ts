import type { z } from 'zod';
import type { Deps } from '../deps.js';
import {
  claimOnDelivery,
  countClaimed,
  countCompleted,
  countWritten,
  getJob,
  isClaimedOnDelivery,
  isRecordedOnFailure,
  JOB_LEASE_MS,
  takeOverClaim,
  recordJob,
  transitionJob,
  unrecordedJob,
  type JobItem,
  type JobMessage,
  type QueueName,
} from './ledger.js';
import { errorMessage } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { issueLines } from '../platform/validation.js';

/**
 * How a queue's jobs are done. `run` must be idempotent: a job delivered twice has one effect.
 * It may answer false when it found its work done already (a queue of `CLAIMED_ON_DELIVERY`
 * counts the outcome of the delivery that did it).
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

/** A delayed job delivered less than this before its run time runs now. */
const EARLY_TOLERANCE_MS = 1000;

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
 * Does one delivery of a job, the same for the local runner and the SQS consumer: a job of
 * `RECORDED_ON_FAILURE` not in the ledger runs at once (`runUnrecorded`); any other claims it in the
 * ledger (a conditional write, so a duplicate delivery or a drained job is skipped), validates its
 * payload, runs the handler, and records the outcome: completed; delayed for a retry with
 * exponential backoff; or failed with the last error after `maxAttempts` attempts.
 */
export async function processJob(deps: Deps, handlers: JobHandlers, settings: WorkerSettings, message: JobMessage): Promise<JobOutcome> {
  let job = await getJob(deps, message.jobId);
  if (!job && isRecordedOnFailure(message.queue)) return runUnrecorded(deps, handlers, settings, message);
  // Claimed on delivery: not in the ledger yet, or claimed there (a job recorded in the pending index goes the ledger's way).
  const unrecordedOrHeld = !job || (job.state === 'active' && !job.gsi5pk && !job.gsi2pk);
  if (isClaimedOnDelivery(message) && unrecordedOrHeld) return runClaimed(deps, handlers, settings, message, job);
  if (!job) {
    // A message that came without a ledger entry (an EventBridge schedule firing): record it first.
    await recordJob(deps, message);
    job = await getJob(deps, message.jobId);
    if (!job) return { kind: 'skipped', reason: 'job not recorded' };
  }
  const now = deps.clock.now();
  // Delivered before its time (SQS delays stop at 15 minutes): send it back for the rest of the wait.
  const early = new Date(job.run_at).getTime() - now.getTime();
  if (job.state === 'delayed' && early > EARLY_TOLERANCE_MS) return { kind: 'retry', delayMs: early, error: 'not due yet' };
  const claimed = await transitionJob(deps, job, {
    from: ['waiting', 'delayed'],
    to: 'active',
    lapsedLeaseBefore: now.toISOString(),
    attempts: 'increment',
    leaseUntil: new Date(now.getTime() + JOB_LEASE_MS).toISOString(),
  });
  if (!claimed) return { kind: 'skipped', reason: `job is ${job.state}` };

  const handler = handlers[claimed.queue];
  const parsed = handler.schema.safeParse(claimed.data);
  if (!parsed.success) return failInvalid(deps, claimed, parsed.error);
  try {
    await handler.run(deps, parsed.data, claimed);
  } catch (caught) {
    if (caught instanceof RunLaterError) return sendBack(deps, claimed, caught);
    return afterFailure(deps, handler, settings, claimed, parsed.data, messageOfError(caught));
  }
  await transitionJob(deps, claimed, { from: ['active'], to: 'completed', lastError: null });
  countOutcome(deps, claimed, 'completed');
  return { kind: 'completed' };
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

/** Far enough ahead that every lease has lapsed by then: a takeover's. */
const EVERY_LEASE = '9999-12-31T23:59:59.999Z';

/**
 * The claim of a job of `CLAIMED_ON_DELIVERY` (ledger-types.ts) by its delivery: put in the ledger
 * active (one delivery wins) and counted active, unless its queue was drained since it was sent;
 * or, claimed already, taken over once its lease lapsed (or by a runtime started after the one
 * that held it stopped: `takeover`), without counting it again. Answers the claimed job and
 * whether this claim counted it, or the outcome of a delivery that claims nothing.
 */
async function claimDelivered(
  deps: Deps,
  message: JobMessage,
  held: JobItem | undefined,
): Promise<{ claimed: JobItem; counted: boolean } | { outcome: JobOutcome }> {
  if (!held) {
    const claimed = await claimOnDelivery(deps, message);
    if (claimed) {
      if (await countClaimed(deps, message)) return { claimed, counted: true };
      // Drained after it was sent: as a drained job of the ledger (not counted: the drain zeroed `waiting`).
      await deps.table.update(keys.job(claimed.id), {
        update: 'SET #state = :removed, updated_at = :at',
        names: { '#state': 'state' },
        values: { ':removed': 'removed', ':at': deps.clock.now().toISOString() },
      });
      return { outcome: { kind: 'skipped', reason: 'drained' } };
    }
    held = await getJob(deps, message.jobId);
    if (held?.state !== 'active') return { outcome: { kind: 'skipped', reason: `job is ${held?.state ?? 'gone'}` } };
  }
  const now = deps.clock.now();
  const claimed = await takeOverClaim(deps, held, message.takeover ? EVERY_LEASE : now.toISOString());
  if (claimed) return { claimed, counted: false };
  // Another delivery holds it: try again once its lease has lapsed.
  const lapses = held.lease_until ? new Date(held.lease_until).getTime() - now.getTime() : JOB_LEASE_MS;
  return { outcome: { kind: 'retry', delayMs: Math.max(1000, lapses + 1000), error: 'claimed by another delivery' } };
}

/**
 * A delivery of a job of `CLAIMED_ON_DELIVERY`: claimed (`claimDelivered`), run, and its outcome
 * counted: completed when this delivery wrote it, or when its claim counted it (a job with nothing
 * left to do is done). A takeover that finds the work done counts nothing: the delivery that did
 * it counted it. A failure goes on through the ledger, as any claimed job's.
 */
async function runClaimed(
  deps: Deps,
  handlers: JobHandlers,
  settings: WorkerSettings,
  message: JobMessage,
  held: JobItem | undefined,
): Promise<JobOutcome> {
  const claim = await claimDelivered(deps, message, held);
  if ('outcome' in claim) return claim.outcome;
  const { claimed, counted } = claim;
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
  if (wrote || counted) await countWritten(deps, message);
  countOutcome(deps, claimed, 'completed');
  return { kind: 'completed' };
}

/**
 * A delivery of a job of `RECORDED_ON_FAILURE` that is not in the ledger: runs it with nothing
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
