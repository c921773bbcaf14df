import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { getOrganisationItem, isActive, type UserItem, userKey } from '../org/index.js';
import { ForbiddenError, GoneError, NotFoundError } from '../platform/errors.js';
import type { Store } from '../platform/store.js';
import { unlessConditionFailed } from '../platform/table.js';
import type { ChatLink, ChatLinkRequest } from './schemas.js';
import { tokenHash } from '../platform/compare.js';
import {
  type ChatLinkItem,
  chatLinkKey,
  chatLinkRequestKey,
  chatLinksOfOrganisation,
  type LinkRequestItem,
  linkRequestUse,
} from './entities.js';

/*
 * Chat identity by an explicit link (docs/team-chat.md, "Who you are in chat"). A chat user acts as
 * a user of the service only once linked: the bot sends them a one-time link, they open it signed in
 * to the console and confirm. Approval buttons and per-user grants in chat go by the link, never by
 * a matching e-mail address (anyone can put any address in a chat profile).
 */

/** How long a link the bot sends works. */
export const LINK_REQUEST_MINUTES = 30;

const UNKNOWN_REQUEST = 'this chat link is unknown or has expired (links work for 30 minutes): ask the bot again for a new one';
const USED_REQUEST = 'this chat link was already used: each link works once; ask the bot again for a new one';

/** A chat account of the organisation's chat team, as the bridge saw it. */
export interface ChatAccount {
  teamId: string;
  teamName: string;
  userId: string;
  userName: string;
}

/** Who acts in the console: the signed-in user. */
type Member = Pick<Principal, 'userId' | 'orgId' | 'role' | 'name'>;

/** `T0123-U0456`: the chat team and user, which is what a link is keyed by. */
const linkIdOf = (item: Pick<ChatLinkItem, 'chat_team_id' | 'chat_user_id'>) => `${item.chat_team_id}-${item.chat_user_id}`;

function toChatLink(item: ChatLinkItem): ChatLink {
  return {
    id: linkIdOf(item),
    chat_team_id: item.chat_team_id,
    chat_team_name: item.chat_team_name,
    chat_user_id: item.chat_user_id,
    chat_user_name: item.chat_user_name,
    user_id: item.user_id,
    user_name: item.user_name,
    created_at: item.created_at,
  };
}

/**
 * A request to link this chat account, for the bot to send only to its chat user: answers the
 * one-time token of the console link. Only its SHA-256 is stored; it works once, for 30 minutes.
 */
export async function requestChatLink(deps: Store, orgId: string, account: ChatAccount): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + LINK_REQUEST_MINUTES * 60_000);
  const item: LinkRequestItem = {
    ...chatLinkRequestKey(tokenHash(token)),
    org_id: orgId,
    chat_team_id: account.teamId,
    chat_team_name: account.teamName,
    chat_user_id: account.userId,
    chat_user_name: account.userName,
    created_at: now.toISOString(),
    expires_at: expires.toISOString(),
    ttl: Math.floor(expires.getTime() / 1000),
  };
  await deps.table.put(item);
  return token;
}

/**
 * The request of a token, for a user of its organisation: 404 when unknown, expired (an item past
 * its TTL reads as absent) or another organisation's; 410 when it was used already.
 */
async function requestOf(deps: Store, member: Member, token: string): Promise<LinkRequestItem> {
  const item = await deps.table.get<LinkRequestItem>(chatLinkRequestKey(tokenHash(token)), true);
  if (!item || item.org_id !== member.orgId) throw new NotFoundError(UNKNOWN_REQUEST);
  if (item.used_at) throw new GoneError(USED_REQUEST);
  return item;
}

