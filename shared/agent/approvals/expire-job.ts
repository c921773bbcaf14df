import type { JobHandler } from '../../jobs/index.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Deps } from '../../deps.js';
import {
  claimDecision,
  conversationClosed,
  getApproval,
  type ApprovalItem,
  ApprovalExpiryJobSchema,
  type ApprovalExpiryJob,
} from '../../approvals/index.js';
import { readPausedRun, resumeQuery } from './resume.js';

/**
 * An approval's expiry (on the lifecycle queue): a pending approval past its time becomes
 * `expired` — one conditional write, so a decision at the same moment either wins or loses
 * whole — and its query goes on, the model told the call was not approved.
 */
export const approvalExpiryHandler: JobHandler<ApprovalExpiryJob> = {
  schema: ApprovalExpiryJobSchema,
  async run(deps, data, job) {
    const item = await getApproval(deps, job.org_id, data.workspaceId, data.approvalId);
    if (!item || item.org_id !== job.org_id || item.status !== 'pending') return; // gone or decided
    // A schedule that fired a moment early: fail, and the retry comes after the time.
    if (item.expires_at > deps.clock.now().toISOString()) throw new Error(`approval ${item.id} is not due until ${item.expires_at}`);
    // Its query goes on: it takes a place among the organisation's queries in flight first, and
    // when there is none (a 429) nothing is written and the job is tried again later.
    const release = deps.inFlight.admit(item.org_id);
    try {
      await expire(deps, item);
    } finally {
      release();
    }
  },
};

async function expire(deps: Deps, item: ApprovalItem): Promise<void> {
  // A conversation closed while it waited takes no more answers: the approval just expires.
  const closed = item.source === 'gateway' ? false : await conversationClosed(deps, item);
  const decision = {
    status: 'expired' as const,
    decidedBy: null,
    reason: closed ? 'the conversation was closed' : null,
    at: deps.clock.now().toISOString(),
  };
  if (!(await claimDecision(deps, item, decision))) return; // decided at the same moment
  // A gateway call's approval has no query to go on with: it just expires.
  if (closed || item.source === 'gateway') return;
  // A workspace removed while the call waited has nothing to go on with.
  await readPausedRun(deps, item)
    .then((run) => resumeQuery(deps, run, decision))
    .catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
}
