import { $add, $get, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { any } from 'dynamodb-toolbox/schema/any';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { list } from 'dynamodb-toolbox/schema/list';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { record } from 'dynamodb-toolbox/schema/record';
import { string } from 'dynamodb-toolbox/schema/string';
import { shardKey, shardKeys } from '../platform/list-shards.js';
import { indexEntry, indexSchema, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, outOf, tableEntity, updateOf } from '../platform/updates.js';
import { keys } from '../platform/keys.js';

/*
 * The workspace's items (docs/data-model.md): the workspace item, which heads the workspace's
 * partition (`WS#<org>#<ws>`, where its connections, tools, knowledge, guardrails and consumers
 * follow it, so one Query reads them all), and the partitions of its own that grow without bound:
 * its audit log and its prompt cache warnings. Its counters and day usage: usage-entities.ts.
 */

/** The workspace's partition: the workspace item, then its configuration children. */
export const workspacePartition = (orgId: string, workspaceId: string) => `WS#${orgId}#${workspaceId}`;

/** The sort key of the workspace item, telling it from its children. */
const WORKSPACE_SORT_KEY = 'META';

/** The workspace item; its conditional put claims the id within the organisation. */
export const workspaceKey = (orgId: string, workspaceId: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: WORKSPACE_SORT_KEY,
});

/** Whether an item of the workspace's partition is the workspace item itself. */
export const isWorkspaceItem = (item: { sk: string }) => item.sk === WORKSPACE_SORT_KEY;

/** The listings partition of an organisation's workspaces, oldest first. */
const workspacesListing = (orgId: string) => `ORG#${orgId}#WS`;

/** The workspace's entry in its organisation's listing. */
export const workspaceListing = (orgId: string, createdAt: string, workspaceId: string) =>
  indexEntry('listings', workspacesListing(orgId), keys.timeOrdered(createdAt, workspaceId));

const WORKSPACE_STATUSES = ['active', 'archived', 'deleted'] as const;
const count = number().optional();

/** The attributes of the workspace item that its writes touch (its creation is a put of the whole item). */
const workspaceEntity = tableEntity('workspace', {
  org_id: string(),
  status: string().enum(...WORKSPACE_STATUSES),
  name: string().optional(),
  model: string().optional(),
  system_prompt: string().optional(),
  cold_timeout_minutes: number().optional(),
  close_timeout_minutes: number().optional(),
  max_tool_rounds: number().optional(),
  max_tokens_per_query: anyOf(nul(), number()).optional(),
  tool_timeout_seconds: anyOf(nul(), number()).optional(),
  tool_budget_seconds: number().optional(),
  /** The approval and tool search settings, each written whole. */
  approval: any().optional(),
  tool_search: any().optional(),
  conversations_visible_to: string().enum('starter', 'team').optional(),
  /** Role → JSON-encoded array of tool-name globs. */
  permissions: record(string(), string()).optional(),
  updated_at: string().optional(),
  archived_at: string().optional(),
  deleted_at: string().optional(),
  cleared_at: string().optional(),
  connection_count: count,
  tool_count: count,
  knowledge_count: count,
  guardrail_count: count,
  /** Compiled steps of the enabled pattern guardrails (guardrails/guardrails.ts). */
  pattern_steps: count,
  // Its entry in the listings index (`workspaceListing`), taken out when it is deleted.
  ...indexSchema('listings', string().optional()),
});

/** A workspace of `orgId` that is not deleted: what a change of its settings or status needs. */
const liveWorkspaceOf = (orgId: string): Condition<typeof workspaceEntity> => ({
  and: [
    { attr: 'pk', exists: true },
    { attr: 'org_id', eq: orgId },
    { attr: 'status', ne: 'deleted' },
  ],
});

/** The settings `PUT /api/workspaces/:id` may change. */
export interface WorkspaceSettings {
  name?: string;
  model?: string;
  system_prompt?: string;
  cold_timeout_minutes?: number;
  close_timeout_minutes?: number;
  max_tool_rounds?: number;
  max_tokens_per_query?: number | null;
  tool_timeout_seconds?: number | null;
  tool_budget_seconds?: number;
  approval?: object;
  tool_search?: object;
  conversations_visible_to?: 'starter' | 'team';
}

