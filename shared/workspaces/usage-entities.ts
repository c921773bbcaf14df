import { $add, $remove, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import { set } from 'dynamodb-toolbox/schema/set';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';

/*
 * A workspace's usage (docs/data-model.md): its counters, an item per shard and month
 * (counters.ts), and its usage of each day, an item per day in one of its organisation's day
 * shards (day-counts.ts). Both are spread over 4 shards, each write adding to one at random so that
 * no partition takes every question of a busy workspace or organisation; readers sum the shards.
 * Both are ADD only. `folded` on either: the sources migrations/004 and 005 added to it, once each.
 */

/** What one query (or a batch of them) adds to a workspace's usage, on its counters and its day. */
export const USAGE_FIELDS = [
  'queries',
  'errors',
  'duration_ms',
  'cost_usd',
  /** Uncached input tokens. */
  'tokens_input',
  'tokens_output',
  'tokens_cache_read',
  'tokens_cache_write',
] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];

const counter = number().optional();
/** The sources a migration folded into an item, so that a migration run again folds none twice. */
const folded = set(string()).optional();

/** A change that counts `source` once: refused when the item holds it already. */
const foldedOnce = (source: string) => ({ not: { attr: 'folded', contains: source } }) as const;

// --- Counters: `WSCOUNT#<org>#<ws>#<shard>` / `M#<YYYY-MM>`, in no index ---

/** Shards of a workspace's counters: each change adds to one at random; reads sum them all. */
export const COUNTER_SHARDS = 4;
const COUNTERS_PREFIX = 'WSCOUNT#';
const counterPartition = (orgId: string, workspaceId: string, shard: number) => `${COUNTERS_PREFIX}${orgId}#${workspaceId}#${shard}`;

/** One shard of a workspace's counters in one month. */
export const counterKey = (orgId: string, workspaceId: string, shard: number, month: string): Key => ({
  pk: counterPartition(orgId, workspaceId, shard),
  sk: `M#${month}`,
});

/** The keys of the workspace's counter items of one month, every shard (for a BatchGet a reader makes anyway). */
export const monthCounterKeys = (orgId: string, workspaceId: string, month: string): Key[] =>
  Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterKey(orgId, workspaceId, shard, month));

/** Whether an item read with others (a BatchGet) is one of a workspace's counter items. */
export const isCounterItem = (item: { pk: string }) => item.pk.startsWith(COUNTERS_PREFIX);

/**
 * The entity of a counter item over the counters a write names. Their names are data (a month, a
 * status, a category, a channel: counters.ts), so the schema is made for the write, and its
 * changes are added by name (`withCounters`): the compiler cannot know the names, toolbox checks
 * them against the schema all the same, and builds the expression.
 */
function countersEntity(names: readonly string[]) {
  const counters: Record<string, typeof counter> = Object.fromEntries(names.map((name) => [name, counter]));
  return tableEntity('workspace-counters', { folded, ...counters });
}
type CountersEntity = ReturnType<typeof countersEntity>;

/** `changes` with a change of each counter named. */
function withCounters(changes: UpdateItemInput<CountersEntity>, named: [string, unknown][]): UpdateItemInput<CountersEntity> {
  return Object.assign(changes, Object.fromEntries(named));
}

/** The non-zero deltas of a change, as ADDs. */
const adds = (deltas: Record<string, number>): [string, unknown][] =>
  Object.entries(deltas).flatMap(([name, delta]) => (delta === 0 ? [] : [[name, $add(delta)]]));

/** The ADDs of `deltas` (zero ones left out) on the counter item `key`; undefined when nothing moves. */
export function countersUpdate(key: Key, deltas: Record<string, number>) {
  const named = adds(deltas);
  if (!named.length) return undefined;
  const entity = countersEntity(named.map(([name]) => name));
  return updateOf(entity.build(UpdateItemCommand).item(withCounters({ ...key }, named)));
}

/** The same ADDs, counting `source` once: the change is refused when the item has folded it in already. */
export function foldedCountersUpdate(key: Key, deltas: Record<string, number>, source: string) {
  const named = adds(deltas);
  const entity = countersEntity(named.map(([name]) => name));
  const changes = withCounters({ ...key, folded: $add(new Set([source])) }, named);
  return updateOf(
    entity
      .build(UpdateItemCommand)
      .item(changes)
      .options({ condition: foldedOnce(source) }),
  );
}

/** Counters taken off an item that exists (migrations/004: off the workspace item, where they were before issue 35). */
export function countersRemoval(key: Key, names: readonly string[]) {
  const entity = countersEntity(names);
  const changes = withCounters(
    { ...key },
    names.map((name) => [name, $remove()]),
  );
  return updateOf(
    entity
      .build(UpdateItemCommand)
      .item(changes)
      .options({ condition: { attr: 'pk', exists: true } }),
  );
}

// --- Day usage: `ORGTODAY#<org>#<shard>` / `USE#<YYYY-MM-DD>#WS#<ws>` ---

/** How many partitions an organisation's days are spread over: each takes 1/DAY_SHARDS of its queries. */
export const DAY_SHARDS = 4;
const dayUsagePartition = (orgId: string, shard: number) => `ORGTODAY#${orgId}#${shard}`;
const dayUsagePrefix = (day: string) => `USE#${day}#WS#`;

