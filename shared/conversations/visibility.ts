import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import type { Principal } from '../auth/index.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import type { Store } from '../platform/store.js';
import { userTeamIds } from '../org/index.js';
import { conversationVisibilityOf, type WorkspaceItem } from '../workspaces/index.js';
import type { conversationEntity } from './entities.js';
import { ownerOf } from './owners.js';

/*
 * Conversations are private to their starter (docs/api-decisions.md). A member lists, reads, rates
 * and closes only the conversations they started: the conversation's `user_id`, the person who
 * asked its first question (from the console or the API, or through a linked team-chat account).
 * Admins read all of them, as the audit needs. An api key reads its own consumer's. A workspace
 * set to `conversations_visible_to: "team"` lets every member of its team read them all; closing
 * stays the starter's (or an admin's). Another's conversation is 404, as a missing one.
 */

/** Which of a workspace's conversations a caller reaches. */
export type ConversationScope =
  | { kind: 'all' }
  /** An api key: its consumer's (`owner`). */
  | { kind: 'consumer'; owner: string }
  /** A member: the ones they started (`user_id`). */
  | { kind: 'starter'; userId: string };

const ALL: ConversationScope = { kind: 'all' };

/** Whom a caller may close conversations of: an admin any; a member those they started; a key its consumer's. */
export function closeScope(principal: Principal): ConversationScope {
  if (principal.apiKey) return { kind: 'consumer', owner: ownerOf(principal) };
  return principal.role === 'admin' ? ALL : { kind: 'starter', userId: principal.userId };
}

/**
 * Which conversations of `workspace` a caller reads: as it closes, and also every one for a member
 * of the workspace's team when the workspace is set to `team` (one Query of their teams, then).
 */
export async function readScope(deps: Store, principal: Principal, workspace: WorkspaceItem): Promise<ConversationScope> {
  const own = closeScope(principal);
  if (own.kind !== 'starter' || conversationVisibilityOf(workspace) !== 'team') return own;
  const teams = await userTeamIds(deps, principal.orgId, principal.userId);
  return teams.includes(workspace.team_id) ? ALL : own;
}

/** Whether a conversation item (its `owner` and `user_id`) is in the scope. */
export function inScope(scope: ConversationScope, item: object): boolean {
  const { owner, user_id } = item as { owner?: unknown; user_id?: unknown };
  if (scope.kind === 'consumer') return owner === scope.owner;
  if (scope.kind === 'starter') return user_id === scope.userId;
  return true;
}

/** The condition a listing's Queries filter on to hold only the scope's conversations (none for all). */
export function scopeFilter(scope: ConversationScope): Condition<typeof conversationEntity>[] {
  if (scope.kind === 'consumer') return [{ attr: 'owner', eq: scope.owner }];
  if (scope.kind === 'starter') return [{ attr: 'user_id', eq: scope.userId }];
  return [];
}

/** A conversation the caller does not read: 404, the same as one that does not exist. */
export const conversationNotFound = (conversationId: string) => new NotFoundError(`conversation ${conversationId} not found`);

/** The caller reads the conversation but may not close it (a member of the team, another's). */
export const notTheStarter = () => new ForbiddenError('only the person who started this conversation, or an admin, may close it');
