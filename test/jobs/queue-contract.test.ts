import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand, SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Deps } from '../../shared/deps.js';
import { getJob, type JobMessage, type QueueName } from '../../shared/jobs/ledger.js';
import { LocalJobRunner } from '../../shared/jobs/local-runner.js';
import { drainQueue, listFailedJobs, listQueues, retryAllFailed } from '../../shared/jobs/ops.js';
import { SqsJobQueue, handleSqsBatch, type QueueUrls } from '../../shared/jobs/sqs.js';
import { RunLaterError, deliveryOf, type JobHandler, type JobHandlers, type WorkerSettings } from '../../shared/jobs/worker.js';
import { NotFoundError } from '../../shared/platform/errors.js';
import type { Metrics } from '../../shared/platform/metrics.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { wallClock } from '../support/clock.js';

/**
 * One contract for both adapters of the JobQueue port: the in-process LocalJobRunner and the SQS
 * queue with its consumer (handleSqsBatch), both over the real ledger in dynalite.
 */

const QUEUE: QueueName = 'cold-messages';
const SETTINGS: WorkerSettings = { maxAttempts: 3, retryBaseMs: 5 };

const TestJobData = z.object({ key: z.string(), mode: z.enum(['ok', 'fail', 'failTwice', 'later']) });
type TestJobData = z.infer<typeof TestJobData>;

/** What the test handler saw and did; shared by both harnesses, cleared before each test. */
const seen = {
  /** Every run of the handler (one per attempt), by key. */
  calls: [] as string[],
  /** Effects of successful runs, by key. */
  effects: [] as string[],
  /** Keys whose 'fail' mode no longer fails (the handler was "fixed"). */
  healed: new Set<string>(),
  /** How often each 'later' key was sent back for later. */
  later: new Map<string, number>(),
  /** Keys whose run waits for the gate to be released (to hold a job active). */
  gates: new Map<string, { started: boolean; release: () => void; promise: Promise<void> }>(),
};

function gate(key: string) {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  const entry = { started: false, release, promise };
  seen.gates.set(key, entry);
  return entry;
}

const testHandler: JobHandler<TestJobData> = {
  schema: TestJobData,
  async run(_deps, data, job) {
    seen.calls.push(data.key);
    const held = seen.gates.get(data.key);
    if (held) {
      held.started = true;
      await held.promise;
    }
    if (data.mode === 'fail' && !seen.healed.has(data.key)) throw new Error(`boom ${data.key}`);
    if (data.mode === 'failTwice' && job.attempts <= 2) throw new Error(`flaky ${data.key} attempt ${job.attempts}`);
    const sentBack = seen.later.get(data.key) ?? 0;
    if (data.mode === 'later' && sentBack < SETTINGS.maxAttempts + 1) {
      seen.later.set(data.key, sentBack + 1);
      throw new RunLaterError(`not yet: ${data.key}`, 5);
    }
    seen.effects.push(data.key);
  },
};

const unusedHandler: JobHandler<unknown> = {
  schema: z.unknown(),
  async run() {
    throw new Error('this queue is not used by the contract tests');
  },
};

const handlers: JobHandlers = {
  lifecycle: unusedHandler,
  'cold-messages': testHandler,
  'conversation-stats': unusedHandler,
  evals: unusedHandler,
  knowledge: unusedHandler,
  routines: unusedHandler,
};

const countOf = (list: string[], key: string) => list.filter((value) => value === key).length;

/** The job outcomes the worker counted (both harnesses' deps record here), cleared before each test. */
const jobOutcomes: string[] = [];
const recordingMetrics: Metrics = {
  count(metric, value, labels) {
    if (metric === 'jobs' && 'queue' in labels && 'outcome' in labels) {
      for (let index = 0; index < value; index += 1) jobOutcomes.push(`${labels.queue}:${labels.outcome}`);
    }
  },
  observe() {},
  flush() {},
  forgetWorkspace() {},
};

