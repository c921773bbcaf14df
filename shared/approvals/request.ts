import type { PendingApproval, LoopResult, LoopTool, Caller } from '../agent/index.js';
import type { Deps } from '../deps.js';
import { newId } from '../platform/ids.js';
import { type WorkspaceItem, approvalSettingOf } from '../workspaces/index.js';
import { argumentsHash, createApproval, type PausedQuery } from './approvals.js';
import { scheduleExpiry } from './expiry.js';

/** A query paused on a call: what asking for its approval needs. */
export interface ApprovalRequest {
  caller: Caller;
  workspace: WorkspaceItem;
  conversationId: string;
  loop: LoopResult & { paused: NonNullable<LoopResult['paused']> };
  tools: LoopTool[];
  paused: Omit<PausedQuery, 'checkpoint' | 'caller'>;
}

/** A stored item holds at most 400 KB (UTF-8 bytes): a paused query must leave room for the rest of its approval. */
const MAX_PAUSED_BYTES = 300_000;

/**
 * A loop that paused with more state than an approval can hold (large tool results in its
 * conversation) cannot wait: it ends with an error saying so, instead of failing to store.
 */
export function unlessTooLargeToWait(loop: LoopResult): LoopResult {
  // Bytes, not characters: a character of Chinese text is 3 bytes of the item, an emoji 4.
  if (!loop.paused || Buffer.byteLength(JSON.stringify(loop.paused)) <= MAX_PAUSED_BYTES) return loop;
  const { paused, ...rest } = loop;
  const call = paused.waiting[0]?.name ?? 'a tool';
  return { ...rest, error: `the call to ${call} needs approval, but this query is too large to wait for one; ask again with less` };
}

/** A call that asks for approval: the tool as the caller named it, its connection, its arguments. */
export interface AskedCall {
  tool: string;
  connection: string | null;
  input: Record<string, unknown>;
}

/**
 * What every new approval starts as: pending, of this call by this caller, its expiry after the
 * workspace's setting; the rest (conversation, the paused query or the gateway's source, who
 * decides) is the asker's.
 */
export function pendingApproval(deps: Deps, workspace: WorkspaceItem, caller: Caller, call: AskedCall) {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + approvalSettingOf(workspace).expires_minutes * 60_000).toISOString();
  return {
    id: newId('appr', now),
    org_id: workspace.org_id,
    workspace_id: workspace.id,
    status: 'pending' as const,
    tool: call.tool,
    connection: call.connection,
    input: JSON.stringify(call.input),
    input_hash: argumentsHash(call.input),
    requested_by: caller.userName,
    requester: caller.owner,
    expires_at: expiresAt,
    created_at: now.toISOString(),
    decided_by: null,
    decided_at: null,
    reason: null,
    caller: JSON.stringify(caller),
  };
}

/**
 * Records the approval of the first waiting call of a paused loop, with everything the query needs
 * to go on, and plans its expiry. Answers what the caller is told (`pending_approval`).
 */
export async function requestApproval(deps: Deps, request: ApprovalRequest): Promise<PendingApproval> {
  const { caller, workspace, loop } = request;
  const call = loop.paused.waiting[0];
  if (!call) throw new Error('a paused loop has a waiting call');
  const setting = approvalSettingOf(workspace);
  const tool = request.tools.find((candidate) => candidate.spec.name === call.name);
  const paused: PausedQuery = { ...request.paused, caller, checkpoint: loop.paused };
  const item = await createApproval(deps, {
    ...pendingApproval(deps, workspace, caller, { tool: call.name, connection: tool?.connectionName ?? null, input: call.input }),
    conversation_id: request.conversationId,
    // A messaging thread, a coding agent or a routine (owner `routine:<id>`) can neither press a
    // button nor call the decide route: its requests go to the admins.
    approvers:
      caller.consumerType === 'messaging' || caller.consumerType === 'coding-agent' || caller.owner.startsWith('routine:')
        ? 'admins'
        : setting.approvers,
    paused: JSON.stringify(paused),
  });
  await scheduleExpiry(deps, item.org_id, workspace.id, item.id, new Date(item.expires_at));
  return {
    id: item.id,
    tool: item.tool,
    connection: item.connection,
    input: call.input,
    requested_by: item.requested_by,
    expires_at: item.expires_at,
  };
}
