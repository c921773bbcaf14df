import type { PendingApproval } from '../agent/index.js';

/**
 * What waits for whom, in words: for callers that cannot press a button (the messaging webhook,
 * a coding agent), so the person reading knows the question is not lost and who can let it go on.
 * Their requests are always decided by the admins (`request.ts`), so nothing needs reading.
 */
function describeWaiting(workspaceId: string, pending: PendingApproval): string {
  const tool = pending.connection ? `${pending.tool} (${pending.connection})` : pending.tool;
  return (
    `The call to ${tool} waits for approval by an admin of the organisation until ${pending.expires_at}. ` +
    `It is decided in team chat or with POST /api/workspaces/${workspaceId}/approvals/${pending.id}; the answer continues then.`
  );
}

/** The answer so far, then what waits for whom. */
export function answerWithWaiting(workspaceId: string, answer: string, pending: PendingApproval | null): string {
  if (!pending) return answer;
  const waiting = describeWaiting(workspaceId, pending);
  return answer ? `${answer}\n\n${waiting}` : waiting;
}
