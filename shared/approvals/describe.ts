import type { PendingApproval } from '../agent/events.js';
import type { Store } from '../platform/store.js';
import { getApproval } from './approvals.js';

/**
 * What waits for whom, in words: for callers that cannot press a button (the messaging webhook,
 * a coding agent), so the person reading knows the question is not lost and who can let it go on.
 */
async function describeWaiting(deps: Store, workspaceId: string, pending: PendingApproval): Promise<string> {
  const item = await getApproval(deps, workspaceId, pending.id);
  const who = item?.approvers === 'requester' ? `${pending.requested_by}, who asked,` : 'an admin of the organisation';
  const tool = pending.connection ? `${pending.tool} (${pending.connection})` : pending.tool;
  return (
    `The call to ${tool} waits for approval by ${who} until ${pending.expires_at}. ` +
    `It is decided in team chat or with POST /api/workspaces/${workspaceId}/approvals/${pending.id}; the answer continues then.`
  );
}

/** The answer so far, then what waits for whom. */
export async function answerWithWaiting(
  deps: Store,
  workspaceId: string,
  answer: string,
  pending: PendingApproval | null,
): Promise<string> {
  if (!pending) return answer;
  const waiting = await describeWaiting(deps, workspaceId, pending);
  return answer ? `${answer}\n\n${waiting}` : waiting;
}