/** The settings given (each replacing what was), on condition the workspace is the organisation's and live. */
export function workspaceSettingsUpdate(orgId: string, workspaceId: string, settings: WorkspaceSettings, at: string) {
  const { approval, tool_search, ...plain } = settings;
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({
      ...workspaceKey(orgId, workspaceId),
      ...plain,
      ...(approval !== undefined ? { approval: $set(approval) } : {}),
      ...(tool_search !== undefined ? { tool_search: $set(tool_search) } : {}),
      updated_at: at,
    })
    .options({ condition: liveWorkspaceOf(orgId) });
  return updateOf(command);
}

/** One role's tool-name globs (JSON-encoded), on the same condition. */
export function permissionUpdate(orgId: string, workspaceId: string, role: string, patterns: string, at: string) {
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({ ...workspaceKey(orgId, workspaceId), permissions: { [role]: patterns }, updated_at: at })
    .options({ condition: liveWorkspaceOf(orgId) });
  return updateOf(command);
}

/** Archived (since `at`) or active again, on the same condition. */
export function workspaceStatusUpdate(orgId: string, workspaceId: string, status: 'active' | 'archived', at: string) {
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({ ...workspaceKey(orgId, workspaceId), status, updated_at: at, archived_at: status === 'archived' ? at : $remove() })
    .options({ condition: liveWorkspaceOf(orgId) });
  return updateOf(command);
}

/**
 * The first step of a deletion: `deleted` (since the first try), out of the listings index; on
 * condition the workspace is the organisation's and not yet cleared (a delete asked again goes on).
 */
