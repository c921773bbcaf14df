import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  QUEUE_NAMES,
  claimJob,
  deliveryModeOf,
  getJob,
  recordJob,
  recordOrCheck,
  type JobMessage,
  type QueueName,
} from '../../shared/jobs/ledger.js';
import { drainQueue, listFailedJobs, listQueues } from '../../shared/jobs/ops.js';
import { processJob, type JobHandler, type JobHandlers, type WorkerSettings } from '../../shared/jobs/worker.js';
import { jobHandlers } from '../../shared/wiring/job-handlers.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * The claim of a job is one conditional write (Powertools idempotency's conditional put), with one
 * read only when it is refused; and how a queue's jobs reach the ledger is the queue's alone.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

const SETTINGS: WorkerSettings = { maxAttempts: 3, retryBaseMs: 5 };
const done: JobHandler<unknown> = { schema: z.unknown(), run: async () => undefined };
const handlers: JobHandlers = {
  lifecycle: done,
  'cold-messages': done,
  'conversation-stats': done,
  evals: done,
  knowledge: done,
  routines: done,
};

const message = (queue: QueueName, data: Record<string, unknown> = {}): JobMessage => ({
  jobId: `claim-${randomUUID()}`,
  queue,
  orgId: `org_${randomUUID()}`,
  data,
});

/** What `work` answers, and how many store calls it made. */
async function callsOf<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const before = t.deps.table.roundTrips;
  const result = await work();
  return { result, calls: t.deps.table.roundTrips - before };
}

const countsOf = async (job: JobMessage) => (await listQueues(t.deps, job.orgId)).queues.find((queue) => queue.name === job.queue);

describe('claimJob', () => {
  it('claims a recorded job with one conditional write and no read before it, then counts it active', async () => {
    const job = message('cold-messages', { n: 1 });
    await recordJob(t.deps, job);
    // The ledger is the truth: a message that says otherwise only points at the job.
    const { result, calls } = await callsOf(() => claimJob(t.deps, { ...job, data: { n: 2 } }));
    // The claim, and its count on one shard of the queue counters.
    expect(calls).toBe(2);
    expect(result).toMatchObject({ kind: 'claimed', settledByCounters: false, job: { state: 'active', attempts: 1, data: { n: 1 } } });
    const stored = await getJob(t.deps, job.jobId);
    expect(stored).toMatchObject({ state: 'active', attempts: 1, last_error: null, data: { n: 1 } });
    expect(stored?.lease_until).toBeDefined();
    // A recorded job stays in the pending index while active: the sweep finds it if its worker dies.
    expect(stored?.gsi5pk).toMatch(/^JOBPENDING#cold-messages#\d+$/);
    expect(await countsOf(job)).toMatchObject({ waiting: 0, active: 1 });
  });

  it('reads the job once when the claim is refused, to tell a job held by another delivery from one done', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job);
    await claimJob(t.deps, job);
    const { result, calls } = await callsOf(() => claimJob(t.deps, job));
    expect(calls).toBe(2);
    expect(result).toMatchObject({ kind: 'refused', job: { state: 'active', attempts: 1 } });
    expect(await getJob(t.deps, job.jobId)).toMatchObject({ state: 'active', attempts: 1 });
    expect(await countsOf(job)).toMatchObject({ active: 1 });
  });

  it('puts a job of the claimed-on-delivery queue with its claim, out of the pending index, whatever its message carries', async () => {
    const job = { ...message('conversation-stats', { workspaceId: 'ws_1', conversationId: 'conv_1' }), claimOnDelivery: false };
    const { result, calls } = await callsOf(() => claimJob(t.deps, job));
    expect(calls).toBe(2);
    expect(result).toMatchObject({ kind: 'claimed', settledByCounters: true, counted: true });
    const stored = await getJob(t.deps, job.jobId);
    expect(stored).toMatchObject({ state: 'active', attempts: 1, queue: 'conversation-stats', org_id: job.orgId });
    expect(stored).not.toHaveProperty('gsi5pk');
    expect(stored?.ttl).toBeGreaterThan(0);
  });

  it('takes over a claim whose lease lapsed with one more attempt, without counting it again', async () => {
    const job = { ...message('conversation-stats', { workspaceId: 'ws_1', conversationId: 'conv_2' }), sentAt: '' };
    await claimJob(t.deps, job);
    expect(await claimJob(t.deps, job)).toMatchObject({ kind: 'refused' });
    t.clock.advance(16 * 60_000);
    const { result, calls } = await callsOf(() => claimJob(t.deps, job));
    // The claim alone: a takeover moves no counter.
    expect(calls).toBe(1);
    expect(result).toMatchObject({ kind: 'claimed', settledByCounters: true, counted: false, job: { attempts: 2 } });
    expect(await getJob(t.deps, job.jobId)).toMatchObject({ state: 'active', attempts: 2 });
  });
});

