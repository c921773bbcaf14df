import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jobHandlers } from '../../shared/wiring/job-handlers.js';
import { LocalJobRunner } from '../../shared/jobs/local-runner.js';
import { deliveryOf, type JobHandler, type JobHandlers } from '../../shared/jobs/worker.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * The local runner's shares (audit 5): each queue has its own slots, so a queue full of one run's
 * cases holds no other queue's job; within a queue, a free slot goes to the organisation running
 * the fewest of its jobs, so one organisation's 200 cases do not hold another's one.
 */

let t: TestContext;
let runner: LocalJobRunner;
const order: string[] = [];
let release!: () => void;
const held = new Promise<void>((resolve) => (release = resolve));

const recording: JobHandler<{ key: string }> = {
  schema: z.object({ key: z.string() }),
  async run(_deps, data) {
    order.push(data.key);
    if (data.key === 'a-0') await held;
  },
};

beforeAll(async () => {
  t = await createTestContext();
  const settings = { maxAttempts: 3, retryBaseMs: 5 };
  runner = new LocalJobRunner({ table: t.deps.table, clock: t.clock, logger: t.logger }, { concurrency: 1, ...settings });
  const deps = t.depsWithJobs(runner);
  const handlers: JobHandlers = {
    ...jobHandlers,
    evals: recording as JobHandler<unknown>,
    'conversation-stats': recording as JobHandler<unknown>,
  };
  runner.start(deliveryOf(deps, handlers, settings));
});
afterAll(async () => {
  await runner.stop(1000);
  await t.close();
});

describe('the local runner’s shares', () => {
  it('runs another queue’s job, and another organisation’s job of the same queue, before the rest of one organisation’s many', async () => {
    const send = (key: string, orgId: string, queue: 'evals' | 'conversation-stats' = 'evals') =>
      runner.enqueue({ jobId: `share-${key}`, queue, orgId, data: { key } });
    // Organisation A's first case holds the queue's one slot while its others and B's one wait.
    await send('a-0', 'org_a');
    for (let index = 1; index <= 5; index += 1) await send(`a-${index}`, 'org_a');
    await send('b-0', 'org_b');
    await send('stats-b', 'org_b', 'conversation-stats');
    // The other queue's job runs while the evaluation's queue is held.
    await vi.waitFor(() => expect(order).toContain('stats-b'), { timeout: 5_000, interval: 10 });
    expect(order).toEqual(['a-0', 'stats-b']);
    release();
    await runner.idle();
    // B's one case went first once a slot was free, then A's others in order.
    expect(order).toEqual(['a-0', 'stats-b', 'b-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
  });
});

describe('a queue’s own concurrency', () => {
  it('runs as many of that queue’s jobs at once as its own limit says, the others keeping theirs', async () => {
    const settings = { maxAttempts: 3, retryBaseMs: 5 };
    const own = new LocalJobRunner(
      { table: t.deps.table, clock: t.clock, logger: t.logger },
      { concurrency: 1, concurrencyOf: { evals: 3 }, ...settings },
    );
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const started: string[] = [];
    const holding: JobHandler<{ key: string }> = {
      schema: z.object({ key: z.string() }),
      async run(_deps, data) {
        started.push(data.key);
        await gate;
      },
    };
    const handlers: JobHandlers = {
      ...jobHandlers,
      evals: holding as JobHandler<unknown>,
      'conversation-stats': holding as JobHandler<unknown>,
    };
    own.start(deliveryOf(t.depsWithJobs(own), handlers, settings));
    try {
      for (let index = 0; index < 5; index += 1)
        await own.enqueue({ jobId: `own-e-${index}`, queue: 'evals', orgId: 'org_c', data: { key: `e-${index}` } });
      for (let index = 0; index < 3; index += 1)
        await own.enqueue({ jobId: `own-s-${index}`, queue: 'conversation-stats', orgId: 'org_c', data: { key: `s-${index}` } });
      await vi.waitFor(() => expect(started).toHaveLength(4), { timeout: 5_000, interval: 10 });
      // Three of the evaluation queue's (its own limit), one of the other (the runner's).
      expect(started.filter((key) => key.startsWith('e-'))).toEqual(['e-0', 'e-1', 'e-2']);
      expect(started.filter((key) => key.startsWith('s-'))).toEqual(['s-0']);
      open();
      await own.idle();
      expect(started).toHaveLength(8);
    } finally {
      open();
      await own.stop(1000);
    }
  });
});
