import { z } from 'zod';
import type { Deps } from '../deps.js';
import { approvalThreads, postInWorkspaceChannels } from '../chat/index.js';
import type { JobHandler, JobMessage } from '../jobs/index.js';
import { postNotice } from '../platform/webhooks.js';
import type { RunFields } from './entities.js';
import { findRoutine, openWebhookUrl, type RoutineItem } from './store.js';

/*
 * Where a routine's answer goes besides its conversation (CONTRACT.md, "Routines"): a POST to its
 * webhook URL, through the address policy every outgoing request of a tenant's goes through (the
 * guarded fetch: no link-local or metadata addresses, private ones only where allowed), and a
 * message in each team-chat channel bound to its workspace. A job on the outgoing-messages queue
 * (`cold-messages`, as a budget's alert), so a receiver that is down is retried without asking the
 * model again; a retry may post to a receiver that took the first attempt (at least once).
 */

export const RoutineDeliverySchema = z.object({
  kind: z.literal('routine-delivery'),
  routineId: z.string().min(1),
  runId: z.string().min(1),
  conversationId: z.string().min(1),
  trigger: z.string(),
  answer: z.string(),
  /** The approval the run waited on last: its channel messages are where the answer goes on (their threads). */
  approvalId: z.string().optional(),
});
export type RoutineDeliveryJob = z.infer<typeof RoutineDeliverySchema>;

/** How much of an answer a delivery carries (the whole answer is in the conversation). */
const MAX_DELIVERED_ANSWER = 100_000;

/** The run whose answer is delivered (`approval_id`: the approval it waited on, if it did). */
type DeliveredRun = Pick<RunFields, 'org_id' | 'routine_id' | 'id' | 'conversation_id' | 'trigger' | 'approval_id'>;

/** The delivery job of a run's answer: its id is the run's, so a run's answer is delivered once. */
function deliveryMessage(run: DeliveredRun, answer: string): JobMessage {
  return {
    jobId: `routine-delivery-${run.routine_id}-${run.id}`,
    queue: 'cold-messages',
    orgId: run.org_id,
    data: {
      kind: 'routine-delivery',
      routineId: run.routine_id,
      runId: run.id,
      conversationId: run.conversation_id,
      trigger: run.trigger,
      answer: answer.slice(0, MAX_DELIVERED_ANSWER),
      ...(run.approval_id ? { approvalId: run.approval_id } : {}),
    } satisfies RoutineDeliveryJob,
  };
}

/** Queues a done run's answer where its routine delivers besides the conversation (nothing when it does not). */
export async function deliverAnswer(
  deps: Pick<Deps, 'jobs'>,
  routine: Pick<RoutineItem, 'deliver_channel' | 'webhook_url'>,
  run: DeliveredRun,
  answer: string,
): Promise<void> {
  if (routine.deliver_channel || routine.webhook_url) await deps.jobs.enqueue(deliveryMessage(run, answer));
}

/** The handler of a routine's delivery (on the outgoing-messages queue). */
export const routineDeliveryHandler: JobHandler<RoutineDeliveryJob> = {
  schema: RoutineDeliverySchema,
  async run(deps, data, job) {
    const routine = await findRoutine(deps, data.routineId);
    if (!routine || routine.org_id !== job.org_id) return;
    const url = await openWebhookUrl(deps, routine);
    if (url) {
      const body = {
        type: 'routine_run',
        routine: { id: routine.id, name: routine.name, workspace_id: routine.workspace_id },
        run: { id: data.runId, trigger: data.trigger, conversation_id: data.conversationId },
        answer: data.answer,
      };
      await postNotice(url, body, { allowPrivate: deps.config.mcpAllowPrivateUrls, receiver: "the routine's webhook" });
    }
    if (routine.deliver_channel) {
      const threads = data.approvalId ? await approvalThreads(deps, routine.org_id, data.approvalId) : undefined;
      await postInWorkspaceChannels(deps, routine.org_id, routine.workspace_id, `Routine "${routine.name}":\n${data.answer}`, threads);
    }
  },
};
