import { QUEUE_NAMES, recordOrCheck, transitionJob, type JobMessage, type QueueName } from './ledger.js';
import type { JobQueue } from './queue.js';
import type { JobDelivery, WorkerSettings } from './worker.js';
import { errorMessage } from '../platform/errors.js';
import { pendingJobs } from './pending.js';
import type { AppLogger } from '../platform/logger.js';
import type { Store } from '../platform/store.js';

export interface LocalRunnerOptions extends WorkerSettings {
  /** Jobs of one queue run at most this many at a time. */
  concurrency: number;
  /** A queue's own limit, instead of `concurrency`. */
  concurrencyOf?: Partial<Record<QueueName, number>>;
}

/** setTimeout's longest delay; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The in-process job runner of the local runtime, with the semantics of the SQS adapter: the
 * same ledger, attempts, exponential backoff from `JOB_RETRY_BASE_MS`, delays, and a concurrency
 * limit per queue, so that one queue's jobs (an evaluation's 200 cases) never hold another's. Within
 * a queue each organisation gets its share: a free slot takes the ready job of the organisation
 * running the fewest of that queue's jobs, organisations taking turns among equals (and each
 * organisation's jobs in order of arrival). On start it picks up
 * the jobs the ledger still holds as pending, so a restart loses none: a job that was active when
 * the process stopped runs again (its attempt counted).
 */
export class LocalJobRunner implements JobQueue {
  /** Set by `start`: until then jobs are recorded and held, not run. */
  private deliver: JobDelivery | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ready = new Map<QueueName, JobMessage[]>(QUEUE_NAMES.map((queue) => [queue, []]));
  private readonly running = new Map<QueueName, number>(QUEUE_NAMES.map((queue) => [queue, 0]));
  /** Jobs running per queue and organisation (`<queue> <org>`): the share each has. */
  private readonly runningOf = new Map<string, number>();
  /** The organisation whose job each queue took last. */
  private readonly lastServed = new Map<QueueName, string>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    /** The ledger's table and clock, and where a failed delivery is logged. */
    private readonly store: Store & { readonly logger: AppLogger },
    private readonly options: LocalRunnerOptions,
  ) {}

  async enqueue(message: JobMessage, delayMs = 0): Promise<boolean> {
    const sent = await recordOrCheck(this.store, message, delayMs);
    if (sent) this.schedule(sent, delayMs);
    return !!sent;
  }

  async redeliver(message: JobMessage): Promise<void> {
    this.schedule(message, 0);
  }

  cancel(jobId: string): void {
    const timer = this.timers.get(jobId);
    if (timer) clearTimeout(timer);
    this.timers.delete(jobId);
    for (const list of this.ready.values()) {
      const index = list.findIndex((message) => message.jobId === jobId);
      if (index >= 0) list.splice(index, 1);
    }
  }

  private schedule(message: JobMessage, delayMs: number): void {
    if (this.stopped) return;
    this.cancel(message.jobId);
    if (delayMs <= 0) {
      this.ready.get(message.queue)?.push(message);
      this.pump(message.queue);
      return;
    }
    const step = Math.min(delayMs, MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(message.jobId);
      this.schedule(message, delayMs - step);
    }, step);
    timer.unref();
    this.timers.set(message.jobId, timer);
  }

  private pump(queue: QueueName): void {
    const ready = this.ready.get(queue) ?? [];
    const limit = this.options.concurrencyOf?.[queue] ?? this.options.concurrency;
    while (this.deliver && !this.stopped && ready.length > 0 && (this.running.get(queue) ?? 0) < limit) {
      const message = this.takeFairly(queue, ready);
      const share = `${queue} ${message.orgId}`;
      this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
      this.runningOf.set(share, (this.runningOf.get(share) ?? 0) + 1);
      const work = this.runOne(message).finally(() => {
        this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
        const left = (this.runningOf.get(share) ?? 1) - 1;
        if (left > 0) this.runningOf.set(share, left);
        else this.runningOf.delete(share);
        this.inFlight.delete(work);
        this.pump(queue);
      });
      this.inFlight.add(work);
    }
  }

  /**
   * Takes the first ready job of an organisation running the fewest of the queue's jobs now, and
   * among those, of another organisation than the last one served: so organisations take turns.
   */
  private takeFairly(queue: QueueName, ready: JobMessage[]): JobMessage {
    const last = this.lastServed.get(queue);
    let chosen = 0;
    let best = Number.POSITIVE_INFINITY;
    for (const [index, message] of ready.entries()) {
      // Twice the jobs running, plus one for the organisation served last: fewer running first, then turns.
      const rank = 2 * (this.runningOf.get(`${queue} ${message.orgId}`) ?? 0) + (message.orgId === last ? 1 : 0);
      if (rank < best) {
        chosen = index;
        best = rank;
        if (rank === 0) break;
      }
    }
    const [message] = ready.splice(chosen, 1) as [JobMessage];
    this.lastServed.set(queue, message.orgId);
    return message;
  }

  private async runOne(message: JobMessage): Promise<void> {
    try {
      const outcome = await (this.deliver as JobDelivery)(message);
      if (outcome.kind === 'retry' || outcome.kind === 'later') this.schedule(message, outcome.delayMs);
    } catch (error) {
      // The ledger could not be written (the store is down): try the delivery again later.
      this.store.logger.error('job delivery failed', { job: message.jobId, error: errorMessage(error) });
      this.schedule(message, Math.max(this.options.retryBaseMs, 1000));
    }
  }

  /** Starts running jobs (those recorded before the start first) with `deliver`. */
  start(deliver: JobDelivery): void {
    this.deliver = deliver;
    for (const queue of QUEUE_NAMES) this.pump(queue);
  }

  /** Resumes the jobs the ledger holds as pending (waiting, delayed, or active when the process stopped); answers how many. */
  async resumePending(): Promise<number> {
    const store = this.store;
    let resumed = 0;
    for (const queue of QUEUE_NAMES) {
      for (const item of await pendingJobs(store.table, queue)) {
        // An active one's worker was this process before it stopped: nobody else holds it. The move
        // is conditional on its state, and answers the job as the table held it: no read before it.
        const job =
          item.state === 'active'
            ? await transitionJob(store, item, { from: ['active'], to: 'waiting', lastError: 'interrupted by a restart' })
            : item;
        if (!job) continue;
        const delay = Math.max(0, new Date(job.run_at).getTime() - store.clock.now().getTime());
        this.schedule({ jobId: job.id, queue: job.queue, orgId: job.org_id, data: job.data }, delay);
        resumed += 1;
      }
    }
    return resumed;
  }

  /** Stops taking jobs and waits (up to `graceMs`) for the running ones. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
  }

  /** Resolves when no job is running or ready (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || [...this.ready.values()].some((list) => list.length > 0)) {
      await Promise.allSettled([...this.inFlight]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
