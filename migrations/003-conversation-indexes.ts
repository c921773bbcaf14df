import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import { closesEntryIn, everyConversation, listingEntry, pendingEntryIn } from '../shared/conversations/entities.js';
import { type Migration, rewriteAsRead } from '../shared/platform/migrations.js';
import { indexAttributes, type Key } from '../shared/platform/table.js';
import { tableEntity, updateOf } from '../shared/platform/updates.js';

/*
 * 003: conversations' index entries and marks, in the shape this version writes and reads.
 * - Listed in `listings` under the shard its id picks, by its last activity alone: one written
 *   before the list had shards is in shard 0 (the unsharded key), and one older still has
 *   `<last activity>#<id>` as its sort key.
 * - In no by-status list: the lists of before, in `lookups` (`WSCONV#<org>#<ws>#<status>`, and
 *   their shards), are taken out of.
 * - Waiting for its next timed move in the index of its status, at its due time: an open
 *   conversation in `pending`, a cold one in `closes`. Their entries of before move there: an open
 *   one's in `closes` (before `pending` was), and either's in `approvalExpiries` (`DUE#<status>#…`,
 *   before `closes` had a projection of its own; approvals' entries stay). A moved entry goes to
 *   shard 0, which every count of shards has (`DUE_INDEX_SHARDS`: the deploy's migration does not
 *   know it); the conversation's next move or question puts it in its own.
 * - Marked by a timed move in the short form (`<move>@<last activity>`, lifecycle.ts `movedBy`),
 *   not by the move's job id.
 * Each write is conditional on the conversation being as read (status, last activity, due time,
 * mark); one that changed meanwhile is read again.
 */

const [LISTED_PK, LISTED_SK] = indexAttributes('listings');
const [BY_STATUS_PK, BY_STATUS_SK] = indexAttributes('lookups');
const [DUE_BEFORE_PK, DUE_BEFORE_SK] = indexAttributes('approvalExpiries');
const [CLOSES_PK, CLOSES_SK] = indexAttributes('closes');
const [PENDING_PK, PENDING_SK] = indexAttributes('pending');

const entryKey = () => string().optional();

/** The conversation item as versions before wrote it: what this migration reads, rewrites or takes out. */
const conversationOfBefore = tableEntity('conversation-of-before', {
  status: string().optional(),
  last_activity_at: string().optional(),
  due_at: string().optional(),
  moved_by: string().optional(),
  [LISTED_PK]: entryKey(),
  [LISTED_SK]: entryKey(),
  [BY_STATUS_PK]: entryKey(),
  [BY_STATUS_SK]: entryKey(),
  [DUE_BEFORE_PK]: entryKey(),
  [DUE_BEFORE_SK]: entryKey(),
  [CLOSES_PK]: entryKey(),
  [CLOSES_SK]: entryKey(),
  [PENDING_PK]: entryKey(),
  [PENDING_SK]: entryKey(),
});

/** What the migration reads of a conversation item. */
interface StoredConversation extends Key {
  id?: unknown;
  org_id?: unknown;
  workspace_id?: unknown;
  status?: unknown;
  last_activity_at?: unknown;
  due_at?: unknown;
  moved_by?: unknown;
  [attribute: string]: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Its entry in `listings` as this version writes it, when it stands elsewhere (one not listed stays so). */
function listing(item: StoredConversation, orgId: string, workspaceId: string, id: string, lastActivityAt: string) {
  const entry = listingEntry(orgId, workspaceId, id, lastActivityAt);
  const listed = item[LISTED_PK] !== undefined;
  return !listed || (item[LISTED_PK] === entry[LISTED_PK] && item[LISTED_SK] === entry[LISTED_SK]) ? {} : entry;
}

/** Out of the by-status lists of before. */
function byStatus(item: StoredConversation) {
  return item[BY_STATUS_PK] === undefined && item[BY_STATUS_SK] === undefined
    ? {}
    : { [BY_STATUS_PK]: $remove(), [BY_STATUS_SK]: $remove() };
}

/**
 * Its due entry of before moved to the index of its status: an open conversation's out of
 * `closes` and `approvalExpiries`, a cold one's out of `approvalExpiries`, into `pending` or
 * `closes` at its due time (unless it has an entry there already).
 */
function dueEntry(item: StoredConversation) {
  const status = text(item.status);
  const dueAt = text(item.due_at);
  const openInCloses = status === 'open' && item[CLOSES_PK] !== undefined;
  const before = item[DUE_BEFORE_PK] !== undefined;
  if (!openInCloses && !before) return {};
  const out = {
    ...(before ? { [DUE_BEFORE_PK]: $remove(), [DUE_BEFORE_SK]: $remove() } : {}),
    ...(openInCloses ? { [CLOSES_PK]: $remove(), [CLOSES_SK]: $remove() } : {}),
  };
  if (status === 'open' && dueAt && item[PENDING_PK] === undefined) return { ...out, ...pendingEntryIn('open', 0, dueAt) };
  if (status === 'cold' && dueAt && item[CLOSES_PK] === undefined) return { ...out, ...closesEntryIn(0, dueAt) };
  return out;
}

/** The short form of a mark written as the move's job id (`lifecycle-<move>-<org>-<ws>-<id>-<last activity>`). */
function shortMark(item: StoredConversation, orgId: string, workspaceId: string, id: string) {
  const mark = text(item.moved_by);
  for (const move of ['cold', 'close']) {
    const jobPrefix = `lifecycle-${move}-${orgId}-${workspaceId}-${id}-`;
    if (mark?.startsWith(jobPrefix)) return { moved_by: `${move}@${mark.slice(jobPrefix.length)}` };
  }
  return {};
}

/** The rewrite of a conversation item, conditioned on it being as read; undefined when it is in this version's shape already. */
function rewriteOf(item: StoredConversation) {
  const [id, orgId, workspaceId, lastActivityAt] = [item.id, item.org_id, item.workspace_id, item.last_activity_at].map(text);
  // No version wrote a conversation without these: not one of ours to rewrite.
  if (!id || !orgId || !workspaceId || !lastActivityAt) return undefined;
  const changes = {
    ...listing(item, orgId, workspaceId, id, lastActivityAt),
    ...byStatus(item),
    ...dueEntry(item),
    ...shortMark(item, orgId, workspaceId, id),
  };
  if (!Object.keys(changes).length) return undefined;
  const read = (value: unknown) => (text(value) === undefined ? ({ exists: false } as const) : { eq: String(value) });
  const asRead: Condition<typeof conversationOfBefore> = {
    and: [
      { attr: 'last_activity_at', eq: lastActivityAt },
      { attr: 'status', ...read(item.status) },
      { attr: 'due_at', ...read(item.due_at) },
      { attr: 'moved_by', ...read(item.moved_by) },
    ],
  };
  const command = conversationOfBefore
    .build(UpdateItemCommand)
    .item({ pk: item.pk, sk: item.sk, ...changes })
    .options({ condition: asRead });
  return updateOf(command);
}

export const conversationIndexes: Migration = {
  version: 3,
  name: "conversations' index entries and marks in this version's shape",
  async run(context) {
    for await (const found of context.scan('conversations', everyConversation())) {
      if ((await rewriteAsRead(context.table, found, rewriteOf)) === 'moved') context.moved();
    }
  },
};
