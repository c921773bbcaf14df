import { createHash } from 'node:crypto';
import { $get, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { listShardOf, shardKey, shardKeys } from '../platform/list-shards.js';
import { indexAttributes, indexEntry, indexSchema, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, outOf, tableEntity, updateOf } from '../platform/updates.js';
import { CONSUMER_TYPES } from '../consumers/index.js';
import { CONVERSATION_STATUSES } from './schemas.js';

/*
 * How conversations are stored (docs/data-model.md): the conversation item and its messages in one
 * partition, the ratings of its answers in another; the conversation listed in `listings` by last
 * activity, and waiting for its next timed move in `pending` (open: going cold; closed: its
 * statistics) or `closes` (cold: its close). Each item's keys, index entries, typed schema and
 * the reads that find it are here.
 */

// --- The conversation partition (`CONV#<org>#<workspace>#<conversation>`) ---

const CONVERSATION_PREFIX = 'CONV#';

/**
 * A conversation's partition: its messages `MSG#<seq, 6 digits>` and the conversation item
 * `STATE`, which sorts after them, so one newest-first Query returns the conversation with its
 * latest messages.
 */
export const conversationPartition = (orgId: string, workspaceId: string, conversationId: string) =>
  `${CONVERSATION_PREFIX}${orgId}#${workspaceId}#${conversationId}`;

/** Sort key of the conversation item, telling it from its messages. */
export const CONVERSATION_SORT_KEY = 'STATE';

export const conversationKey = (orgId: string, workspaceId: string, conversationId: string): Key => ({
  pk: conversationPartition(orgId, workspaceId, conversationId),
  sk: CONVERSATION_SORT_KEY,
});

/** Sort-key prefix of the messages in a conversation's partition. */
export const MESSAGE_PREFIX = 'MSG#';

export const messageSortKey = (seq: number) => `${MESSAGE_PREFIX}${String(seq).padStart(6, '0')}`;

/** A message (or a question and its answer stored as one item, under the question's number: messages.ts). */
export const messageKey = (orgId: string, workspaceId: string, conversationId: string, seq: number): Key => ({
  pk: conversationPartition(orgId, workspaceId, conversationId),
  sk: messageSortKey(seq),
});

/**
 * One rater's rating of one answer. Ratings have a partition of their own per conversation, not
 * the conversation's: its newest-first Query (the query's context, limit 41) must meet only
 * messages before the conversation item, and the detail view reads the whole partition.
 */
export const feedbackKey = (orgId: string, workspaceId: string, conversationId: string, seq: number, rater: string): Key => ({
  pk: `FEEDBACK#${orgId}#${workspaceId}#${conversationId}`,
  sk: `${messageSortKey(seq)}#${rater}`,
});

// --- Index entries ---

/** A workspace's conversation list in `listings`: its key before the shards, which is shard 0's (platform/list-shards.ts). */
export const conversationList = (orgId: string, workspaceId: string) => `WSCONV#${orgId}#${workspaceId}`;

/**
 * A conversation's entry in its workspace's list (`listings`), whatever its status: the shard its
 * id picks, sorted by last activity (an index's keys need not be unique; pages go on by the
 * item's own key too).
 */
export function listingEntry(orgId: string, workspaceId: string, conversationId: string, lastActivityAt: string) {
  return indexEntry('listings', shardKey(conversationList(orgId, workspaceId), listShardOf(conversationId)), lastActivityAt);
}

/** What a conversation waits for in the due indexes: its cold move (`open`), its statistics (`stats`) or its close (`cold`). */
type DueList = 'open' | 'stats' | 'cold';

const duePartition = (list: DueList, shard: number) => `DUE#${list}#${shard}`;

/**
 * A conversation's shard of the due indexes (`shards`: `DUE_INDEX_SHARDS`), from its id. On
 * DynamoDB the indexes are partitions every tenant writes: each question moves its conversation's
 * entry (about 2 WCU, docs/capacity.md), so 128 shards keep each under 0.02 WCU per question of
 * the deployment. Locally one store holds them all, and 4 keep the wake-up's reads few.
 */
function dueShardOf(workspaceId: string, conversationId: string, shards: number): number {
  const digest = createHash('sha1').update(`${workspaceId}#${conversationId}`).digest();
  return digest.readUInt16BE(0) % shards;
}

/**
 * A conversation's entry in `pending` (the keys and the organisation): open, waiting to go cold
 * (`open`), or closed, waiting for its statistics (`stats`). An open conversation's entry is lazy:
 * its first question puts it, the next ones leave it where it is (`keptPendingEntry`: earlier than
 * the real due time, `due_at`), and the sweep that finds it early moves it (due-sweep.ts).
 */
export function pendingEntry(list: 'open' | 'stats', workspaceId: string, conversationId: string, dueAt: Date, shards: number) {
  return pendingEntryIn(list, dueShardOf(workspaceId, conversationId, shards), dueAt.toISOString());
}

/** A cold conversation's entry in `closes`, which carries what the sweep reads: the due time alone sorts it. */
export function closesEntry(workspaceId: string, conversationId: string, dueAt: Date, shards: number) {
  return closesEntryIn(dueShardOf(workspaceId, conversationId, shards), dueAt.toISOString());
}

/** An entry in `pending` in a given shard (migration 003 puts the entries it moves in shard 0, which every count of shards has). */
export const pendingEntryIn = (list: 'open' | 'stats', shard: number, dueAt: string) =>
  indexEntry('pending', duePartition(list, shard), dueAt);

/** An entry in `closes` in a given shard. */
export const closesEntryIn = (shard: number, dueAt: string) => indexEntry('closes', duePartition('cold', shard), dueAt);

const [PENDING_PARTITION_KEY, PENDING_SORT_KEY] = indexAttributes('pending');

/** A question's write of an open conversation's `pending` entry: where an earlier question put it, if one did. */
export function keptPendingEntry(entry: ReturnType<typeof pendingEntry>) {
  return { [PENDING_SORT_KEY]: $get(PENDING_SORT_KEY, entry[PENDING_SORT_KEY]) };
}

/** Where an item's `pending` entry stands (its sort key there), if it has one. */
export function pendingEntryTime(stored: object | undefined): string | undefined {
  const value = stored ? (stored as Record<string, unknown>)[PENDING_SORT_KEY] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A write's removal of the conversation's entry in `pending` or `closes` (the lifecycle's moves and the statistics job write it). */
export { outOf };

// --- The conversation item ---

/** The attributes of the conversation item (`CONV#…` / `STATE`) that its writes set or their conditions read. */
export const conversationEntity = tableEntity('conversation', {
  id: string(),
  workspace_id: string(),
  org_id: string(),
  status: string().enum(...CONVERSATION_STATUSES),
  consumer_type: string().enum(...CONSUMER_TYPES),
  user_name: string(),
  /** The first question, cut to 120 characters (`title.ts`). */
  title: string().optional(),
  channel: nullableString,
  owner: string().optional(),
  /** Who started it (`agent/query/types.ts` `callerUserId`): its starter, who may read it (`visibility.ts`); absent for a key's. */
  user_id: string().optional(),
  chat_channel_id: string().optional(),
  chat_thread_ts: string().optional(),
  first_message_at: string(),
  last_activity_at: string(),
  message_count: number(),
  total_cost_usd: number(),
  stats_status: string(),
  stats_at: string().optional(),
  sentiment_score: number().optional(),
  resolution_status: string().optional(),
  category: string().optional(),
  summary: string().optional(),
  due_at: string().optional(),
  cold_at: string().optional(),
  closed_at: string().optional(),
  /** Pinned by its starter in their chat history (history.ts). */
  pinned: boolean().optional(),
  /** When its starter deleted it from their chat history (history.ts): kept for the audit, listed for admins. */
  hidden_at: string().optional(),
  /** The timed move that last moved it (`<move>@<last activity>`), or `manual@<time>`: lifecycle.ts. */
  moved_by: string().optional(),
  /** Its entry in `listings` (`listingEntry`). */
  ...indexSchema('listings', string()),
  /** A cold conversation's entry in `closes` (`closesEntry`). */
  ...indexSchema('closes', string().optional()),
  /** An open one's, or a closed one's awaiting its statistics, in `pending` (`pendingEntry`). */
  ...indexSchema('pending', string().optional()),
});

/**
 * The sweep's writes of a conversation's `pending` entry it found due (due-sweep.ts), each
 * conditioned on the entry standing where it was read (`partition`): out of the index…
 */
export const pendingEntryRemoval = (key: Key, partition: string) =>
  updateOf(
    conversationEntity
      .build(UpdateItemCommand)
      .item({ ...key, ...outOf('pending') })
      .options({ condition: { attr: PENDING_PARTITION_KEY, eq: partition } }),
  );

/** …moved on to `at`… */
export const pendingEntryMoved = (key: Key, partition: string, at: string) =>
  updateOf(
    conversationEntity
      .build(UpdateItemCommand)
      .item({ ...key, [PENDING_SORT_KEY]: at })
      .options({ condition: { attr: PENDING_PARTITION_KEY, eq: partition } }),
  );

/** …or moved to the conversation's due time (`dueAt`, as read: a question since moves it again). */
export function pendingEntryMovedToDue(key: Key, partition: string, dueAt: string) {
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({ ...key, [PENDING_SORT_KEY]: $get('due_at') })
    .options({
      condition: {
        and: [
          { attr: PENDING_PARTITION_KEY, eq: partition },
          { attr: 'due_at', eq: dueAt },
        ],
      },
    });
  return updateOf(command);
}

/** A question's bringing of the lazy entry forward to `due`, if it stands later (a shortened cold timeout: agent/query/claim.ts). */
export const pendingEntryBroughtForward = (key: Key, due: string) =>
  updateOf(
    conversationEntity
      .build(UpdateItemCommand)
      .item({ ...key, [PENDING_SORT_KEY]: due })
      .options({ condition: { attr: PENDING_SORT_KEY, gt: due } }),
  );

// --- Messages and ratings ---

/** A message item's rating counters (feedback.ts): its own answer's, or those of the answer it holds beside its question (`answer_`). */
export const messageEntity = tableEntity('message', {
  id: string().optional(),
  feedback_up: number().optional(),
  feedback_down: number().optional(),
  answer_feedback_up: number().optional(),
  answer_feedback_down: number().optional(),
  /** Replaced by a regenerated answer or an edited question (messages.ts `replaceTurn`): kept for the audit, shown to nobody. */
  replaced: boolean().optional(),
});

/** A stored message (or question and answer) marked replaced, while it exists. */
export const messageReplaced = (key: Key) =>
  updateOf(
    messageEntity
      .build(UpdateItemCommand)
      .item({ ...key, replaced: true })
      .options({ condition: { attr: 'pk', exists: true } }),
  );

/** A write of a message only while it is the one with `id` (not replaced by another query's since). */
export const messageIs = (id: string) => conditionOf(messageEntity, { attr: 'id', eq: id });

/** A rater's rating of an answer (`feedbackKey`); the last one counts. */
export const feedbackEntity = tableEntity('feedback', {
  rating: string().enum('up', 'down'),
  comment: string().optional(),
  org_id: string(),
  workspace_id: string(),
  conversation_id: string(),
  seq: number(),
  rater: string(),
  created_at: string(),
  updated_at: string(),
});

/** A conversation's starter, set where it has none yet (migration 010). */
export const starterUpdate = (key: Key, userId: string) =>
  updateOf(
    conversationEntity
      .build(UpdateItemCommand)
      .item({ ...key, user_id: userId })
      .options({
        condition: {
          and: [
            { attr: 'pk', exists: true },
            { attr: 'user_id', exists: false },
          ],
        },
      }),
  );

/**
 * Its starter's change of a conversation in their chat history (history.ts): a title, a pin, or its
 * deletion from the history, while it is theirs (`user_id`).
 */
export const starterChange = (key: Key, userId: string, change: { title?: string; pinned?: boolean; hidden_at?: string }) =>
  updateOf(
    conversationEntity
      .build(UpdateItemCommand)
      .item({ ...key, ...change })
      .options({ condition: { attr: 'user_id', eq: userId } }),
  );

// --- Access patterns ---

/** Every conversation item of the table (migration 003's scan). */
export const everyConversation = () =>
  conditionOf(conversationEntity, {
    and: [
      { attr: 'pk', beginsWith: CONVERSATION_PREFIX },
      { attr: 'sk', eq: CONVERSATION_SORT_KEY },
    ],
  });

/** Every conversation item without its starter (`user_id`): those made before it was kept (migration 010). */
export const everyConversationWithoutStarter = () =>
  conditionOf(conversationEntity, {
    and: [
      { attr: 'pk', beginsWith: CONVERSATION_PREFIX },
      { attr: 'sk', eq: CONVERSATION_SORT_KEY },
      { attr: 'user_id', exists: false },
    ],
  });

/** Every team-chat thread without its starter: those whose starter migration 010 finds in the audit log. */
export const everyThreadWithoutStarter = () =>
  conditionOf(conversationEntity, {
    and: [
      { attr: 'pk', beginsWith: CONVERSATION_PREFIX },
      { attr: 'sk', eq: CONVERSATION_SORT_KEY },
      { attr: 'owner', beginsWith: 'team-chat:' },
      { attr: 'user_id', exists: false },
    ],
  });

/** A conversation with all its messages, read consistently (the detail, the statistics). */
export const conversationWithMessages = (orgId: string, workspaceId: string, conversationId: string): QueryInput => ({
  pk: conversationPartition(orgId, workspaceId, conversationId),
  consistent: true,
});

/** A conversation's item and its latest messages, `limit` items in all, newest first (the query's context). */
export const conversationNewestFirst = (orgId: string, workspaceId: string, conversationId: string, limit: number): QueryInput => ({
  pk: conversationPartition(orgId, workspaceId, conversationId),
  newestFirst: true,
  limit,
});

/**
 * A workspace's conversations by last activity, newest first: one Query per shard of its list
 * (platform/list-shards.ts), merged by the reader (platform/sharded-pages.ts). Every status is
 * there, a status being a filter.
 */
export function conversationsOfWorkspace(orgId: string, workspaceId: string) {
  return shardKeys(conversationList(orgId, workspaceId)).map((pk) => ({ index: 'listings' as const, pk, newestFirst: true }));
}

/** One shard of the conversations waiting in `pending`: open ones for their cold move, closed ones for their statistics. */
export const pendingConversations = (list: 'open' | 'stats', shard: number) => ({
  index: 'pending' as const,
  pk: duePartition(list, shard),
});

/** One shard of the cold conversations waiting in `closes` for their close. */
export const closingConversations = (shard: number) => ({ index: 'closes' as const, pk: duePartition('cold', shard) });
