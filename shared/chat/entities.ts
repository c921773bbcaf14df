import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../org/index.js';
import { indexEntry, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../platform/updates.js';

/*
 * Team chat's items (docs/data-model.md): channel bindings, the deliveries already handled, chat
 * links (a chat account acting as a user of the organisation) and the one-time requests that make
 * them. The workspace's team-chat consumer is a consumer (consumers/entities.ts).
 */

/** A channel binding (`CHANNEL#<org>#<channel>` / `CHANNEL`): one per organisation and channel, so a channel belongs to one workspace. */
const bindingEntity = tableEntity('channel-binding', {
  org_id: string(),
  channel_id: string(),
  channel_name: nullableString,
  workspace_id: string(),
  workspace_name: string(),
  created_at: string(),
});

export type ChannelBinding = FormattedItem<typeof bindingEntity>;

export const channelBindingKey = (orgId: string, channelId: string): Key => ({ pk: `CHANNEL#${orgId}#${channelId}`, sk: 'CHANNEL' });

const workspaceChannels = (orgId: string, workspaceId: string) => `WSCHANNELS#${orgId}#${workspaceId}`;

/** A binding's entry in its workspace's listing of channels. */
export const channelListing = (orgId: string, workspaceId: string, channelId: string) =>
  indexEntry('listings', workspaceChannels(orgId, workspaceId), channelId);

/** A binding is put only where the channel is free or already this workspace's. */
export const bindingFreeFor = (workspaceId: string) =>
  conditionOf(bindingEntity, {
    or: [
      { attr: 'pk', exists: false },
      { attr: 'workspace_id', eq: workspaceId },
    ],
  });

/** A binding is deleted only where there is one. */
export const bindingExists = () => conditionOf(bindingEntity, { attr: 'pk', exists: true });

/** A chat event already handled (dedupe by event id; attribute ttl: 2 days). */
export const chatEventSeenKey = (orgId: string, eventId: string): Key => ({ pk: `CHATEVENT#${orgId}#${eventId}`, sk: 'SEEN' });

/** A chat message already handled (it arrives as `app_mention` and as `message`; attribute ttl). */
export const chatMessageSeenKey = (orgId: string, channelId: string, ts: string): Key => ({
  pk: `CHATMSG#${orgId}#${channelId}#${ts}`,
  sk: 'SEEN',
});

/** A chat account as the bridge saw it, on a link and on the request that makes one. */
const chatAccount = {
  org_id: string(),
  chat_team_id: string(),
  chat_team_name: string(),
  chat_user_id: string(),
  chat_user_name: string(),
};

/**
 * A chat account linked to a user of the organisation (`ORG#<org>` / `CHATLINK#<chat team>#<chat
 * user>`): one per chat team and chat user, in the organisation's partition (links.ts).
 */
const chatLinkEntity = tableEntity('chat-link', {
  ...chatAccount,
  /** The user of the service it acts as, and their name then. */
  user_id: string(),
  user_name: string(),
  created_at: string(),
});

export type ChatLinkItem = FormattedItem<typeof chatLinkEntity>;

export const chatLinkKey = (orgId: string, teamId: string, chatUserId: string): Key => ({
  pk: orgPartition(orgId),
  sk: `CHATLINK#${teamId}#${chatUserId}`,
});

/**
 * A request to link a chat account, sent by the bot to that chat user only (`CHATLINKREQ#<token
 * hash>` / `REQUEST`): the token itself is never stored; single use, 30 minutes (TTL).
 */
const linkRequestEntity = tableEntity('chat-link-request', {
  ...chatAccount,
  created_at: string(),
  expires_at: string(),
  ttl: number(),
  /** Set once, by the confirmation. */
  used_at: string().optional(),
  used_by: string().optional(),
});

export type LinkRequestItem = FormattedItem<typeof linkRequestEntity>;

export const chatLinkRequestKey = (tokenHash: string): Key => ({ pk: `CHATLINKREQ#${tokenHash}`, sk: 'REQUEST' });

/** The request used up by `userId` at `now`: only if it is there, unused and not expired (of two confirmations one wins). */
export function linkRequestUse(tokenHash: string, userId: string, now: string) {
  const command = linkRequestEntity
    .build(UpdateItemCommand)
    .item({ ...chatLinkRequestKey(tokenHash), used_at: now, used_by: userId })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'used_at', exists: false },
          { attr: 'expires_at', gt: now },
        ],
      },
    });
  return updateOf(command);
}

/**
 * An approval message the bot posted in a channel, outside any thread (`CHATAPPR#<org>#<approval>` /
 * `CHANNEL#<channel>`): an approval of a conversation that has no thread of its own (a routine's run)
 * asked where the routine delivers. A press is checked against it, and the decision shown on it.
 */
const channelApprovalEntity = tableEntity('chat-channel-approval', {
  org_id: string(),
  workspace_id: string(),
  approval_id: string(),
  channel_id: string(),
  /** The message's ts: the thread its answer goes on in. */
  ts: string(),
  created_at: string(),
  ttl: number(),
});

export type ChannelApprovalItem = FormattedItem<typeof channelApprovalEntity>;

const channelApprovalsPartition = (orgId: string, approvalId: string) => `CHATAPPR#${orgId}#${approvalId}`;

export const channelApprovalKey = (orgId: string, approvalId: string, channelId: string): Key => ({
  pk: channelApprovalsPartition(orgId, approvalId),
  sk: `CHANNEL#${channelId}`,
});

// --- Access patterns ---

/** The channels bound to a workspace: their bindings. */
export const channelsOfWorkspace = (orgId: string, workspaceId: string): QueryInput => ({
  index: 'listings',
  pk: workspaceChannels(orgId, workspaceId),
});

/** The chat links of an organisation. */
export const chatLinksOfOrganisation = (orgId: string): QueryInput => ({ pk: orgPartition(orgId), sk: { beginsWith: 'CHATLINK#' } });

/** The channel messages of an approval (one per channel it was posted in). */
export const channelApprovalsOf = (orgId: string, approvalId: string): QueryInput => ({ pk: channelApprovalsPartition(orgId, approvalId) });
