import type { DecidedQuery } from '../approvals/index.js';
import type { Deps } from '../deps.js';
import { unlessConditionFailed } from '../platform/table.js';
import { tellChannelsOfApproval } from './channel-approvals.js';
import { deliverAnswer } from './delivery.js';
import { runKey, runResumed } from './entities.js';
import { afterApproval, runIdOfConversation, showLastRun, type RunItem } from './runs.js';
import type { RunStatus } from './schemas.js';
import { findRoutine } from './store.js';

/*
 * A run that paused for an approval, once the approval was decided and its query went on
 * (`deps.afterDecision`, approvals/after-decision.ts; the wiring connects it): the run ends at that
 * moment, `done` or `failed` with its cost, duration and end time (or waits on its next approval),
 * and a `done` run's whole answer is delivered by the same job as an answer that needed no approval
 * (delivery.ts). An expired approval is a refusal: the run fails, and nothing is delivered. An
 * approval asked in the routine's channels shows its decision there (channel-approvals.ts).
 */

/** How the run stands after the resumed query: its next approval, a refusal by expiry, an error, or done. */
function outcomeOf(decided: DecidedQuery): { status: RunStatus; error: string | null; approvalId: string | null } {
  const { response } = decided;
  if (response.pending_approval) return { status: 'waiting_approval', error: null, approvalId: response.pending_approval.id };
  const decision = afterApproval(decided.decision);
  if (decision?.status === 'failed') return { ...decision, approvalId: decided.approvalId };
  if (response.error) return { status: 'failed', error: response.error, approvalId: decided.approvalId };
  return { status: 'done', error: null, approvalId: decided.approvalId };
}

/** The run of a decided query of a routine's conversation moves on, and its answer is delivered; any other conversation is ignored. */
export async function followDecidedRun(deps: Deps, decided: DecidedQuery): Promise<void> {
  const routineId = decided.owner.startsWith('routine:') ? decided.owner.slice('routine:'.length) : undefined;
  const runId = routineId ? runIdOfConversation(routineId, decided.conversationId) : undefined;
  if (!routineId || !runId) return;
  const run = await deps.table.get<RunItem>(runKey(routineId, runId), true);
  if (!run || run.org_id !== decided.orgId || run.approval_id !== decided.approvalId) return;
  const outcome = outcomeOf(decided);
  const ended = outcome.status !== 'waiting_approval';
  const { key, input } = runResumed(run, decided.approvalId, {
    status: outcome.status,
    error: outcome.error,
    approval_id: outcome.approvalId,
    cost_usd: decided.response.cost_usd,
    duration_ms: Math.round(decided.response.duration_ms),
    finished_at: ended ? deps.clock.now().toISOString() : null,
  });
  // Conditional on the approval still being the run's: one paused again since (read here, moved since) stays.
  const moved = await unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
  if (!moved) return;
  await showLastRun(deps, routineId, { ...run, status: outcome.status });
  const routine = await findRoutine(deps, routineId);
  if (routine?.org_id !== run.org_id) return;
  // Where it was asked in the routine's channels, the decision shows there, and the next approval is asked there.
  await tellChannelsOfApproval(deps, routine, decided.approvalId, 'decided');
  if (outcome.status === 'waiting_approval' && outcome.approvalId) await tellChannelsOfApproval(deps, routine, outcome.approvalId, 'ask');
  if (outcome.status === 'done') await deliverAnswer(deps, routine, run, decided.response.answer);
}
