import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { ForbiddenError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { conversationKey, starterChange } from './entities.js';
import { toConversation } from './list.js';
import type { Conversation, ConversationChange } from './schemas.js';
import { conversationNotFound, inScope, readScope } from './visibility.js';

/*
 * A person's chat history (docs/api-decisions.md, "Chat history"): the conversations they started,
 * listed with `mine=true`, which they rename, pin, and delete from their history. These are the
 * starter's own: another who reads the conversation (an admin, a member of a team it is shared
 * with) may not change it (403); one who does not read it gets 404, as for a missing one. A
 * conversation deleted from its starter's history stays stored and audited: admins list and open
 * it, and a link to it still opens it.
 */

const notTheStartersToChange = () =>
  new ForbiddenError('only the person who started this conversation may rename, pin or delete it from their history');

/**
 * Writes its starter's change of a conversation, on condition that the caller started it; on a
 * refusal, tells 404 (the caller does not read it) from 403 (they read it but did not start it).
 */
async function changeAsStarter(
  deps: Deps,
  viewer: Principal,
  workspaceId: string,
  conversationId: string,
  change: Parameters<typeof starterChange>[2],
): Promise<Conversation> {
  const key = conversationKey(viewer.orgId, workspaceId, conversationId);
  const write = starterChange(key, viewer.apiKey ? '' : viewer.userId, change);
  const changed = await unlessConditionFailed(deps.table.update(write.key, write.input), undefined);
  if (!changed) {
    const [workspace, item] = await Promise.all([getWorkspaceItem(deps, viewer.orgId, workspaceId), deps.table.get(key, true)]);
    if (!item || !inScope(await readScope(deps, viewer, workspace), item)) throw conversationNotFound(conversationId);
    throw notTheStartersToChange();
  }
  return toConversation(changed);
}

/** `PATCH …/conversations/:cid`: its starter renames or pins (or unpins) it. */
export function changeConversation(deps: Deps, viewer: Principal, workspaceId: string, conversationId: string, change: ConversationChange) {
  return changeAsStarter(deps, viewer, workspaceId, conversationId, change);
}

/** `DELETE …/conversations/:cid`: its starter deletes it from their chat history (it stays stored and audited). */
export async function hideConversation(deps: Deps, viewer: Principal, workspaceId: string, conversationId: string): Promise<void> {
  await changeAsStarter(deps, viewer, workspaceId, conversationId, { hidden_at: deps.clock.now().toISOString(), pinned: false });
}
