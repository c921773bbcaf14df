import { everyConversationWithoutStarter, everyThreadWithoutStarter, starterUpdate } from '../shared/conversations/entities.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { conditionHeld } from '../shared/platform/table.js';
import { activityShards, everyEntryOfAPerson } from '../shared/workspaces/entities.js';

/*
 * 010: every conversation names its starter (`user_id`), whom it is private to
 * (conversations/visibility.ts), so readers decide by that one attribute.
 * - One a signed-in person started (owner `user:<id>`) is theirs.
 * - A team-chat thread (owner `team-chat:<workspace>`) is the person's who asked its first question
 *   through a linked chat account: the `user_id` of its earliest audit entry. A thread whose first
 *   question came from an unlinked chat account, and a key's conversation, have no starter: they
 *   stay readable by admins (and a key's by its key), as this version would write them.
 * The threads without a starter are gathered first, then their audit entries (both `scanWhole`: a
 * run that goes on reads them again), so what is held is one starter per such thread, not one per
 * conversation; then each conversation without one is given its own, on the condition that it
 * still has none.
 */

/** A conversation as its own across organisations and workspaces (a thread's id is its channel and thread: not unique alone). */
const conversationOf = (item: Record<string, unknown>) => `${String(item.org_id)}#${String(item.workspace_id)}#${String(item.id)}`;

/**
 * The starter of each team-chat thread without one that has audit entries of a person: the user of
 * its earliest entry. An entry is matched to its thread by its audit log's partition (one of the
 * thread's workspace's shards) and its `conversation_id`.
 */
async function startersByConversation(context: MigrationContext): Promise<Map<string, string>> {
  const threadOfEntry = new Map<string, string>();
  for await (const thread of context.scanWhole(everyThreadWithoutStarter())) {
    for (const partition of activityShards(String(thread.org_id), String(thread.workspace_id))) {
      threadOfEntry.set(`${partition} ${String(thread.id)}`, conversationOf(thread));
    }
  }
  if (!threadOfEntry.size) return new Map();
  const earliest = new Map<string, { at: string; userId: string }>();
  for await (const entry of context.scanWhole(everyEntryOfAPerson())) {
    const thread = threadOfEntry.get(`${entry.pk} ${String(entry.conversation_id)}`);
    const { user_id: userId, created_at: at } = entry;
    if (!thread || typeof userId !== 'string' || typeof at !== 'string') continue;
    const known = earliest.get(thread);
    if (!known || at < known.at) earliest.set(thread, { at, userId });
  }
  return new Map([...earliest].map(([thread, { userId }]) => [thread, userId]));
}

/** Whom a conversation item was started by, or undefined when it has no person as starter. */
function starterOf(item: Record<string, unknown>, fromAudit: Map<string, string>): string | undefined {
  const owner = typeof item.owner === 'string' ? item.owner : '';
  if (owner.startsWith('user:')) return owner.slice('user:'.length);
  return owner.startsWith('team-chat:') ? fromAudit.get(conversationOf(item)) : undefined;
}

async function nameStarters(context: MigrationContext): Promise<void> {
  const fromAudit = await startersByConversation(context);
  for await (const item of context.scan('conversations', everyConversationWithoutStarter())) {
    const userId = starterOf(item, fromAudit);
    if (!userId) continue;
    const { key, input } = starterUpdate({ pk: item.pk, sk: item.sk }, userId);
    if (await conditionHeld(context.table.update(key, input))) context.moved();
  }
}

export const conversationStarters: Migration = {
  version: 10,
  name: 'every conversation names its starter, whom it is private to',
  run: nameStarters,
};
