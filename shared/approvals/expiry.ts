import { z } from 'zod';
import type { Deps } from '../deps.js';
import { type JobMessage, scheduleName } from '../jobs/index.js';

/*
 * An approval that nobody decides expires: a timed move like a conversation's, sent by a one-time
 * schedule on the lifecycle queue, with the store's due index as the backstop (the periodic sweep
 * on AWS, the local scheduler's wake-ups). The job itself is `expire-job.ts`.
 */

/** Shards of the approvals' due index (one written when there were 2 stays in its shard, which is read with the rest). */
export const APPROVAL_DUE_SHARDS = 32;
/** The due index's status name for approvals (conversations use open and cold). */
export const APPROVAL_DUE_STATUS = 'approval';

export const ApprovalExpiryJobSchema = z.object({
  workspaceId: z.string().min(1),
  approvalId: z.string().min(1),
  move: z.literal('expire-approval'),
});
export type ApprovalExpiryJob = z.infer<typeof ApprovalExpiryJobSchema>;

/** The expiry job of an approval; its id is deterministic, so the schedule, the sweep and retries name one job. */
export function expiryMessage(orgId: string, workspaceId: string, approvalId: string): JobMessage {
  return {
    jobId: `expire-approval-${orgId}-${workspaceId}-${approvalId}`,
    queue: 'lifecycle',
    orgId,
    data: { workspaceId, approvalId, move: 'expire-approval' } satisfies ApprovalExpiryJob,
  };
}

export async function scheduleExpiry(deps: Deps, orgId: string, workspaceId: string, approvalId: string, at: Date): Promise<void> {
  await deps.scheduler.schedule(
    scheduleName('expire-approval', orgId, workspaceId, approvalId),
    at,
    expiryMessage(orgId, workspaceId, approvalId),
  );
}
