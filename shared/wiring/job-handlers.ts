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
import { RoutineApprovalSchema, routineApprovalHandler, type RoutineApprovalJob } from '../routines/channel-approvals.js';
import { RoutineDeliverySchema, routineDeliveryHandler, type RoutineDeliveryJob } from '../routines/delivery.js';
import { FireRoutineJobSchema, type FireRoutineJob } from '../routines/fire-message.js';
import { fireRoutineHandler } from '../routines/fire-job.js';
import { routineRunHandler } from '../routines/run-job.js';

/*
 * The composition of the job consumers: which domain's handler does each queue's jobs. The jobs
 * function (functions/jobs/handler.ts) and the local runtime (bin/local-runtime.ts) pass it to the
 * worker; `shared/jobs` delivers and records jobs and knows none of the domains.
 */

/**
 * The lifecycle queue carries the timed moves: a conversation's (cold, close), an approval's
 * expiry (expire-approval) and a routine's scheduled time (fire-routine), told apart by their
 * `move` when the worker parses them, once.
 */
const timedMoves: JobHandler<ApprovalExpiryJob | FireRoutineJob | LifecycleJob> = {
  schema: z.discriminatedUnion('move', [ApprovalExpiryJobSchema, FireRoutineJobSchema, LifecycleJobSchema]),
  run: (deps, data, job) => {
    if (data.move === 'expire-approval') return approvalExpiryHandler.run(deps, data, job);
    if (data.move === 'fire-routine') return fireRoutineHandler.run(deps, data, job);
    return lifecycleHandler.run(deps, data, job);
  },
};

/**
 * The cold-messages queue carries what leaves the service as a message: a cold conversation's
 * notice in its thread, a budget's alert (`kind: "budget-alert"`), a routine's answer
 * (`kind: "routine-delivery"`) and a routine's approval in its channels (`kind: "routine-approval"`).
 */
const outgoingMessages: JobHandler<BudgetAlertJob | ColdNoticeJob | RoutineDeliveryJob | RoutineApprovalJob> = {
  schema: z.union([BudgetAlertSchema, RoutineDeliverySchema, RoutineApprovalSchema, ColdNoticeSchema]),
  run: (deps, data, job) => {
    if (!('kind' in data)) return coldNoticeHandler.run(deps, data, job);
    if (data.kind === 'routine-approval') return routineApprovalHandler.run(deps, data, job);
    return data.kind === 'routine-delivery' ? routineDeliveryHandler.run(deps, data, job) : budgetAlertHandler.run(deps, data, job);
  },
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
  routines: routineRunHandler as JobHandler<unknown>,
};
