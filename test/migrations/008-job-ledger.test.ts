import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { jobKey, pendingShardOf } from '../../shared/jobs/entities.js';
import { queueCountersKey } from '../../shared/jobs/counter-entities.js';
import { getJob, type JobItem, type JobState } from '../../shared/jobs/ledger.js';
import { pendingJobs } from '../../shared/jobs/pending.js';
import { type Migration, runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { stuckJobsSent } from '../support/stuck-jobs.js';

/*
 * Migration 008 on a job ledger as the versions before wrote it: pending jobs listed in `lookups`
 * (gsi2, whole items) under `JOBPENDING#<queue>` and its 32 shards of before, waiting and delayed
 * (and finished) jobs listed by state in `listings` (gsi1, unsharded and in 8 shards), a waiting job
 * listed by state alone, and an organisation's queue counters in the one item of before the shards
 * (`QSTAT#<org>`). Afterwards the failed list, the queue stats, the sweep of stuck jobs and a drain
 * see each old job and count once, reading this version's shapes only; a second run finds nothing.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

/** Migration 008 as the list of migrations holds it (none when it is left out of the list). */
const ledgerMigrations = () => MIGRATIONS.filter((migration) => migration.version === 8);

/** Runs what the list holds past version 7, as a table of version 7 has it run. */
async function migrate(migrations: readonly Migration[] = ledgerMigrations()) {
  await t.deps.table.put({ ...SCHEMA_MARKER, version: 7 });
  return runMigrations(t.deps.table, migrations, { clock: t.clock });
}

const QUEUE = 'cold-messages';
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();

/** A job item as the versions before wrote it: the item, and the index entries of its era. */
function jobOfBefore(orgId: string, id: string, state: JobState, runAt: string, entries: Record<string, string>): Item {
  const updatedAt = at(-2 * MINUTE);
  return {
    ...jobKey(id),
    id,
    queue: QUEUE,
    org_id: orgId,
    state,
    attempts: state === 'waiting' || state === 'delayed' ? 0 : 1,
    data: { workspaceId: 'w', conversationId: id },
    last_error: state === 'failed' ? 'boom' : null,
    run_at: runAt,
    created_at: updatedAt,
    updated_at: updatedAt,
    ...entries,
  };
}

/** The pending index's shard of before (32 shards). */
const shardOf32 = (id: string) => (createHash('sha1').update(id).digest()[0] ?? 0) % 32;

/** The organisation's old jobs, one per shape of before, and one of this version. */
async function plantLedgerOfBefore(orgId: string, otherOrgId: string) {
  const id = (name: string) => `${name}-${orgId}`;
  const ids = {
    /** Before the shards: listed by state unsharded, pending in gsi2's one partition; stuck (its run time long past). */
    unsharded: id('unsharded'),
    /** Listed by state in a shard of 8, pending in gsi2's shard of 32; due later. */
    shardedDelayed: id('sharded-delayed'),
    /** Pending in gsi2 only, active with a lapsed lease: stuck. */
    active: id('active'),
    /** Waiting, listed by state alone (its pending entry lost). */
    listedOnly: id('listed-only'),
    /** Completed, still listed by state (before finished jobs left the index). */
    completed: id('completed'),
    /** Failed, in the failed list: this version's shape already. */
    failed: id('failed'),
    /** Delayed, in `pending`: this version's shape. */
    current: id('current'),
    /** Another organisation's, before the shards. */
    theirs: `theirs-${otherOrgId}`,
  };
  const stuckAt = at(-60 * MINUTE);
  const laterAt = at(30 * MINUTE);
  const byState = (state: JobState, shard?: number) => `JOBS#${orgId}#${QUEUE}#${state}${shard === undefined ? '' : `#${shard}`}`;
  const updated = (jobId: string) => `${at(-2 * MINUTE)}#${jobId}`;
  const items = [
    jobOfBefore(orgId, ids.unsharded, 'waiting', stuckAt, {
      gsi1pk: byState('waiting'),
      gsi1sk: updated(ids.unsharded),
      gsi2pk: `JOBPENDING#${QUEUE}`,
      gsi2sk: `${stuckAt}#${ids.unsharded}`,
    }),
    jobOfBefore(orgId, ids.shardedDelayed, 'delayed', laterAt, {
      gsi1pk: byState('delayed', 5),
      gsi1sk: updated(ids.shardedDelayed),
      gsi2pk: `JOBPENDING#${QUEUE}#${shardOf32(ids.shardedDelayed)}`,
      gsi2sk: `${laterAt}#${ids.shardedDelayed}`,
    }),
    {
      ...jobOfBefore(orgId, ids.active, 'active', stuckAt, {
        gsi2pk: `JOBPENDING#${QUEUE}#${shardOf32(ids.active)}`,
        gsi2sk: `${stuckAt}#${ids.active}`,
      }),
      lease_until: at(-30 * MINUTE),
    },
    jobOfBefore(orgId, ids.listedOnly, 'waiting', stuckAt, { gsi1pk: byState('waiting', 2), gsi1sk: updated(ids.listedOnly) }),
    jobOfBefore(orgId, ids.completed, 'completed', stuckAt, { gsi1pk: byState('completed'), gsi1sk: updated(ids.completed) }),
    jobOfBefore(orgId, ids.failed, 'failed', stuckAt, { gsi1pk: byState('failed'), gsi1sk: updated(ids.failed) }),
    jobOfBefore(orgId, ids.current, 'delayed', laterAt, {
      gsi5pk: `JOBPENDING#${QUEUE}#${pendingShardOf(ids.current)}`,
      gsi5sk: `${laterAt}#${ids.current}`,
    }),
    jobOfBefore(otherOrgId, ids.theirs, 'waiting', laterAt, {
      gsi1pk: `JOBS#${otherOrgId}#${QUEUE}#waiting`,
      gsi1sk: updated(ids.theirs),
      gsi2pk: `JOBPENDING#${QUEUE}`,
      gsi2sk: `${laterAt}#${ids.theirs}`,
    }),
  ];
  await t.deps.table.batchPut(items);
  return ids;
}

/** The organisation's queue counters of before the shards, beside two shards of this version. */
async function plantCountersOfBefore(orgId: string) {
  const before = { pk: `QSTAT#${orgId}`, sk: 'QUEUES' };
  const items: Item[] = [
    {
      ...before,
      [`${QUEUE}#failed`]: 2,
      [`${QUEUE}#completed`]: 4,
      [`${QUEUE}#waiting`]: 3,
      'conversation-stats#waiting': -1,
      'conversation-stats#drained_at': '2026-01-02T00:00:00.000Z',
    },
    { ...queueCountersKey(orgId, 0), [`${QUEUE}#failed`]: 1, 'conversation-stats#drained_at': '2026-01-01T00:00:00.000Z' },
    { ...queueCountersKey(orgId, 7), [`${QUEUE}#completed`]: 5, 'conversation-stats#waiting': 2 },
  ];
  await t.deps.table.batchPut(items);
  return before;
}

async function queuesOf(cookie: string) {
  const response = await t.request('GET', '/api/org/queues', { cookie });
  expect(response.status, response.text).toBe(200);
  const byName = new Map((response.body.queues as { name: string }[]).map((queue) => [queue.name, queue]));
  return { coldMessages: byName.get(QUEUE), stats: byName.get('conversation-stats') };
}

async function failedListed(cookie: string): Promise<string[]> {
  const response = await t.request('GET', `/api/org/queues/${QUEUE}/failed`, { cookie });
  expect(response.status, response.text).toBe(200);
  return (response.body.jobs as { id: string }[]).map((job) => job.id);
}

const sorted = (ids: string[]) => [...ids].sort();

describe('migration 008: the job ledger of before', () => {
  it('moves old pending entries to the pending index, takes jobs out of the by-state lists and folds the counters once', async () => {
    const { org, cookie } = await t.signUp();
    const other = await t.signUp();
    const ids = await plantLedgerOfBefore(org.id, other.org.id);
    const countersOfBefore = await plantCountersOfBefore(org.id);

    // Every job of before but the failed and the current one, and the counters item.
    expect(await migrate()).toMatchObject({ from: 7, to: 8, moved: 7, left: 0, ran: [expect.stringMatching(/^008 /)] });

    // Stored in this version's shape: no job in `lookups`, only the failed one listed by state, the pending ones in `pending`.
    for (const id of Object.values(ids)) {
      const job = (await getJob(t.deps, id)) as JobItem & Record<string, unknown>;
      expect(job).not.toHaveProperty('gsi2pk');
      expect(job).not.toHaveProperty('gsi2sk');
      if (job.state === 'failed') expect(job.gsi1pk).toBe(`JOBS#${org.id}#${QUEUE}#failed`);
      else expect(job).not.toHaveProperty('gsi1pk');
      if (job.state === 'completed') expect(job).not.toHaveProperty('gsi5pk');
      else if (job.state !== 'failed') {
        expect(job.gsi5pk).toBe(`JOBPENDING#${QUEUE}#${pendingShardOf(id)}`);
        expect(job.gsi5sk).toBe(`${job.run_at}#${id}`);
      }
    }
    expect(await t.deps.table.get(countersOfBefore)).toBeUndefined();

    // Read through what this version reads: each once.
    const pending = (await pendingJobs(t.deps.table, QUEUE, { orgId: org.id })).map((job) => job.id);
    expect(sorted(pending)).toEqual(sorted([ids.unsharded, ids.shardedDelayed, ids.active, ids.listedOnly, ids.current]));
    expect(await failedListed(cookie)).toEqual([ids.failed]);
    const stuck = (await stuckJobsSent(t.deps)).filter((id) => id.endsWith(org.id));
    expect(sorted(stuck)).toEqual(sorted([ids.unsharded, ids.active, ids.listedOnly]));
    const queues = await queuesOf(cookie);
    expect(queues.coldMessages).toMatchObject({ failed: 3, completed: 9, waiting: 3 });
    expect(queues.stats).toMatchObject({ waiting: 1 });
    // The later drain time of the two is kept.
    expect(await t.deps.table.get(queueCountersKey(org.id, 0))).toMatchObject({
      'conversation-stats#drained_at': '2026-01-02T00:00:00.000Z',
    });

    // Run again from the start: nothing of before is left, and nothing is counted twice.
    expect(await migrate()).toMatchObject({ moved: 0, left: 0 });
    expect((await queuesOf(cookie)).coldMessages).toMatchObject({ failed: 3, completed: 9, waiting: 3 });
    expect(await failedListed(cookie)).toEqual([ids.failed]);

    // A drain finds the waiting and delayed ones, the old as the new, once each; not the active one, nor another organisation's.
    const drained = await t.request('POST', `/api/org/queues/${QUEUE}/drain`, { cookie });
    expect(drained.status, drained.text).toBe(200);
    expect(drained.body.removed).toBe(4);
    for (const id of [ids.unsharded, ids.shardedDelayed, ids.listedOnly, ids.current]) {
      expect((await getJob(t.deps, id))?.state).toBe('removed');
    }
    expect((await getJob(t.deps, ids.active))?.state).toBe('active');
    expect((await getJob(t.deps, ids.theirs))?.state).toBe('waiting');
    expect((await pendingJobs(t.deps.table, QUEUE, { orgId: other.org.id })).map((job) => job.id)).toEqual([ids.theirs]);
  });

  it('counts the counters of before once when a run stopped before deleting them, and goes on after a run stopped half-way', async () => {
    const { org, cookie } = await t.signUp();
    const other = await t.signUp();
    const ids = await plantLedgerOfBefore(org.id, other.org.id);
    const countersOfBefore = await plantCountersOfBefore(org.id);
    const [ledger] = ledgerMigrations();
    expect(ledger).toBeDefined();

    // A run that stops half-way through the jobs: its scan throws on the third.
    const stopping: Migration = {
      version: 8,
      name: 'stops half-way',
      async run(context) {
        await ledger?.run({
          ...context,
          scan: async function* (name, filter) {
            let given = 0;
            for await (const item of context.scan(name, filter)) {
              if (name === 'jobs' && given === 2) throw new Error('stopped');
              given += 1;
              yield item;
            }
          },
        });
      },
    };
    await expect(migrate([stopping])).rejects.toThrow('stopped');
    expect(await t.deps.table.get(SCHEMA_MARKER, true)).toMatchObject({ version: 7 });

    const counters = (await t.deps.table.get(countersOfBefore)) as Item;
    expect(await migrate()).toMatchObject({ to: 8, left: 0 });
    // As if a run had stopped after folding them and before deleting them: the next run finds them again.
    await t.deps.table.put(counters);
    expect(await migrate()).toMatchObject({ moved: 1, left: 0 });
    expect(await t.deps.table.get(countersOfBefore)).toBeUndefined();

    expect((await queuesOf(cookie)).coldMessages).toMatchObject({ failed: 3, completed: 9, waiting: 3 });
    const pending = (await pendingJobs(t.deps.table, QUEUE, { orgId: org.id })).map((job) => job.id);
    expect(sorted(pending)).toEqual(sorted([ids.unsharded, ids.shardedDelayed, ids.active, ids.listedOnly, ids.current]));
    expect(await failedListed(cookie)).toEqual([ids.failed]);
  });
});
