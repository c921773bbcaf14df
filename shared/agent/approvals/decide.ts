import { holdBudgets, type QueryListener, type QueryResponse } from '../query.js';
import type { Deps } from '../../deps.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors.js';
import {
  claimDecision,
  conversationClosed,
  getApproval,
  type ApprovalItem,
  mayDecide,
  whoMayDecide,
  type Decider,
} from '../../approvals/index.js';
import { readPausedRun, resumeQuery } from './resume.js';
import { decideGatewayCall } from './gateway-decision.js';

/** An approval of the caller's organisation, or 404 as if it did not exist. */
export async function approvalOf(deps: Deps, orgId: string, workspaceId: string, approvalId: string): Promise<ApprovalItem> {
  const item = await getApproval(deps, orgId, workspaceId, approvalId);
  if (!item || item.org_id !== orgId) throw new NotFoundError(`approval ${approvalId} not found`);
  return item;
}

/**
 * `POST /api/workspaces/:id/approvals/:approval_id`: decides a pending approval and goes on with
 * its query, answering the query's result. 403 for someone who may not decide it; 409 for one
 * decided or expired already — of two decisions at once exactly one wins (a conditional write).
 */
export async function decideApproval(
  deps: Deps,
  decider: Decider,
  workspaceId: string,
  approvalId: string,
  body: { decision: 'approve' | 'deny'; reason?: string },
  listener: QueryListener = {},
): Promise<{ response: QueryResponse; answerSeq: number | null }> {
  // The decision resumes a query: it takes a place among the queries in flight before it is written.
  const release = deps.inFlight.admit(decider.orgId);
  try {
    return await decideAndResume(deps, decider, { workspaceId, approvalId }, body, listener);
  } finally {
    release();
  }
}

async function decideAndResume(
  deps: Deps,
  decider: Decider,
  { workspaceId, approvalId }: { workspaceId: string; approvalId: string },
  body: { decision: 'approve' | 'deny'; reason?: string },
  listener: QueryListener,
): Promise<{ response: QueryResponse; answerSeq: number | null }> {
  const item = await approvalOf(deps, decider.orgId, workspaceId, approvalId);
  if (!mayDecide(item, decider)) throw new ForbiddenError(`only ${whoMayDecide(item)} may decide this approval`);
  const expired = item.status === 'expired' || item.expires_at <= deps.clock.now().toISOString();
  if (item.status !== 'pending' || expired) {
    throw new ConflictError(`approval ${approvalId} is ${expired ? 'expired' : `already ${item.status}`}`);
  }
  if (item.source === 'gateway') return decideGatewayCall(deps, item, decider, body);
  // The query's reads, once (the hold below is taken from them, the query runs on them), with the
  // conversation's state read consistently: one closed while the call waited takes no more answers,
  // and the call expires unrun.
  const [closed, run] = await Promise.all([conversationClosed(deps, item), readPausedRun(deps, item)]);
  if (closed) {
    const expiry = { status: 'expired', decidedBy: null, reason: 'the conversation was closed' } as const;
    await claimDecision(deps, item, expiry, { early: true });
    throw new ConflictError(`approval ${approvalId} can no longer be decided: its conversation was closed`);
  }
  const decision = {
    status: body.decision === 'approve' ? ('approved' as const) : ('denied' as const),
    decidedBy: decider.name,
    reason: body.reason ?? null,
    at: deps.clock.now().toISOString(),
  };
  // The query goes on only within its budgets: 402 before anything is decided when one has no room.
  const { context } = run;
  const hold = await holdBudgets(deps, run.paused.caller, context.workspace, context.budgets, context.counters);
  if (!(await claimDecision(deps, item, decision))) {
    await hold.settle(0);
    const now = await getApproval(deps, decider.orgId, workspaceId, approvalId);
    throw new ConflictError(`approval ${approvalId} is already ${now?.status ?? 'decided'}`);
  }
  listener.onStart?.({ conversation_id: item.conversation_id, session_id: item.conversation_id });
  return resumeQuery(deps, run, decision, listener, { fromThread: decider.chatUser !== undefined, hold });
}
