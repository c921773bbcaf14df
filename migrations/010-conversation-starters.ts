import { everyConversationWithoutStarter, starterUpdate } from '../shared/conversations/entities.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { conditionHeld } from '../shared/platform/table.js';
import { everyEntryOfAPerson } from '../shared/workspaces/entities.js';

/*
 * 010: every conversation names its starter (`user_id`), whom it is private to
 * (conversations/visibility.ts), so readers decide by that one attribute.
 * - One a signed-in person started (owner `user:<id>`) is theirs.
 * - A team-chat thread (owner `team-chat:<workspace>`) is the person's who asked its first question
 *   through a linked chat account: the `user_id` of its earliest audit entry. A thread whose first
 *   question came from an unlinked chat account, and a key's conversation, have no starter: they
 *   stay readable by admins (and a key's by its key), as this version would write them.
 * The audit entries are gathered first (`scanWhole`: a run that goes on reads them again), one
 * starter per conversation; then each conversation without one is given its own, on the condition
 * that it still has none.
 */

/** The starter of each conversation that has audit entries of a person: the user of its earliest entry. */
async function startersByConversation(context: MigrationContext): Promise<Map<string, string>> {
  const earliest = new Map<string, { at: string; userId: string }>();
  for await (const entry of context.scanWhole(everyEntryOfAPerson())) {
    const { conversation_id: conversationId, user_id: userId, created_at: at } = entry;
    if (typeof conversationId !== 'string' || typeof userId !== 'string' || typeof at !== 'string') continue;
    const known = earliest.get(conversationId);
    if (!known || at < known.at) earliest.set(conversationId, { at, userId });
  }
  return new Map([...earliest].map(([conversationId, { userId }]) => [conversationId, userId]));
}

/** Whom a conversation item was started by, or undefined when it has no person as starter. */
function starterOf(item: Record<string, unknown>, fromAudit: Map<string, string>): string | undefined {
  const owner = typeof item.owner === 'string' ? item.owner : '';
  if (owner.startsWith('user:')) return owner.slice('user:'.length);
  return owner.startsWith('team-chat:') && typeof item.id === 'string' ? fromAudit.get(item.id) : undefined;
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
