import type { Deps } from '../deps.js';
import { hasErrorCode } from '../platform/errors.js';
import { channelsOf } from './consumers.js';
import { channelApprovalKey, channelApprovalsOf, type ChannelApprovalItem } from './entities.js';

/*
 * The approval of a conversation without a thread of its own (a routine's run) asked in the
 * channels bound to its workspace: posted with its Approve / Deny buttons through the notifier
 * (the port: chat-bot/channel-approvals.ts posts it), and remembered per channel, so that a press
 * is checked against its message, its decision is shown on it, and the answer that follows goes on
 * in its thread.
 */

/** How long a posted approval is remembered: past the longest expiry (a week), with room for a late delivery. */
const KEPT_DAYS = 14;

/** An organisation whose team chat is not connected is skipped; any other failure is the job's (tried again). */
function unlessNotConnected(error: unknown): undefined {
  if (!hasErrorCode(error, 'not_connected')) throw error;
  return undefined;
}

/** The channel messages of an approval (none when it was asked in no channel). */
function channelApprovals(deps: Pick<Deps, 'table'>, orgId: string, approvalId: string): Promise<ChannelApprovalItem[]> {
  return deps.table.queryAll<ChannelApprovalItem>({ ...channelApprovalsOf(orgId, approvalId), consistent: true });
}

/** The approval's message in this channel, if it was posted there. */
export function channelApprovalIn(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  approvalId: string,
  channelId: string,
): Promise<ChannelApprovalItem | undefined> {
  return deps.table.get<ChannelApprovalItem>(channelApprovalKey(orgId, approvalId, channelId), true);
}

/** The thread of each channel message of an approval (channel id → the message's ts), where what follows it goes on. */
export async function approvalThreads(deps: Pick<Deps, 'table'>, orgId: string, approvalId: string): Promise<Map<string, string>> {
  const messages = await channelApprovals(deps, orgId, approvalId);
  return new Map(messages.map((message) => [message.channel_id, message.ts]));
}

/**
 * Posts a pending approval in each channel bound to its workspace, with its Approve / Deny buttons,
 * and remembers each message. A channel it was posted in already (a job tried again) is skipped.
 */
export async function postApprovalInWorkspaceChannels(deps: Deps, orgId: string, workspaceId: string, approvalId: string): Promise<void> {
  const posted = await approvalThreads(deps, orgId, approvalId);
  for (const { channel_id: channelId } of await channelsOf(deps, orgId, workspaceId)) {
    if (posted.has(channelId)) continue;
    const ts = await deps.chat.postApproval?.(orgId, channelId, workspaceId, approvalId).catch(unlessNotConnected);
    // Not posted: no team chat, or the approval was decided before it could be asked.
    if (!ts) continue;
    const now = deps.clock.now();
    const item: ChannelApprovalItem = {
      ...channelApprovalKey(orgId, approvalId, channelId),
      org_id: orgId,
      workspace_id: workspaceId,
      approval_id: approvalId,
      channel_id: channelId,
      ts,
      created_at: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + KEPT_DAYS * 86_400,
    };
    await deps.table.put(item);
  }
}

/** Shows a decided approval's decision on each of its channel messages (who decided what, or that it expired; no buttons). */
export async function showDecisionInChannels(deps: Deps, orgId: string, approvalId: string): Promise<void> {
  for (const message of await channelApprovals(deps, orgId, approvalId)) {
    await deps.chat
      .showApprovalDecision?.({ orgId, workspaceId: message.workspace_id, approvalId, channelId: message.channel_id, ts: message.ts })
      .catch(unlessNotConnected);
  }
}
