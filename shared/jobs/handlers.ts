import { z } from 'zod';
import { coldNoticeHandler } from '../conversations/cold-notice.js';
import { lifecycleHandler } from '../conversations/lifecycle.js';
import { conversationStatsHandler } from '../conversations/stats-job.js';
import { approvalExpiryHandler } from '../approvals/expire-job.js';
import { ApprovalExpiryJobSchema } from '../approvals/expiry.js';
import type { JobHandler, JobHandlers } from './worker.js';

/**
 * The lifecycle queue carries the timed moves: a conversation's (cold, close) and an approval's
 * expiry, told apart by their data.
 */
const timedMoves: JobHandler<unknown> = {
  schema: z.union([ApprovalExpiryJobSchema, lifecycleHandler.schema]),
  run: (deps, data, job) =>
    ApprovalExpiryJobSchema.safeParse(data).success
      ? approvalExpiryHandler.run(deps, data as never, job)
      : lifecycleHandler.run(deps, data as never, job),
};

/** The handler of each queue. */
export const jobHandlers: JobHandlers = {
  lifecycle: timedMoves,
  'cold-messages': coldNoticeHandler,
  'conversation-stats': conversationStatsHandler,
};