describe('claimJob, by the state the ledger holds', () => {
  it('lets one of two deliveries claim a job at once; the other is refused and the job counted active once', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job);
    const claims = await Promise.all([claimJob(t.deps, job), claimJob(t.deps, job)]);
    expect(claims.map((claim) => claim.kind).sort()).toEqual(['claimed', 'refused']);
    expect(await getJob(t.deps, job.jobId)).toMatchObject({ state: 'active', attempts: 1 });
    expect(await countsOf(job)).toMatchObject({ waiting: 0, active: 1 });
  });

  it('takes over a recorded job whose worker died once its lease has lapsed, not before, counting nothing again', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job);
    await claimJob(t.deps, job);
    t.clock.advance(14 * 60_000);
    expect(await claimJob(t.deps, job)).toMatchObject({ kind: 'refused', job: { state: 'active', attempts: 1 } });
    t.clock.advance(2 * 60_000);
    expect(await claimJob(t.deps, job)).toMatchObject({ kind: 'claimed', settledByCounters: false, counted: false, job: { attempts: 2 } });
    const stored = await getJob(t.deps, job.jobId);
    expect(stored).toMatchObject({ state: 'active', attempts: 2 });
    expect(stored?.gsi5pk).toMatch(/^JOBPENDING#cold-messages#\d+$/);
    expect(await countsOf(job)).toMatchObject({ waiting: 0, active: 1 });
  });

  it('refuses a delayed job before its run time, and claims it within the early tolerance', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job, 60_000);
    expect(await claimJob(t.deps, job)).toMatchObject({ kind: 'refused', job: { state: 'delayed', attempts: 0 } });
    t.clock.advance(59_500);
    expect(await claimJob(t.deps, job)).toMatchObject({ kind: 'claimed', job: { state: 'active', attempts: 1 } });
    expect(await countsOf(job)).toMatchObject({ delayed: 0, active: 1 });
  });

  it("does not revive a drained job: its late delivery runs nothing, whatever the queue's delivery mode", async () => {
    const runs: string[] = [];
    const recording: JobHandler<unknown> = { schema: z.unknown(), run: async (_deps, _data, job) => runs.push(job.id) };
    const all: JobHandlers = {
      lifecycle: recording,
      'cold-messages': recording,
      'conversation-stats': recording,
      evals: recording,
      knowledge: recording,
      routines: recording,
    };
    const orgId = `org_${randomUUID()}`;
    const recorded = { ...message('cold-messages'), orgId };
    await recordJob(t.deps, recorded);
    // A timed move in the ledger: its first delivery failed.
    const move = { ...message('lifecycle'), orgId };
    await recordJob(t.deps, move, 0, { error: 'boom', retryInMs: 5 });
    const stats = await recordOrCheck(t.deps, { ...message('conversation-stats'), orgId });
    if (!stats) throw new Error('the stats job was not sent');
    for (const queue of ['cold-messages', 'lifecycle', 'conversation-stats']) await drainQueue(t.deps, orgId, queue);
    t.clock.advance(1000);

    // Attempts as drained: none for the recorded job, the failed one for the move, the claim's for the stats job.
    for (const [late, attempts] of [
      [recorded, 0],
      [move, 1],
      [stats, 1],
    ] as const) {
      expect(await processJob(t.deps, all, SETTINGS, late)).toMatchObject({ kind: 'skipped' });
      expect(await getJob(t.deps, late.jobId)).toMatchObject({ state: 'removed', attempts });
    }
    expect(runs).toEqual([]);
    for (const late of [recorded, move, stats]) expect(await countsOf(late)).toMatchObject({ waiting: 0, delayed: 0, active: 0 });
  });
});

