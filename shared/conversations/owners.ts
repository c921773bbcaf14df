import { createHash } from 'node:crypto';
import type { Principal } from '../auth/index.js';

/**
 * Who may continue a conversation, stored with it as `owner`: a signed-in user (`user:<id>`), a
 * consumer's key (`consumer:<id>`: api, messaging and coding-agent conversations), or the team-chat
 * threads of a workspace (`team-chat:<workspace>`). A `session_id` names a conversation only
 * within its owner's space: someone else's id starts a conversation of the caller's own.
 */
export function ownerOf(principal: Principal): string {
  return principal.apiKey ? `consumer:${principal.apiKey.consumerId}` : `user:${principal.userId}`;
}

export function teamChatOwner(workspaceId: string): string {
  return `team-chat:${workspaceId}`;
}

/** The owner of the conversations a consumer starts: its key's (`consumer:<id>`), or the workspace's team chat (`tc-<workspace>`). */
export function ownerOfConsumer(consumerId: string, workspaceId: string): string {
  return consumerId === `tc-${workspaceId}` ? teamChatOwner(workspaceId) : `consumer:${consumerId}`;
}

/** The consumer whose conversation an owner is, or null (a signed-in user's, or one older than owners). */
export function consumerOfOwner(owner: unknown, workspaceId: string): string | null {
  if (typeof owner !== 'string') return null;
  if (owner.startsWith('consumer:')) return owner.slice('consumer:'.length);
  return owner === teamChatOwner(workspaceId) ? `tc-${workspaceId}` : null;
}

/**
 * The id of the caller's own conversation for a `session_id` that belongs to someone else:
 * deterministic, so the caller's next query with the same `session_id` continues it, and made of
 * the characters a `session_id` allows, so it can also be sent back as one.
 */
export function ownConversationId(sessionId: string, owner: string): string {
  const tag = createHash('sha256')
    .update(owner)
    .digest('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 10);
  return `${sessionId}@${tag}`;
}

/** Whether an id is already the caller's own conversation for some `session_id` (so it is not derived again). */
export function isOwnConversationId(conversationId: string, owner: string): boolean {
  return conversationId.endsWith(ownConversationId('', owner));
}
