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

/**
 * Records the approval of the first waiting call of a paused loop, with everything the query needs
 * to go on, and plans its expiry. Answers what the caller is told (`pending_approval`).
 */
export async function requestApproval(deps: Deps, request: ApprovalRequest): Promise<PendingApproval> {
  const { caller, workspace, loop } = request;
  const call = loop.paused.waiting[0];
  if (!call) throw new Error('a paused loop has a waiting call');
  const setting = approvalSettingOf(workspace);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + setting.expires_minutes * 60_000).toISOString();
  const tool = request.tools.find((candidate) => candidate.spec.name === call.name);
  const paused: PausedQuery = { ...request.paused, caller, checkpoint: loop.paused };
  const item = await createApproval(deps, {
    id: newId('appr', now),
    org_id: caller.orgId,
    workspace_id: workspace.id,
    conversation_id: request.conversationId,
    status: 'pending',
    tool: call.name,
    connection: tool?.connectionName ?? null,
    input: JSON.stringify(call.input),
    input_hash: argumentsHash(call.input),
    requested_by: caller.userName,
    requester: caller.owner,
    // A messaging thread or a coding agent can neither press a button nor call the decide route:
    // its requests go to the admins.
    approvers: caller.consumerType === 'messaging' || caller.consumerType === 'coding-agent' ? 'admins' : setting.approvers,
    expires_at: expiresAt,
    created_at: now.toISOString(),
    decided_by: null,
    decided_at: null,
    reason: null,
    caller: JSON.stringify(caller),
    paused: JSON.stringify(paused),
  });
  await scheduleExpiry(deps, caller.orgId, workspace.id, item.id, new Date(expiresAt));
  return {
    id: item.id,
    tool: item.tool,
    connection: item.connection,
    input: call.input,
    requested_by: item.requested_by,
    expires_at: expiresAt,
  };
}