/** `GET /api/chat/link-requests/:token`: what confirming would link, without using the link up. */
export async function showLinkRequest(deps: Deps, member: Member, token: string): Promise<ChatLinkRequest> {
  const item = await requestOf(deps, member, token);
  const org = await getOrganisationItem(deps, member.orgId);
  return {
    chat_team_id: item.chat_team_id,
    chat_team_name: item.chat_team_name,
    chat_user_id: item.chat_user_id,
    chat_user_name: item.chat_user_name,
    org_id: org.id,
    org_name: org.name,
    expires_at: item.expires_at,
  };
}

/**
 * `POST /api/chat/link-requests/:token`: the signed-in user becomes the linked user of that chat
 * account (replacing an earlier link of it). The request is used up by a conditional write, so of
 * two confirmations exactly one links.
 */
export async function confirmLinkRequest(deps: Store, member: Member, token: string): Promise<ChatLink> {
  const item = await requestOf(deps, member, token);
  const now = deps.clock.now().toISOString();
  const { key, input } = linkRequestUse(tokenHash(token), member.userId, now);
  const claimed = await unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
  if (!claimed) {
    // Used a moment before, or expired meanwhile: say which.
    await requestOf(deps, member, token);
    throw new NotFoundError(UNKNOWN_REQUEST);
  }
  const link: ChatLinkItem = {
    ...chatLinkKey(member.orgId, item.chat_team_id, item.chat_user_id),
    org_id: member.orgId,
    chat_team_id: item.chat_team_id,
    chat_team_name: item.chat_team_name,
    chat_user_id: item.chat_user_id,
    chat_user_name: item.chat_user_name,
    user_id: member.userId,
    user_name: member.name,
    created_at: now,
  };
  await deps.table.put(link);
  return toChatLink(link);
}

/** `GET /api/chat/links`: the signed-in user's links; with `scope=org`, every link of the organisation (admins). */
export async function listChatLinks(deps: Store, member: Member, scope: 'mine' | 'org' = 'mine'): Promise<ChatLink[]> {
  if (scope === 'org' && member.role !== 'admin') throw new ForbiddenError("only an admin lists the organisation's chat links");
  const items = await deps.table.queryAll<ChatLinkItem>(chatLinksOfOrganisation(member.orgId));
  return items.filter((item) => scope === 'org' || item.user_id === member.userId).map(toChatLink);
}

/** `DELETE /api/chat/links/:link_id`: unlinks a chat account; its user's own, or any for an admin (404 otherwise). */
export async function unlinkChatAccount(deps: Store, member: Member, linkId: string): Promise<void> {
  const [teamId = '', chatUserId = ''] = linkId.split('-');
  const key = chatLinkKey(member.orgId, teamId, chatUserId);
  const item = await deps.table.get<ChatLinkItem>(key, true);
  if (!item || (item.user_id !== member.userId && member.role !== 'admin')) throw new NotFoundError(`chat link ${linkId} not found`);
  await deps.table.delete(key);
}

/**
 * Who a chat account acts as, read afresh: the user of the service it is linked to while they are
 * an active user of the organisation (with their role now), `deactivated` while the organisation
 * has deactivated them (the link stays, acting as nobody, and works again if they are reactivated),
 * undefined when it is not linked or its user was removed.
 */
export async function linkedUserOf(
  deps: Store,
  orgId: string,
  teamId: string,
  chatUserId: string,
): Promise<{ user: UserItem } | 'deactivated' | undefined> {
  const link = await deps.table.get<ChatLinkItem>(chatLinkKey(orgId, teamId, chatUserId), true);
  if (!link) return undefined;
  const user = await deps.table.get<UserItem>(userKey(orgId, link.user_id), true);
  if (!user) return undefined;
  return isActive(user) ? { user } : 'deactivated';
}

/** Deletes every chat link of a user (they were removed from the organisation). */
export async function deleteChatLinksOf(deps: Store, orgId: string, userId: string): Promise<void> {
  const items = await deps.table.queryAll<ChatLinkItem>(chatLinksOfOrganisation(orgId));
  const theirs = items.filter((item) => item.user_id === userId);
  await Promise.all(theirs.map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
}