interface Harness {
  deps: Deps;
  /** Delivers everything sent until nothing is left to deliver (retries included). */
  deliver(): Promise<void>;
  /** The same message delivered once more (SQS: a duplicate record; local: a redelivery). */
  duplicate(message: JobMessage): Promise<void>;
}

let t: TestContext;
const harnesses: Record<'local' | 'sqs', Harness> = {} as Record<'local' | 'sqs', Harness>;
const extraDeps: Deps[] = [];
let localRunner: LocalJobRunner;

function depsWith(jobs: Deps['jobs']): Deps {
  const deps = t.depsWithJobs(jobs, recordingMetrics);
  extraDeps.push(deps);
  return deps;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function localHarness(): Harness {
  localRunner = new LocalJobRunner({ table: t.deps.table, clock: t.clock, logger: t.logger }, { concurrency: 2, ...SETTINGS });
  const deps = depsWith(localRunner);
  localRunner.start(deliveryOf(deps, handlers, SETTINGS));
  // Retries wait on real timers (5–20 ms); the runner keeps them private.
  const pendingTimers = () => (localRunner as unknown as { timers: Map<string, unknown> }).timers.size;
  return {
    deps,
    async deliver() {
      const deadline = wallClock.ms() + 10_000;
      for (;;) {
        await localRunner.idle();
        if (pendingTimers() === 0) return;
        if (wallClock.ms() > deadline) throw new Error(`local runner did not settle: ${pendingTimers()} timers pending`);
        await sleep(5);
      }
    },
    async duplicate(message) {
      await localRunner.redeliver(message);
    },
  };
}

const QUEUE_ARN = (queue: QueueName) => `arn:aws:sqs:us-east-1:123456789012:${queue}`;
const URLS: QueueUrls = {
  lifecycle: 'https://sqs.us-east-1.amazonaws.com/123456789012/lifecycle',
  'cold-messages': 'https://sqs.us-east-1.amazonaws.com/123456789012/cold-messages',
  'conversation-stats': 'https://sqs.us-east-1.amazonaws.com/123456789012/conversation-stats',
  evals: 'https://sqs.us-east-1.amazonaws.com/123456789012/evals',
  knowledge: 'https://sqs.us-east-1.amazonaws.com/123456789012/knowledge',
  routines: 'https://sqs.us-east-1.amazonaws.com/123456789012/routines',
};

/** An SQS record as the consumer Lambda receives it. */
const sqsRecord = (messageId: string, receiptHandle: string, body: string, eventSourceARN: string): SQSRecord => ({
  messageId,
  receiptHandle,
  body,
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN,
  awsRegion: 'us-east-1',
});

function sqsHarness(): Harness {
  const sqsClient = new SQSClient({ region: 'us-east-1' });
  const sqsMock = mockClient(SQSClient);
  /** Messages "in the queue": sent and not yet acknowledged. */
  const inQueue: SQSRecord[] = [];
  let sent = 0;
  const arnOf = (queueUrl: string | undefined) => {
    const queue = (Object.keys(URLS) as QueueName[]).find((name) => URLS[name] === queueUrl);
    if (!queue) throw new Error(`message sent to unknown queue url ${queueUrl}`);
    return QUEUE_ARN(queue);
  };
  sqsMock.on(SendMessageCommand).callsFake((input: { QueueUrl?: string; MessageBody?: string }) => {
    sent += 1;
    const messageId = `msg-${sent}`;
    inQueue.push(sqsRecord(messageId, `rh-${sent}`, input.MessageBody ?? '', arnOf(input.QueueUrl)));
    return { MessageId: messageId };
  });
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  const queue = new SqsJobQueue(sqsClient, URLS, { table: t.deps.table, clock: t.clock });
  const deps = depsWith(queue);
  const urlOfArn = (arn: string | undefined) =>
    (Object.keys(URLS) as QueueName[]).map((name) => (QUEUE_ARN(name) === arn ? URLS[name] : undefined)).find(Boolean);
  return {
    deps,
    async deliver() {
      for (let round = 0; inQueue.length > 0; round += 1) {
        if (round > 100) throw new Error('SQS harness did not settle');
        const batch = inQueue.splice(0, inQueue.length);
        const result = await handleSqsBatch(deps, handlers, SETTINGS, sqsClient, urlOfArn, { Records: batch });
        const failed = new Set(result.batchItemFailures.map((failure) => failure.itemIdentifier));
        // Reported failures come back after their visibility timeout; the rest were acknowledged.
        for (const record of batch)
          if (failed.has(record.messageId)) inQueue.push({ ...record, receiptHandle: `${record.receiptHandle}+` });
      }
    },
    async duplicate(message) {
      sent += 1;
      inQueue.push(sqsRecord(`dup-${sent}`, `rh-dup-${sent}`, JSON.stringify(message), QUEUE_ARN(message.queue)));
    },
  };
}

beforeAll(async () => {
  t = await createTestContext();
  harnesses.local = localHarness();
  harnesses.sqs = sqsHarness();
});

afterAll(async () => {
  await localRunner?.stop(1000);
  for (const deps of extraDeps) await deps.mcp?.closeAll();
  await t?.close();
});

beforeEach(() => {
  seen.calls.length = 0;
  seen.effects.length = 0;
  seen.healed.clear();
  seen.later.clear();
  seen.gates.clear();
  jobOutcomes.length = 0;
});

describe.each(['local', 'sqs'] as const)('JobQueue contract: %s adapter', (name) => {
  let h: Harness;
  let orgId: string;
  beforeEach(() => {
    h = harnesses[name];
    orgId = `org_${randomUUID()}`;
  });

  const message = (key: string, mode: TestJobData['mode'] | string = 'ok', jobId = `job-${key}`): JobMessage => ({
    jobId,
    queue: QUEUE,
    orgId,
    data: { key, mode },
  });
  const counters = async () => (await listQueues(h.deps, orgId)).queues.find((queue) => queue.name === QUEUE);
  const uniqueKey = (label: string) => `${label}-${randomUUID()}`;

  it('runs a job once; the ledger says completed and the counters move waiting → completed', async () => {
    const key = uniqueKey('once');
    expect(await h.deps.jobs.enqueue(message(key))).toBe(true);
    await h.deliver();

    expect(seen.calls).toEqual([key]);
    expect(seen.effects).toEqual([key]);
    expect(jobOutcomes).toEqual([`${QUEUE}:completed`]);
    const job = await getJob(h.deps, `job-${key}`);
    expect(job).toMatchObject({ state: 'completed', attempts: 1, last_error: null, queue: QUEUE, org_id: orgId });
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
    // Other queues of the organisation are untouched.
    const others = (await listQueues(h.deps, orgId)).queues.filter((queue) => queue.name !== QUEUE);
    expect(others.every((queue) => queue.waiting + queue.active + queue.completed + queue.failed + queue.delayed === 0)).toBe(true);
  });

  it('does not enqueue a job id twice: the second enqueue returns false and the job runs once', async () => {
    const key = uniqueKey('idem');
    expect(await h.deps.jobs.enqueue(message(key))).toBe(true);
    expect(await h.deps.jobs.enqueue(message(key))).toBe(false);
    await h.deliver();
    expect(await h.deps.jobs.enqueue(message(key))).toBe(false);
    await h.deliver();

    expect(countOf(seen.calls, key)).toBe(1);
    expect(countOf(seen.effects, key)).toBe(1);
    expect(await counters()).toMatchObject({ waiting: 0, active: 0, completed: 1 });
  });

  it('has one effect when the same message is delivered twice (at once, and again later)', async () => {
    const key = uniqueKey('dup');
    const job = message(key);
    expect(await h.deps.jobs.enqueue(job)).toBe(true);
    await h.duplicate(job);
    await h.deliver();
    await h.duplicate(job);
    await h.deliver();

    expect(countOf(seen.effects, key)).toBe(1);
    expect(countOf(seen.calls, key)).toBe(1);
    // Duplicates claim nothing: they are not attempts, and not counted.
    expect(jobOutcomes).toEqual([`${QUEUE}:completed`]);
    expect(await getJob(h.deps, job.jobId)).toMatchObject({ state: 'completed', attempts: 1 });
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
  });

  it('tries a job that always fails maxAttempts times, then records it as failed with the last error', async () => {
    const key = uniqueKey('fail');
    await h.deps.jobs.enqueue(message(key, 'fail'));
    await h.deliver();

    expect(countOf(seen.calls, key)).toBe(3);
    expect(seen.effects).toEqual([]);
    expect(jobOutcomes).toEqual([`${QUEUE}:retried`, `${QUEUE}:retried`, `${QUEUE}:failed`]);
    expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'failed', attempts: 3, last_error: `boom ${key}` });
    const failed = await listFailedJobs(h.deps, orgId, QUEUE, {});
    expect(failed.jobs).toHaveLength(1);
    expect(failed.jobs[0]).toMatchObject({ id: `job-${key}`, failedReason: `boom ${key}`, attemptsMade: 3 });
    expect(failed.jobs[0]?.data).toMatchObject({ key, mode: 'fail' });
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 0, failed: 1, delayed: 0 });
  });

  it('retries with backoff: a job failing twice then succeeding ends completed after 3 attempts', async () => {
    const key = uniqueKey('flaky');
    await h.deps.jobs.enqueue(message(key, 'failTwice'));
    await h.deliver();

    expect(countOf(seen.calls, key)).toBe(3);
    expect(seen.effects).toEqual([key]);
    expect(jobOutcomes).toEqual([`${QUEUE}:retried`, `${QUEUE}:retried`, `${QUEUE}:completed`]);
    expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'completed', attempts: 3, last_error: null });
    expect((await listFailedJobs(h.deps, orgId, QUEUE, {})).jobs).toEqual([]);
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
  });

  it('sends a job that may not run yet back for later without counting the attempt: sent back more often than maxAttempts, it still runs', async () => {
    const key = uniqueKey('later');
    await h.deps.jobs.enqueue(message(key, 'later'));
    await h.deliver();

    expect(countOf(seen.calls, key)).toBe(SETTINGS.maxAttempts + 2);
    expect(seen.effects).toEqual([key]);
    // Only the run counts as an attempt, and as an outcome.
    expect(jobOutcomes).toEqual([`${QUEUE}:completed`]);
    expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'completed', attempts: 1, last_error: null });
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
  });

  it('fails a job with an invalid payload at once, without running the handler', async () => {
    const key = uniqueKey('invalid');
    await h.deps.jobs.enqueue(message(key, 'explode'));
    await h.deliver();

    expect(seen.calls).toEqual([]);
    expect(jobOutcomes).toEqual([`${QUEUE}:failed`]);
    const job = await getJob(h.deps, `job-${key}`);
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job?.last_error).toMatch(/^invalid job data/);
    expect(job?.last_error).toContain('mode');
    const failed = await listFailedJobs(h.deps, orgId, QUEUE, {});
    expect(failed.jobs).toHaveLength(1);
    expect(failed.jobs[0]?.attemptsMade).toBe(1);
    expect(failed.jobs[0]?.failedReason).toMatch(/^invalid job data/);
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 0, failed: 1, delayed: 0 });
  });

  it('retry-all puts failed jobs back; they run again and the counters move failed → completed', async () => {
    const keys = [uniqueKey('retry-a'), uniqueKey('retry-b')];
    for (const key of keys) await h.deps.jobs.enqueue(message(key, 'fail'));
    await h.deliver();
    expect(await counters()).toMatchObject({ failed: 2, completed: 0 });
    expect((await listFailedJobs(h.deps, orgId, QUEUE, {})).jobs).toHaveLength(2);

    for (const key of keys) seen.healed.add(key);
    expect(await retryAllFailed(h.deps, orgId, QUEUE)).toBe(2);
    await h.deliver();

    expect([...seen.effects].sort()).toEqual([...keys].sort());
    for (const key of keys) {
      expect(countOf(seen.calls, key)).toBe(4);
      // Attempts start again from zero on retry-all.
      expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'completed', attempts: 1 });
    }
    expect((await listFailedJobs(h.deps, orgId, QUEUE, {})).jobs).toEqual([]);
    expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 2, failed: 0, delayed: 0 });
    // Nothing left to retry.
    expect(await retryAllFailed(h.deps, orgId, QUEUE)).toBe(0);
  });

  it('drain removes waiting and delayed jobs, never runs them, keeps active ones, and restarts the completed total', async () => {
    // One job completed before the drain: the `completed` total starts again at the drain.
    const before = uniqueKey('before');
    await h.deps.jobs.enqueue(message(before));
    await h.deliver();
    expect(await counters()).toMatchObject({ completed: 1 });

    // Two jobs held active (the local runner's concurrency is 2, so a third stays waiting).
    const activeKeys = [uniqueKey('active-a'), uniqueKey('active-b')];
    const gates = activeKeys.map((key) => gate(key));
    for (const key of activeKeys) await h.deps.jobs.enqueue(message(key));
    const delivering = h.deliver();
    try {
      await expect.poll(() => gates.every((entry) => entry.started), { timeout: 5000, interval: 5 }).toBe(true);
      for (const key of activeKeys) expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'active' });

      const waitingKey = uniqueKey('waiting');
      const delayedKeys = [uniqueKey('delayed-a'), uniqueKey('delayed-b')];
      const removedJobs = [message(waitingKey), ...delayedKeys.map((key) => message(key))];
      expect(await h.deps.jobs.enqueue(removedJobs[0] as JobMessage)).toBe(true);
      for (const job of removedJobs.slice(1)) expect(await h.deps.jobs.enqueue(job, 60_000)).toBe(true);
      expect(await getJob(h.deps, `job-${waitingKey}`)).toMatchObject({ state: 'waiting' });
      expect(await counters()).toMatchObject({ waiting: 1, delayed: 2, active: 2 });

      expect(await drainQueue(h.deps, orgId, QUEUE)).toBe(3);

      for (const job of removedJobs) expect(await getJob(h.deps, job.jobId)).toMatchObject({ state: 'removed' });
      for (const key of activeKeys) expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'active' });
      expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 2, completed: 0, failed: 0, delayed: 0 });

      for (const entry of gates) entry.release();
      await delivering;
      // A late delivery of a drained job (SQS: its message arriving; local: a redelivery) is dropped.
      for (const job of removedJobs) await h.duplicate(job);
      await h.deliver();

      expect([...seen.effects].sort()).toEqual([before, ...activeKeys].sort());
      for (const job of removedJobs) {
        expect(seen.calls).not.toContain((job.data as TestJobData).key);
        expect(await getJob(h.deps, job.jobId)).toMatchObject({ state: 'removed', attempts: 0 });
      }
      for (const key of activeKeys) expect(await getJob(h.deps, `job-${key}`)).toMatchObject({ state: 'completed' });
      expect(await counters()).toEqual({ name: QUEUE, waiting: 0, active: 0, completed: 2, failed: 0, delayed: 0 });
      // Nothing is left to drain.
      expect(await drainQueue(h.deps, orgId, QUEUE)).toBe(0);
    } finally {
      for (const entry of gates) entry.release();
      await delivering.catch(() => undefined);
    }
  });

  it('throws NotFoundError for an unknown queue name', async () => {
    await expect(listFailedJobs(h.deps, orgId, 'no-such-queue', {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(retryAllFailed(h.deps, orgId, 'no-such-queue')).rejects.toBeInstanceOf(NotFoundError);
    await expect(drainQueue(h.deps, orgId, 'no-such-queue')).rejects.toBeInstanceOf(NotFoundError);
    await expect(drainQueue(h.deps, orgId, 'Lifecycle')).rejects.toThrow(/no queue named Lifecycle/);
  });
});
