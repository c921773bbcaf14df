import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $add, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import { set } from 'dynamodb-toolbox/schema/set';
import { string } from 'dynamodb-toolbox/schema/string';
import { everyJob, pendingEntry } from '../shared/jobs/entities.js';
import { drainTimeKeptUpdate, queueCounterAttributes, queueCountersKey } from '../shared/jobs/counter-entities.js';
import { COUNTER_NAMES, type CounterName, drainedAttribute, QUEUE_NAMES, type QueueName } from '../shared/jobs/ledger-types.js';
import { type Migration, type MigrationContext, rewriteAsRead } from '../shared/platform/migrations.js';
import { indexAttributes, type Item, type Key, unlessConditionFailed } from '../shared/platform/table.js';
import { conditionOf, outOf, tableEntity, updateOf } from '../shared/platform/updates.js';

/*
 * 008: the job ledger in the shape this version writes and reads.
 * - A pending job (waiting, delayed, or active) has its entry in `pending` (gsi5,
 *   `JOBPENDING#<queue>#<shard>` / `<run_at>#<id>`, the shard from its id). Versions before listed
 *   pending jobs in `lookups` (gsi2, whole items): under `JOBPENDING#<queue>#<shard of 32>`, and
 *   before the shards under `JOBPENDING#<queue>`. Such a job is taken out of `lookups`, and given
 *   its entry in `pending` at its run time unless it has one.
 * - Only failed jobs are listed by state (`listings`, gsi1, `JOBS#<org>#<queue>#failed`). Versions
 *   before listed the others too (waiting and delayed ones in `JOBS#<org>#<queue>#<state>` and, later,
 *   its 8 shards `…#<state>#<0-7>`; active and finished ones before that): a job not failed is taken
 *   out of `listings`, and a waiting or delayed one without an entry in `pending` gets one.
 * Each write is conditional on the job being as read (its state, last change and the entries read),
 * so a job that moved meanwhile is read again (a move writes this version's shape: nothing is left
 * to do then).
 * - An organisation's queue counters are in 8 shards (`QSTAT#<org>#<0-7>`). Before the shards they
 *   were one item, `QSTAT#<org>` / `QUEUES`, which readers added to the shards: its counts are added
 *   to shard 0 (once: `folded`), a drain time it holds is kept there when later than shard 0's, and
 *   it is deleted. The version before writes that item only in a drain, which SETs the same values
 *   in every shard at once; a drain of the organisation between the read and the delete here is
 *   logged (its counts may then stand as before that drain until the next one).
 */

// --- Jobs ---

const [LISTED_PK, LISTED_SK] = indexAttributes('listings');
const [LOOKUP_PK, LOOKUP_SK] = indexAttributes('lookups');
const [PENDING_PK, PENDING_SK] = indexAttributes('pending');

const entryKey = () => string().optional();

/** The job item as versions before wrote it: what this migration reads, rewrites or takes out. */
const jobOfBefore = tableEntity('job-of-before', {
  state: string().optional(),
  updated_at: string().optional(),
  [LISTED_PK]: entryKey(),
  [LISTED_SK]: entryKey(),
  [LOOKUP_PK]: entryKey(),
  [LOOKUP_SK]: entryKey(),
  [PENDING_PK]: entryKey(),
  [PENDING_SK]: entryKey(),
});

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The rewrite of a job item, conditioned on it being as read: undefined when it is in this
 * version's shape already, `left` when it lacks what every version wrote.
 */
function rewriteOf(item: Item) {
  const [id, queue, state, runAt] = [item.id, item.queue, item.state, item.run_at].map(text);
  const listedBefore = item[LISTED_PK] !== undefined && state !== 'failed';
  const pendingBefore = item[LOOKUP_PK] !== undefined || item[LOOKUP_SK] !== undefined;
  const unlisted = item[PENDING_PK] === undefined && (state === 'waiting' || state === 'delayed' || (state === 'active' && pendingBefore));
  if (!listedBefore && !pendingBefore && !unlisted) return undefined;
  if (!id || !queue || !state || !runAt) return 'left' as const;
  const changes = {
    ...(listedBefore ? outOf('listings') : {}),
    ...(pendingBefore ? outOf('lookups') : {}),
    ...(unlisted ? pendingEntry(queue, id, runAt) : {}),
  };
  const read = <NAME extends 'updated_at' | typeof LISTED_PK | typeof LOOKUP_PK | typeof PENDING_PK>(attr: NAME) => {
    const value = text(item[attr]);
    return value === undefined ? ({ attr, exists: false } as const) : ({ attr, eq: value } as const);
  };
  const asRead: Condition<typeof jobOfBefore> = {
    and: [{ attr: 'state', eq: state }, read('updated_at'), read(LISTED_PK), read(LOOKUP_PK), read(PENDING_PK)],
  };
  const command = jobOfBefore
    .build(UpdateItemCommand)
    .item({ pk: item.pk, sk: item.sk, ...changes })
    .options({ condition: asRead });
  return updateOf(command);
}

