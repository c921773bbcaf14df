import type { Deps } from '../../deps.js';
import { ConflictError } from '../../platform/errors.js';
import { claimDecision, getApproval, type ApprovalItem, type Decider } from '../../approvals/index.js';
import type { QueryResponse } from '../query.js';

/*
 * The decision on a gateway call's approval (approvals/gateway.ts): only recorded. No query waits
 * on it, so nothing resumes; the person's call runs in the request still waiting for it, or when
 * they make the same call again.
 */

/** What deciding a gateway call answers, in the decide route's shape (`QueryResponse`): the decision in words. */
function decisionAnswer(item: ApprovalItem, status: 'approved' | 'denied'): QueryResponse {
  const answer =
    status === 'approved'
      ? `Approved: ${item.tool} runs once with these arguments when ${item.requested_by} calls it (at once, if the call still waits).`
      : `Denied: ${item.tool} does not run; ${item.requested_by}'s call is told so.`;
  return {
    answer,
    tools_called: [],
    connections_hit: [],
    tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    cost_usd: 0,
    duration_ms: 0,
    error: null,
    conversation_id: item.conversation_id,
    session_id: item.conversation_id,
    pending_approval: null,
  };
}

/** Records the decision on a pending gateway approval (one conditional write: of two decisions one wins); 409 when it was no longer pending. */
export async function decideGatewayCall(
  deps: Deps,
  item: ApprovalItem,
  decider: Decider,
  body: { decision: 'approve' | 'deny'; reason?: string },
): Promise<{ response: QueryResponse; answerSeq: number | null }> {
  const status = body.decision === 'approve' ? ('approved' as const) : ('denied' as const);
  const decision = { status, decidedBy: decider.name, reason: body.reason ?? null, at: deps.clock.now().toISOString() };
  if (!(await claimDecision(deps, item, decision))) {
    const now = await getApproval(deps, item.org_id, item.workspace_id, item.id);
    throw new ConflictError(`approval ${item.id} is already ${now?.status ?? 'decided'}`);
  }
  return { response: decisionAnswer(item, status), answerSeq: null };
}
