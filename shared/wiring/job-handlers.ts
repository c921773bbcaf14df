import { z } from 'zod';
import { approvalExpiryHandler } from '../agent/approvals/expire-job.js';
import { ApprovalExpiryJobSchema, type ApprovalExpiryJob } from '../approvals/expiry.js';
import { BudgetAlertSchema, budgetAlertHandler, type BudgetAlertJob } from '../budgets/alerts.js';
import { ColdNoticeSchema, coldNoticeHandler, type ColdNoticeJob } from '../conversations/cold-notice.js';
import { LifecycleJobSchema, lifecycleHandler, type LifecycleJob } from '../conversations/lifecycle.js';
import { conversationStatsHandler } from '../conversations/stats-job.js';
import { evalCaseHandler } from '../evals/case-job.js';
import type { JobHandler, JobHandlers } from '../jobs/worker.js';
import { knowledgeJobHandler } from '../knowledge/documents/ingest-job.js';

/*
 * The composition of the job consumers: which domain's handler does each queue's jobs. The jobs
 * function (functions/jobs/handler.ts) and the local runtime (bin/local-runtime.ts) pass it to the
 * worker; `shared/jobs` delivers and records jobs and knows none of the domains.
 */

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
 * The handler of each queue. The conversation-stats queue carries a closed conversation's
 * statistics only: an evaluation's cases have the evals queue (docs/operations.md says what
 * becomes of a case a version before it left on the stats queue).
 */
export const jobHandlers: JobHandlers = {
  lifecycle: timedMoves as JobHandler<unknown>,
  'cold-messages': outgoingMessages as JobHandler<unknown>,
  'conversation-stats': conversationStatsHandler as JobHandler<unknown>,
  evals: evalCaseHandler as JobHandler<unknown>,
  knowledge: knowledgeJobHandler as JobHandler<unknown>,
};
