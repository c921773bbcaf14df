import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJob, recordJob, transitionJob, type JobItem } from '../../shared/jobs/ledger.js';
import { failedJobs, jobKey, PENDING_SHARDS, pendingShardOf } from '../../shared/jobs/entities.js';
import { QUEUE_COUNTER_SHARDS, queueCountersKey } from '../../shared/jobs/counter-entities.js';
import { keys } from '../../shared/platform/keys.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { stuckJobsSent } from '../support/stuck-jobs.js';

/*
 * The job ledger's keys that every tenant's jobs share are spread over shards (shared/jobs/entities.ts):
 * the pending index over 64 by job id, each organisation's queue counters over 8 at random. What
 * was written before the sharding is rewritten by migration 008 (test/migrations/008-job-ledger.test.ts).
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe('sharded job ledger keys', () => {
  it('puts pending jobs in every one of the 64 shards of their queue, by id', async () => {
    const shards = new Set(Array.from({ length: 1000 }, (_, index) => pendingShardOf(`stats-org-ws-conv-${index}`)));
    expect(shards.size).toBe(PENDING_SHARDS);
    // A job's entry stays in its shard through its states (the id picks it).
    const { org } = await t.signUp();
    const jobId = `shard-test-${org.id}`;
    // Recorded in the ledger only (no delivery): delayed a minute.
    const message = { jobId, queue: 'cold-messages' as const, orgId: org.id, data: { workspaceId: 'w', conversationId: 'c' } };
    expect(await recordJob(t.deps, message, 60_000)).toBe(true);
    const job = (await getJob(t.deps, jobId)) as JobItem;
    expect(job.state).toBe('delayed');
    expect(job.gsi5pk).toBe(`JOBPENDING#cold-messages#${pendingShardOf(jobId)}`);
    expect(job).not.toHaveProperty('gsi2pk');
    // The entry carries the keys and the organisation alone: a claim, which changes neither, writes none.
    const entries = await t.deps.table.queryAll({
      index: 'pending',
      pk: String(job.gsi5pk),
      filter: 'org_id = :org',
      values: { ':org': org.id },
    });
    expect(entries).toEqual([{ pk: job.pk, sk: job.sk, gsi5pk: job.gsi5pk, gsi5sk: job.gsi5sk, org_id: org.id }]);
  });

  it('lists a job by state only while it is failed: a run writes no gsi1 entry while waiting, delayed, active or completed', async () => {
    const { org } = await t.signUp();
    const jobId = `states-${org.id}`;
    const message = { jobId, queue: 'cold-messages' as const, orgId: org.id, data: { workspaceId: 'w', conversationId: 'c' } };
    expect(await recordJob(t.deps, message, 60_000)).toBe(true);
    const indexOf = async () => (await getJob(t.deps, jobId)) as JobItem;
    expect((await indexOf()).state).toBe('delayed');
    expect((await indexOf()).gsi1pk).toBeUndefined();
    expect((await indexOf()).gsi5pk).toBe(`JOBPENDING#cold-messages#${pendingShardOf(jobId)}`);
    const active = await transitionJob(t.deps, await indexOf(), { from: ['delayed'], to: 'active' });
    expect(active?.state).toBe('active');
    expect((await indexOf()).gsi1pk).toBeUndefined();
    expect((await indexOf()).gsi5pk).toBe(`JOBPENDING#cold-messages#${pendingShardOf(jobId)}`);
    await transitionJob(t.deps, await indexOf(), { from: ['active'], to: 'failed', lastError: 'boom' });
    expect((await indexOf()).gsi1pk).toBe(failedJobs(org.id, 'cold-messages').pk);
    await transitionJob(t.deps, await indexOf(), { from: ['failed'], to: 'waiting' });
    expect((await indexOf()).gsi1pk).toBeUndefined();
    await transitionJob(t.deps, await indexOf(), { from: ['waiting'], to: 'completed' });
    const completed = await indexOf();
    expect([completed.gsi1pk, completed.gsi5pk]).toEqual([undefined, undefined]);
    expect(completed).not.toHaveProperty('gsi2pk');
  });

  it("drains an organisation's waiting and delayed jobs from the pending index, no other's", async () => {
    const { org, cookie } = await t.signUp();
    const other = await t.signUp();
    const ids = Array.from({ length: 12 }, (_, index) => `drain-${index}-${org.id}`);
    for (const [index, jobId] of ids.entries()) {
      await recordJob(
        t.deps,
        { jobId, queue: 'cold-messages', orgId: org.id, data: { workspaceId: 'w', conversationId: jobId } },
        index % 2 ? 60_000 : 0,
      );
    }
    const theirs = `drain-theirs-${other.org.id}`;
    await recordJob(
      t.deps,
      { jobId: theirs, queue: 'cold-messages', orgId: other.org.id, data: { workspaceId: 'w', conversationId: 'c' } },
      60_000,
    );
    const drained = await t.request('POST', '/api/org/queues/cold-messages/drain', { cookie });
    expect(drained.status, drained.text).toBe(200);
    expect(drained.body.removed).toBe(ids.length);
    for (const jobId of ids) {
      const job = await getJob(t.deps, jobId);
      expect(job?.state).toBe('removed');
      // Removed, it is out of the pending index.
      expect(job).not.toHaveProperty('gsi5pk');
    }
    expect((await getJob(t.deps, theirs))?.state).toBe('delayed');
  });

  it('sends again a stuck job of the pending index (GSI5), read by key after its entry, and not one still due later', async () => {
    const { org } = await t.signUp();
    const [stuck, later] = [`stuck-${org.id}`, `later-${org.id}`];
    for (const jobId of [stuck, later]) {
      await recordJob(t.deps, { jobId, queue: 'cold-messages', orgId: org.id, data: { workspaceId: 'w', conversationId: jobId } }, 60_000);
    }
    // Its run time long past: its message was lost.
    await t.deps.table.update(jobKey(stuck), {
      update: 'SET gsi5sk = :sk',
      values: { ':sk': keys.timeOrdered('2020-01-01T00:00:00.000Z', stuck) },
    });
    const redelivered = await stuckJobsSent(t.deps);
    expect(redelivered).toContain(stuck);
    expect(redelivered).not.toContain(later);
  });

  it('sends a stuck job again once per wait, not at every sweep, while it waits in a backlog', async () => {
    const { org } = await t.signUp();
    const stuck = `backlog-${org.id}`;
    await recordJob(t.deps, { jobId: stuck, queue: 'evals', orgId: org.id, data: { workspaceId: 'w', conversationId: stuck } }, 0);
    await t.deps.table.update(jobKey(stuck), {
      update: 'SET gsi5sk = :sk',
      values: { ':sk': keys.timeOrdered('2020-01-01T00:00:00.000Z', stuck) },
    });
    const sent = async () => (await stuckJobsSent(t.deps)).filter((id) => id === stuck).length;
    // The sweep runs every minute; the job's message waits behind others in its queue.
    expect(await sent()).toBe(1);
    t.clock.advance(60_000);
    expect(await sent()).toBe(0);
    t.clock.advance(3 * 60_000);
    expect(await sent()).toBe(0);
    // Once a whole wait has passed since it was sent, it is sent again.
    t.clock.advance(2 * 60_000);
    expect(await sent()).toBe(1);
    // Its state and run time are as they were: only its place in the pending index moved.
    expect(await getJob(t.deps, stuck)).toMatchObject({ state: 'waiting' });
  });

  it('sums the queue counters over their shards, and a drain resets them all', async () => {
    const { org, cookie } = await t.signUp();
    const add = (key: { pk: string; sk: string }, name: string, value: number) =>
      t.deps.table.update(key, { update: 'ADD #n :v', names: { '#n': name }, values: { ':v': value } });
    await add(queueCountersKey(org.id, 0), 'cold-messages#failed', 1);
    await add(queueCountersKey(org.id, 3), 'cold-messages#failed', 2);
    await add(queueCountersKey(org.id, QUEUE_COUNTER_SHARDS - 1), 'cold-messages#completed', 5);
    await add(queueCountersKey(org.id, 2), 'cold-messages#completed', 4);
    const queues = async () => {
      const response = await t.request('GET', '/api/org/queues', { cookie });
      expect(response.status, response.text).toBe(200);
      return response.body.queues.find((queue: { name: string }) => queue.name === 'cold-messages');
    };
    expect(await queues()).toMatchObject({ failed: 3, completed: 9 });
    const drained = await t.request('POST', '/api/org/queues/cold-messages/drain', { cookie });
    expect(drained.status, drained.text).toBe(200);
    expect(await queues()).toMatchObject({ failed: 3, completed: 0 });
  });
});
