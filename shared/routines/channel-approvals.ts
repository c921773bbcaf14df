import { z } from 'zod';
import type { Deps } from '../deps.js';
import { postApprovalInWorkspaceChannels, showDecisionInChannels } from '../chat/index.js';
import type { JobHandler } from '../jobs/index.js';
import type { RoutineItem } from './store.js';

/*
 * A routine's approval where the routine delivers (issue 50, "Runs"): a run paused on a call that
 * needs approval asks it, with Approve / Deny buttons, in the team-chat channels bound to its
 * workspace when the routine delivers there (`deliver_to.channel`); once decided (a button, the API,
 * the expiry) each message shows the decision, and the answer goes on in its thread (delivery.ts).
 * Jobs on the outgoing-messages queue, as the answer's delivery: a platform that is down is tried
 * again, and a press decides as in a thread (chat-bot/approval-buttons.ts).
 */

export const RoutineApprovalSchema = z.object({
  kind: z.literal('routine-approval'),
  workspaceId: z.string().min(1),
  approvalId: z.string().min(1),
  /** `ask`: post the approval; `decided`: show its decision on what was posted. */
  step: z.enum(['ask', 'decided']),
});
export type RoutineApprovalJob = z.infer<typeof RoutineApprovalSchema>;

/** Queues a step of a routine's approval in its channels (nothing when the routine does not deliver there); once per approval and step. */
export async function tellChannelsOfApproval(
  deps: Pick<Deps, 'jobs'>,
  routine: Pick<RoutineItem, 'org_id' | 'workspace_id' | 'deliver_channel'>,
  approvalId: string,
  step: RoutineApprovalJob['step'],
): Promise<void> {
  if (!routine.deliver_channel) return;
  await deps.jobs.enqueue({
    jobId: `routine-approval-${approvalId}-${step}`,
    queue: 'cold-messages',
    orgId: routine.org_id,
    data: { kind: 'routine-approval', workspaceId: routine.workspace_id, approvalId, step } satisfies RoutineApprovalJob,
  });
}

/** The handler of a routine's approval in its channels (on the outgoing-messages queue). */
export const routineApprovalHandler: JobHandler<RoutineApprovalJob> = {
  schema: RoutineApprovalSchema,
  async run(deps, data, job) {
    if (data.step === 'ask') await postApprovalInWorkspaceChannels(deps, job.org_id, data.workspaceId, data.approvalId);
    else await showDecisionInChannels(deps, job.org_id, data.approvalId);
  },
};
