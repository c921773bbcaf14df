import type { WebClient } from '@slack/web-api';
import { getApproval, toApprovalView } from '../approvals/index.js';
import type { ChannelApprovalMessage } from '../chat/index.js';
import type { Store } from '../platform/store.js';
import { approvalRequestMessage, decidedApprovalMessage } from './approval-messages.js';

/*
 * The approval message of a conversation without a thread of its own (a routine's run), in the
 * channel itself: the same message, buttons and decision as in a thread (approval-messages.ts).
 * The notifier posts it for the core (chat/channel-approvals.ts); a press on it is decided by the
 * bridge (approval-buttons.ts).
 */

/** Posts a pending approval in the channel with its Approve / Deny buttons; its ts, or undefined when it is pending no more. */
export async function postChannelApproval(
  store: Store,
  client: WebClient,
  where: { orgId: string; channelId: string; workspaceId: string; approvalId: string },
): Promise<string | undefined> {
  const item = await getApproval(store, where.orgId, where.workspaceId, where.approvalId);
  if (item?.status !== 'pending') return undefined;
  const posted = await client.chat.postMessage({
    channel: where.channelId,
    ...approvalRequestMessage(where.workspaceId, toApprovalView(item), item.approvers),
  });
  return posted.ts;
}

/** Rewrites a decided approval's channel message with who decided what (or that it expired), without buttons. */
export async function showChannelDecision(store: Store, client: WebClient, message: ChannelApprovalMessage): Promise<void> {
  const item = await getApproval(store, message.orgId, message.workspaceId, message.approvalId);
  if (!item || item.status === 'pending') return;
  const decision = { status: item.status, decidedBy: item.decided_by, reason: item.reason };
  await client.chat.update({
    channel: message.channelId,
    ts: message.ts,
    ...decidedApprovalMessage(message.workspaceId, toApprovalView(item), decision),
  });
}