/** A workspace's usage of one day in one shard of its organisation's. */
export const dayUsageKey = (orgId: string, shard: number, day: string, workspaceId: string): Key => ({
  pk: dayUsagePartition(orgId, shard),
  sk: `${dayUsagePrefix(day)}${workspaceId}`,
});

/** The day of a day usage item, from its sort key (`USE#<day>#WS#<ws>`); undefined for any other item. */
export function dayOfUsage(item: { sk: string }): string | undefined {
  return /^USE#(\d{4}-\d{2}-\d{2})#/.exec(item.sk)?.[1];
}

/** The keys of a workspace's usage on `days`, every shard of each day (for a BatchGet the reader makes). */
export const dayUsageKeys = (orgId: string, workspaceId: string, days: readonly string[]): Key[] =>
  days.flatMap((day) => Array.from({ length: DAY_SHARDS }, (_, shard) => dayUsageKey(orgId, shard, day, workspaceId)));

const usageCounters = Object.fromEntries(USAGE_FIELDS.map((field) => [field, counter])) as Record<UsageField, typeof counter>;

/** A day usage item: the usage fields (ADD) and its workspace, which the organisation's readers group by. */
const dayUsageEntity = tableEntity('day-usage', { workspace_id: string(), folded, ...usageCounters });

/** The day usage item's changes: the non-zero deltas added, its workspace set. */
function dayUsageChanges(key: Key, workspaceId: string, deltas: Partial<Record<UsageField, number>>) {
  const changes: UpdateItemInput<typeof dayUsageEntity> = { ...key, workspace_id: workspaceId };
  for (const field of USAGE_FIELDS) if (deltas[field]) changes[field] = $add(deltas[field] ?? 0);
  return changes;
}

/** `deltas` added to a workspace's day in a shard; undefined when every delta is 0. */
export function dayUsageUpdate(
  orgId: string,
  shard: number,
  day: string,
  workspaceId: string,
  deltas: Partial<Record<UsageField, number>>,
) {
  if (!USAGE_FIELDS.some((field) => deltas[field])) return undefined;
  return updateOf(
    dayUsageEntity.build(UpdateItemCommand).item(dayUsageChanges(dayUsageKey(orgId, shard, day, workspaceId), workspaceId, deltas)),
  );
}

/** The same, into shard 0, counting `source` once (migrations/005). */
export function foldedDayUsageUpdate(
  orgId: string,
  day: string,
  workspaceId: string,
  deltas: Partial<Record<UsageField, number>>,
  source: string,
) {
  const changes = { ...dayUsageChanges(dayUsageKey(orgId, 0, day, workspaceId), workspaceId, deltas), folded: $add(new Set([source])) };
  return updateOf(
    dayUsageEntity
      .build(UpdateItemCommand)
      .item(changes)
      .options({ condition: foldedOnce(source) }),
  );
}

// --- Day items of before, which migrations/005 rewrites ---
// A query wrote two: the workspace's own (`WSSTAT#<org>#<ws>` / `DAY#<day>`, every usage field) and
// a copy of its queries and cost in its organisation's (`ORGTODAY#<org>#<shard>` / `DAY#<day>#WS#<ws>`).

/** The keys of a day item of before, for the scan that finds them. */
const dayOfBeforeEntity = tableEntity('day-usage-of-before', {});

/** A workspace's own day item of before: its organisation, workspace and day (undefined for the organisation's copy). */
export function workspaceDayOfBefore(key: Key): { orgId: string; workspaceId: string; day: string } | undefined {
  const [prefix, orgId, workspaceId] = key.pk.split('#');
  const day = /^DAY#(\d{4}-\d{2}-\d{2})$/.exec(key.sk)?.[1];
  return prefix === 'WSSTAT' && orgId && workspaceId && day ? { orgId, workspaceId, day } : undefined;
}

// --- Access patterns ---

/** Every counter item of the workspace, every month: one Query per shard. */
export const counterShardsOf = (orgId: string, workspaceId: string): QueryInput[] =>
  Array.from({ length: COUNTER_SHARDS }, (_, shard) => ({ pk: counterPartition(orgId, workspaceId, shard) }));

/** The usage of every workspace of the organisation from `firstDay` to `lastDay` (both included) in one shard. */
export const dayUsageBetween = (orgId: string, shard: number, firstDay: string, lastDay: string): QueryInput => ({
  pk: dayUsagePartition(orgId, shard),
  // `~` sorts after every character of a workspace id.
  sk: { between: [dayUsagePrefix(firstDay), `${dayUsagePrefix(lastDay)}~`] },
});

/** Every day item of before, of either kind (migrations/005's scan: `workspaceDayOfBefore` tells them apart). */
export const daysOfBefore = () =>
  conditionOf(dayOfBeforeEntity, {
    and: [
      {
        or: [
          { attr: 'pk', beginsWith: 'WSSTAT#' },
          { attr: 'pk', beginsWith: 'ORGTODAY#' },
        ],
      },
      { attr: 'sk', beginsWith: 'DAY#' },
    ],
  });