describe('processJob', () => {
  it('does a recorded job in four store calls: its claim and completion, each with its count', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job);
    const { result, calls } = await callsOf(() => processJob(t.deps, handlers, SETTINGS, job));
    expect(result).toEqual({ kind: 'completed' });
    expect(calls).toBe(4);
    expect(await getJob(t.deps, job.jobId)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('sends a delayed job refused as not due back for the rest of its wait, even when its time comes while the refusal is read', async () => {
    const job = message('cold-messages');
    await recordJob(t.deps, job, 60_000);
    // Delivered just over the early tolerance before its run time: the claim is refused.
    t.clock.advance(60_000 - 1002);
    const read = t.deps.table.get.bind(t.deps.table);
    const slowRead = vi.spyOn(t.deps.table, 'get').mockImplementationOnce(async (...args: Parameters<typeof read>) => {
      // The refusal's read answers 5 ms later: the job is within the tolerance now, and still not claimed.
      t.clock.advance(5);
      return read(...args);
    });
    try {
      expect(await processJob(t.deps, handlers, SETTINGS, job)).toEqual({ kind: 'retry', delayMs: 997, error: 'not due yet' });
    } finally {
      slowRead.mockRestore();
    }
    expect(await getJob(t.deps, job.jobId)).toMatchObject({ state: 'delayed', attempts: 0 });
  });

  it('does a job of the claimed-on-delivery queue in three: its claim, its count active, its count completed', async () => {
    // What sending it writes: counted waiting, nothing in the ledger.
    const sent = await recordOrCheck(t.deps, message('conversation-stats'));
    if (!sent?.sentAt) throw new Error('the stats job was not counted as sent');
    const { result, calls } = await callsOf(() => processJob(t.deps, handlers, SETTINGS, sent));
    expect(result).toEqual({ kind: 'completed' });
    expect(calls).toBe(3);
    expect(await countsOf(sent)).toMatchObject({ waiting: 0, active: 0, completed: 1 });
    // Settled by its counters: the item stays active until its TTL.
    expect(await getJob(t.deps, sent.jobId)).toMatchObject({ state: 'active', attempts: 1 });
  });
});

describe('the delivery mode of a queue', () => {
  it('is declared once per queue', () => {
    expect(Object.fromEntries(QUEUE_NAMES.map((queue) => [queue, deliveryModeOf(queue)]))).toEqual({
      lifecycle: 'recorded-on-failure',
      'cold-messages': 'recorded-when-sent',
      'conversation-stats': 'claimed-on-delivery',
      evals: 'recorded-when-sent',
      knowledge: 'recorded-when-sent',
      routines: 'recorded-when-sent',
    });
  });

  it('fails an evaluation case left on the stats queue by an earlier version into the failed list, where the on-call sees it', async () => {
    const job = message('conversation-stats', { kind: 'eval-case', evalId: 'eval_1', runId: 'run_1', index: 0 });
    await recordJob(t.deps, job);
    const outcome = await processJob(t.deps, jobHandlers, SETTINGS, job);
    expect(outcome).toMatchObject({ kind: 'failed' });
    const failed = await listFailedJobs(t.deps, job.orgId, 'conversation-stats', {});
    expect(failed.jobs).toHaveLength(1);
    expect(failed.jobs[0]).toMatchObject({ id: job.jobId, attemptsMade: 1, data: { kind: 'eval-case', runId: 'run_1' } });
    expect(failed.jobs[0]?.failedReason).toMatch(/^invalid job data/);
  });
});
