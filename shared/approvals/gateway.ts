import type { Caller } from '../agent/index.js';
import type { Deps } from '../deps.js';
import { conditionHeld } from '../platform/table.js';
import { type WorkspaceItem, approvalSettingOf } from '../workspaces/index.js';
import { argumentsHash, createApproval, getApproval, type ApprovalItem } from './approvals.js';
import { consumeUpdate, gatewayCallKey } from './entities.js';
import { scheduleExpiry } from './expiry.js';
import { pendingApproval } from './request.js';

/*
 * Approvals of a person's tool calls through the MCP gateway (agent/gateway/): bound, as the
 * agent's, to the person, the tool and the hash of the arguments; but no query waits on them. A
 * decision only records itself (agent/approvals/decide.ts); the call runs in the request that
 * still waits for it, or when the person makes the same call again, once per approval.
 */

/** One call of a person through the gateway that needs approval. */
export interface GatewayCall {
  caller: Caller;
  /** The person (`user:<id>` is the caller's owner). */
  userId: string;
  workspace: WorkspaceItem;
  /** The tool's name as the person called it, and its connection's. */
  tool: string;
  connection: string | null;
  input: Record<string, unknown>;
}

const keyOf = (call: GatewayCall) =>
  gatewayCallKey(call.workspace.org_id, call.workspace.id, { userId: call.userId, tool: call.tool, inputHash: argumentsHash(call.input) });

/** The latest approval asked for this very call (person, tool, arguments), read consistently; none if never asked. */
export async function latestGatewayApproval(deps: Deps, call: GatewayCall): Promise<ApprovalItem | undefined> {
  const pointer = await deps.table.get<{ approval_id?: string }>(keyOf(call), true);
  if (!pointer?.approval_id) return undefined;
  const item = await getApproval(deps, call.workspace.org_id, call.workspace.id, pointer.approval_id);
  return item && item.input_hash === argumentsHash(call.input) && item.requester === call.caller.owner ? item : undefined;
}

/**
 * Asks for the approval of a gateway call: a pending approval the console lists as any other
 * (`source: gateway`, no conversation, no paused query), its expiry planned, and the call's
 * pointer to it (what the same call finds when it comes again).
 */
export async function requestGatewayApproval(deps: Deps, call: GatewayCall): Promise<ApprovalItem> {
  const { caller, workspace } = call;
  const item = await createApproval(deps, {
    ...pendingApproval(deps, workspace, caller, call),
    // No conversation: the call is the person's own, made from their MCP client.
    conversation_id: '',
    // A person can decide in the console: the workspace's approvers, as for their own questions.
    approvers: approvalSettingOf(workspace).approvers,
    source: 'gateway',
  });
  await Promise.all([
    scheduleExpiry(deps, workspace.org_id, workspace.id, item.id, new Date(item.expires_at)),
    deps.table.put({ ...keyOf(call), approval_id: item.id, created_at: item.created_at }),
  ]);
  return item;
}

/**
 * Whether an approved gateway approval may still let its call run: once (not consumed yet), and
 * within the workspace's approval expiry from its decision, as long as the approver had to decide.
 */
export function approvalUsable(item: ApprovalItem, workspace: WorkspaceItem, now: Date): boolean {
  if (item.status !== 'approved' || item.consumed_at || !item.decided_at) return false;
  const window = approvalSettingOf(workspace).expires_minutes * 60_000;
  return new Date(item.decided_at).getTime() + window > now.getTime();
}

/** Uses an approved gateway approval for the call about to run: false when another call used it first. */
export function consumeApproval(deps: Deps, item: ApprovalItem): Promise<boolean> {
  const { key, input } = consumeUpdate(item, deps.clock.now().toISOString());
  return conditionHeld(deps.table.update(key, input));
}