export function workspaceDeletionUpdate(orgId: string, workspaceId: string, at: string) {
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({
      ...workspaceKey(orgId, workspaceId),
      status: 'deleted',
      deleted_at: $get('deleted_at', at),
      ...outOf('listings'),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'org_id', eq: orgId },
          { attr: 'cleared_at', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/** The counts of the workspace's configuration, on its item (they change when it does). */
export type ConfigCount = 'connection_count' | 'tool_count' | 'knowledge_count' | 'guardrail_count';
export const CONFIG_COUNTS: readonly ConfigCount[] = ['connection_count', 'tool_count', 'knowledge_count', 'guardrail_count'];

/** The configuration counts moved by `deltas` (on condition the workspace exists); undefined when none moves. */
export function configCountsUpdate(orgId: string, workspaceId: string, deltas: Partial<Record<ConfigCount, number>>) {
  const moved = CONFIG_COUNTS.filter((name) => deltas[name]);
  if (!moved.length) return undefined;
  const changes = Object.fromEntries(moved.map((name) => [name, $add(deltas[name] ?? 0)]));
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({ ...workspaceKey(orgId, workspaceId), ...changes })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/**
 * The workspace's pattern steps moved by `delta`, on condition it exists and, when they grow, that
 * they stay within `limit` (none counted yet is room).
 */
export function patternStepsUpdate(orgId: string, workspaceId: string, delta: number, limit: number) {
  const exists: Condition<typeof workspaceEntity> = { attr: 'pk', exists: true };
  const room: Condition<typeof workspaceEntity> = {
    or: [
      { attr: 'pattern_steps', exists: false },
      { attr: 'pattern_steps', lte: limit - delta },
    ],
  };
  const command = workspaceEntity
    .build(UpdateItemCommand)
    .item({ ...workspaceKey(orgId, workspaceId), pattern_steps: $add(delta) })
    .options({ condition: delta < 0 ? exists : { and: [exists, room] } });
  return updateOf(command);
}

/*
 * The audit log: an entry per query (`<created_at>#<id>`, newest first), written by the query
 * across 4 partitions (platform/list-shards.ts: shard 0 is the unsharded key), merged by readers.
 */

/** The audit log's partition before its shard (`shardKeys` makes the 4). */
const activityPartition = (orgId: string, workspaceId: string) => `WSACT#${orgId}#${workspaceId}`;

/** An audit log entry, in one of the log's shards. */
export const activityEntryKey = (orgId: string, workspaceId: string, at: string, activityId: string, shard = 0): Key => ({
  pk: shardKey(activityPartition(orgId, workspaceId), shard),
  sk: keys.timeOrdered(at, activityId),
});

/** The partitions of the audit log, every shard: a reader queries each, newest first, and merges them. */
export const activityShards = (orgId: string, workspaceId: string): string[] => shardKeys(activityPartition(orgId, workspaceId));

/** The attributes of an audit log entry that its list filters on (the query writes the whole entry). */
const activityEntity = tableEntity('activity-entry', {
  /** `tool_call`: a person's call through the MCP gateway (with client, tool, outcome); absent: a query. */
  kind: string().enum('query', 'tool_call').optional(),
  user_id: nullableString.optional(),
  conversation_id: string().optional(),
  created_at: string().optional(),
  tools_called: list(string()).optional(),
  error: nullableString.optional(),
});

/** Every audit log entry of a person of the service (migration 010's scan: who started each conversation). */
export const everyEntryOfAPerson = () =>
  conditionOf(activityEntity, {
    and: [
      { attr: 'pk', beginsWith: 'WSACT#' },
      { attr: 'user_id', type: 'S' },
    ],
  });

/** What the audit log may be filtered on: one user's entries, the entries that called one tool, the failed ones or the others. */
export interface ActivityFilter {
  user?: string;
  tool?: string;
  failed?: boolean;
}

/** The filter expression of an audit log Query (every shard's the same); undefined when nothing is filtered. */
export function activityFilterOf(filter: ActivityFilter): Pick<QueryInput, 'filter' | 'names' | 'values'> | undefined {
  const conditions: Condition<typeof activityEntity>[] = [];
  if (filter.user !== undefined) conditions.push({ attr: 'user_id', eq: filter.user });
  if (filter.tool !== undefined) conditions.push({ attr: 'tools_called', contains: filter.tool });
  // A query that did not fail stores `error: null`.
  if (filter.failed !== undefined) conditions.push(filter.failed ? { attr: 'error', type: 'S' } : { not: { attr: 'error', type: 'S' } });
  const [first, ...more] = conditions;
  if (!first) return undefined;
  const { condition, names, values } = conditionOf(activityEntity, more.length ? { and: conditions } : first);
  return { filter: condition, names, values };
}

/** That a warning of the prompt cache's hit rate on `day` was logged (cache-watch.ts): put once a day, conditionally. */
export const cacheWarningKey = (orgId: string, workspaceId: string, day: string): Key => ({
  pk: `WSSTAT#${orgId}#${workspaceId}`,
  sk: `WARN#${day}`,
});

// --- Access patterns ---

/** An organisation's workspaces (a deleted one has left the index). */
export const workspacesOfOrganisation = (orgId: string): QueryInput => ({ index: 'listings', pk: workspacesListing(orgId) });

/** The workspace item with every configuration child: what a query, a tool search or the detail view reads in one Query. */
export const workspaceWithChildren = (orgId: string, workspaceId: string): QueryInput => ({ pk: workspacePartition(orgId, workspaceId) });

/** Every item of every workspace's partition (migrations/004 looks them over). */
export const workspacePartitionItems = () => conditionOf(workspaceEntity, { attr: 'pk', beginsWith: 'WS#' });

/**
 * A workspace's audit log, newest first: one Query per shard (`activityShards`), merged by the
 * reader (platform/sharded-pages.ts); the list's days and filters are added to each (activity.ts).
 */
export const activityOfWorkspace = (orgId: string, workspaceId: string): QueryInput[] =>
  activityShards(orgId, workspaceId).map((pk) => ({ pk, newestFirst: true }));

/** A workspace's audit entries of the days from `firstDay` to `lastDay` (both included), one Query per shard (a budget's spend before it: budgets/spent-before.ts). */
export const activityOfDays = (orgId: string, workspaceId: string, firstDay: string, lastDay: string): QueryInput[] =>
  activityShards(orgId, workspaceId).map((pk) => ({
    pk,
    // Sort keys are `<ISO instant>#<id>`: every instant of the days lies between these.
    sk: { between: [firstDay, `${lastDay}~`] },
  }));

/**
 * The audit entries of one conversation written since `since` (an ISO instant), read consistently,
 * one Query per shard: a routine's run whose job was retried finds what its query spent (routines/asked-before.ts).
 */
export function activityOfConversationSince(orgId: string, workspaceId: string, conversationId: string, since: string): QueryInput[] {
  const { condition, names, values } = conditionOf(activityEntity, { attr: 'conversation_id', eq: conversationId });
  return activityShards(orgId, workspaceId).map((pk) => ({ pk, sk: { gte: since }, filter: condition, names, values, consistent: true }));
}
