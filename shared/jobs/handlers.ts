import { z } from 'zod';
import { BudgetAlertSchema, budgetAlertHandler, type BudgetAlertJob } from '../budgets/alerts.js';
import { ColdNoticeSchema, coldNoticeHandler, type ColdNoticeJob } from '../conversations/cold-notice.js';
import { conversationStatsHandler, type StatsJob } from '../conversations/stats-job.js';
import { evalCaseHandler } from '../evals/case-job.js';
import { EvalCaseJobSchema, type EvalCaseJob } from '../evals/runs.js';
import { approvalExpiryHandler } from '../approvals/expire-job.js';
import { ApprovalExpiryJobSchema, type ApprovalExpiryJob } from '../approvals/expiry.js';
import { LifecycleJobSchema, lifecycleHandler, type LifecycleJob } from '../conversations/lifecycle.js';
import type { JobHandler, JobHandlers } from './worker.js';

/**
 * The lifecycle queue carries the timed moves: a conversation's (cold, close) and an approval's
 * expiry (expire-approval), told apart by their `move` when the worker parses them, once.
 */
const timedMoves: JobHandler<ApprovalExpiryJob | LifecycleJob> = {
  schema: z.discriminatedUnion('move', [ApprovalExpiryJobSchema, LifecycleJobSchema]),
  run: (deps, data, job) =>
    data.move === 'expire-approval' ? approvalExpiryHandler.run(deps, data, job) : lifecycleHandler.run(deps, data, job),
};

/**
 * The cold-messages queue carries what leaves the service as a message: a cold conversation's
 * notice in its thread, and a budget's alert (`kind: "budget-alert"`).
 */
const outgoingMessages: JobHandler<BudgetAlertJob | ColdNoticeJob> = {
  schema: z.union([BudgetAlertSchema, ColdNoticeSchema]),
  run: (deps, data, job) => ('kind' in data ? budgetAlertHandler.run(deps, data, job) : coldNoticeHandler.run(deps, data, job)),
};

/**
 * The conversation-stats queue carries a closed conversation's statistics, and the cases of
 * evaluations queued there before they had a queue of their own (`kind: "eval-case"`).
 */
const modelWork: JobHandler<EvalCaseJob | StatsJob> = {
  schema: z.union([EvalCaseJobSchema, conversationStatsHandler.schema]),
  run: (deps, data, job) => ('kind' in data ? evalCaseHandler.run(deps, data, job) : conversationStatsHandler.run(deps, data, job)),
  onFailed: async (deps, data, job, error) => {
    if ('kind' in data) await evalCaseHandler.onFailed?.(deps, data, job, error);
    else await conversationStatsHandler.onFailed?.(deps, data, job, error);
  },
};

/** The handler of each queue. */
export const jobHandlers: JobHandlers = {
  lifecycle: timedMoves as JobHandler<unknown>,
  'cold-messages': outgoingMessages as JobHandler<unknown>,
  'conversation-stats': modelWork as JobHandler<unknown>,
  evals: evalCaseHandler as JobHandler<unknown>,
};
