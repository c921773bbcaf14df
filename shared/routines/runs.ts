import { z } from 'zod';
import { approvalKey, type ApprovalStatus } from '../approvals/index.js';
import type { Deps } from '../deps.js';
import type { JobMessage } from '../jobs/index.js';
import { newId } from '../platform/ids.js';
import { unlessConditionFailed } from '../platform/table.js';
import { putNew } from '../platform/updates.js';
import { lastRunShown, newRunItem, runKey, runMoved, runsOfRoutine, type RunFields } from './entities.js';
import type { RoutineRunView } from './schemas.js';
import type { RoutineItem } from './store.js';

/*
 * A routine's runs (CONTRACT.md, "Routines"): each is made `queued` by its trigger, with what
 * started it (the scheduled time, the webhook's delivery id, the person who pressed Run now), and
 * run by a job on the `routines` queue (run-job.ts), so a failed run is retried and shown on the
 * operations page as any job is. A scheduled run's id is made from its scheduled time and put only
 * where none is: a time fired twice (the schedule and the sweep, two sweeps) is one run.
 */

export const RoutineRunJobSchema = z.object({ kind: z.literal('routine-run'), routineId: z.string().min(1), runId: z.string().min(1) });
export type RoutineRunJob = z.infer<typeof RoutineRunJobSchema>;

export interface RunItem extends RunFields {
  pk: string;
  sk: string;
}

/** What started a run. */
export type RunStart =
  | { trigger: 'schedule'; scheduledAt: Date }
  | { trigger: 'webhook'; deliveryId: string; payload: string }
  | { trigger: 'manual'; userId: string };

/** The id of the run of a scheduled time: sorted among the others by that time, the same for every firing of it. */
const scheduledRunId = (scheduledAt: Date) => `run_${scheduledAt.getTime().toString(36).padStart(9, '0')}0000sched`;

/**
 * The conversation a run is (its owner is the routine: `routine:<id>`). Conversations are the
 * workspace's, and a scheduled run's id is its time's, so the routine's id is part of it: two
 * routines of a workspace due at one time have a conversation each.
 */
const conversationIdOf = (routineId: string, runId: string) => `routine-${routineId}-${runId}`;

/** The run a conversation of `routineId` is, or undefined for any other conversation. */
export function runIdOfConversation(routineId: string, conversationId: string): string | undefined {
  const prefix = `routine-${routineId}-`;
  return conversationId.startsWith(prefix) ? conversationId.slice(prefix.length) : undefined;
}

/** The job that runs a run: its id is the run's, so a run is queued once however often it is started. */
function runJobMessage(run: Pick<RunFields, 'org_id' | 'routine_id' | 'id'>): JobMessage {
  return {
    jobId: `routine-run-${run.routine_id}-${run.id}`,
    queue: 'routines',
    orgId: run.org_id,
    data: { kind: 'routine-run', routineId: run.routine_id, runId: run.id } satisfies RoutineRunJob,
  };
}

/** A new queued run of `routine`, not stored yet. */
export function newRun(deps: Pick<Deps, 'clock'>, routine: RoutineItem, start: RunStart, id?: string): RunItem {
  const now = deps.clock.now().toISOString();
  const runId = id ?? (start.trigger === 'schedule' ? scheduledRunId(start.scheduledAt) : newId('run', deps.clock.now()));
  return newRunItem({
    id: runId,
    routine_id: routine.id,
    org_id: routine.org_id,
    workspace_id: routine.workspace_id,
    trigger: start.trigger,
    status: 'queued',
    conversation_id: conversationIdOf(routine.id, runId),
    scheduled_at: start.trigger === 'schedule' ? start.scheduledAt.toISOString() : null,
    delivery_id: start.trigger === 'webhook' ? start.deliveryId : null,
    started_by: start.trigger === 'manual' ? start.userId : null,
    ...(start.trigger === 'webhook' ? { payload: start.payload } : {}),
    created_at: now,
    started_at: null,
    finished_at: null,
    cost_usd: 0,
    approval_id: null,
    error: null,
  });
}

/**
 * Stores a run (only where none has its id) and queues its job; answers the run as stored (the
 * earlier one, for a scheduled time already started). The job is queued either way: a start whose
 * enqueue failed after the put is made good by the next firing of the same time.
 */
export async function startRun(deps: Deps, routine: RoutineItem, run: RunItem): Promise<RunItem> {
  const made = await putNew(deps.table, run);
  const stored = made ? run : ((await deps.table.get<RunItem>(runKey(run.routine_id, run.id), true)) ?? run);
  await deps.jobs.enqueue(runJobMessage(stored));
  if (made) await showLastRun(deps, routine.id, stored);
  return stored;
}

/** The routine's last run, as its view shows it (a deleted routine is not made again). */
export async function showLastRun(
  deps: Pick<Deps, 'table'>,
  routineId: string,
  run: Pick<RunFields, 'id' | 'status' | 'trigger' | 'created_at'>,
) {
  const { key, input } = lastRunShown(routineId, { id: run.id, status: run.status, trigger: run.trigger, created_at: run.created_at });
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/** A run as the API shows it (without the webhook's payload). */
export function runView(run: RunFields): RoutineRunView {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    conversation_id: run.conversation_id,
    scheduled_at: run.scheduled_at,
    delivery_id: run.delivery_id,
    started_by: run.started_by,
    created_at: run.created_at,
    started_at: run.started_at,
    finished_at: run.finished_at,
    duration_ms: run.duration_ms ?? null,
    cost_usd: run.cost_usd,
    approval_id: run.approval_id,
    error: run.error,
  };
}

/** The run's status once its approval is decided: answered after an approval or a denial, refused by an expiry. */
export function afterApproval(status: ApprovalStatus | undefined): Pick<RunFields, 'status' | 'error'> | undefined {
  if (status === 'approved' || status === 'denied') return { status: 'done', error: null };
  if (status === 'expired') return { status: 'failed', error: 'the tool call was not approved in time: an expired approval is a refusal' };
  return undefined;
}

/**
 * Runs waiting for an approval that has since been decided move on (the approval's resume answers
 * in the conversation; an expiry fails the run): one BatchGet of their approvals, and a conditional
 * write each, so the list shows where each run is.
 */
async function settleApprovals(deps: Deps, runs: RunItem[]): Promise<RunItem[]> {
  const waiting = runs.filter((run) => run.status === 'waiting_approval' && run.approval_id);
  if (!waiting.length) return runs;
  const approvals = await deps.table.batchGet<{ id: string; status: ApprovalStatus; decided_at?: string | null }>(
    waiting.map((run) => approvalKey(run.org_id, run.workspace_id, run.approval_id ?? '')),
  );
  const byId = new Map(approvals.map((approval) => [approval.id, approval]));
  return Promise.all(
    runs.map(async (run) => {
      const approval = run.status === 'waiting_approval' && run.approval_id ? byId.get(run.approval_id) : undefined;
      const next = afterApproval(approval?.status);
      if (!next) return run;
      const finishedAt = approval?.decided_at ?? deps.clock.now().toISOString();
      const { key, input } = runMoved(run, ['waiting_approval'], { ...next, finished_at: finishedAt });
      await unlessConditionFailed(deps.table.update(key, input), undefined);
      return { ...run, ...next, finished_at: finishedAt };
    }),
  );
}

/** The runs of a routine, newest first (at most `limit`). */
export async function listRuns(deps: Deps, routine: RoutineItem, limit = 50): Promise<RunItem[]> {
  const page = await deps.table.query<RunItem>({ ...runsOfRoutine(routine.id, limit), consistent: true });
  return settleApprovals(deps, page.items);
}