async function rewriteJobs(context: MigrationContext): Promise<void> {
  for await (const found of context.scan('jobs', everyJob())) {
    const outcome = await rewriteAsRead(context.table, found, rewriteOf);
    if (outcome === 'moved') context.moved();
    if (outcome === 'left') {
      context.left();
      context.logger?.warn('job left as it was', { key: `${found.pk}/${found.sk}` });
    }
  }
}

// --- Queue counters ---

/** The organisation of a queue counters item of before (`QSTAT#<org>`, no shard); undefined for a shard of this version. */
const organisationOfBefore = (key: Key) => (key.sk === 'QUEUES' ? /^QSTAT#([^#]+)$/.exec(key.pk)?.[1] : undefined);

const countersOfBeforeEntity = tableEntity('queue-counters-of-before', {});

/** Every queue counters item, shards and item of before alike (told apart by `organisationOfBefore`). */
const everyQueueCounters = () =>
  conditionOf(countersOfBeforeEntity, {
    and: [
      { attr: 'pk', beginsWith: 'QSTAT#' },
      { attr: 'sk', eq: 'QUEUES' },
    ],
  });

/** Shard 0 of the queue counters (the entity's attributes), with the sources folded into it (so that a run again folds none twice). */
const foldedCountersEntity = tableEntity('queue-counters-folded', { ...queueCounterAttributes, folded: set(string()).optional() });

/** The counts of the item of before, ADDed to shard 0, once: refused when `source` was folded there. */
function foldUpdate(orgId: string, counts: [CounterName, number][], source: string) {
  const changes: UpdateItemInput<typeof foldedCountersEntity> = { ...queueCountersKey(orgId, 0), folded: $add(new Set([source])) };
  for (const [name, count] of counts) changes[name] = $add(count);
  return updateOf(
    foldedCountersEntity
      .build(UpdateItemCommand)
      .item(changes)
      .options({ condition: { not: { attr: 'folded', contains: source } } }),
  );
}

/** The counts and drain times of a counters item (other attributes, of queues no longer served, are not read). */
function countsOf(item: Record<string, unknown>) {
  const counts = COUNTER_NAMES.flatMap((name): [CounterName, number][] => {
    const count = item[name];
    return typeof count === 'number' && count !== 0 ? [[name, count]] : [];
  });
  const drains = QUEUE_NAMES.flatMap((queue): [QueueName, string][] => {
    const at = text(item[drainedAttribute(queue)]);
    return at ? [[queue, at]] : [];
  });
  return { counts, drains };
}

async function foldQueueCounters({ table, scan, moved, logger }: MigrationContext): Promise<void> {
  for await (const item of scan('queue counters', everyQueueCounters())) {
    const orgId = organisationOfBefore(item);
    if (!orgId) continue;
    const { counts, drains } = countsOf(item);
    for (const [queue, at] of drains) {
      // Set on shard 0 unless it holds this drain or a later one (readers take the latest).
      const { key, input } = drainTimeKeptUpdate(queueCountersKey(orgId, 0), queue, at);
      await unlessConditionFailed(table.update(key, input), undefined);
    }
    if (counts.length) {
      const { key, input } = foldUpdate(orgId, counts, `${item.pk}/${item.sk}`);
      // Refused when a run before this one folded it in already.
      await unlessConditionFailed(table.update(key, input), undefined);
    }
    const deleted = await table.deleteReturningOld<Record<string, unknown>>({ pk: item.pk, sk: item.sk });
    if (deleted && JSON.stringify(countsOf(deleted)) !== JSON.stringify({ counts, drains })) {
      logger?.warn('queue counters of before changed while they were folded (a drain of the version before)', { org: orgId });
    }
    moved();
  }
}

export const jobLedger: Migration = {
  version: 8,
  name: "the job ledger's index entries and queue counters in this version's shape",
  async run(context) {
    await rewriteJobs(context);
    await foldQueueCounters(context);
  },
};
