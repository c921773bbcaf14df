import { z } from 'zod';
import { channelsOf } from '../chat/index.js';
import type { JobHandler, JobMessage } from '../jobs/index.js';
import { hasErrorCode } from '../platform/errors.js';
import { createGuardedFetch } from '../platform/url-policy.js';
import type { RunFields } from './entities.js';
import { findRoutine, openWebhookUrl } from './store.js';

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
});
export type RoutineDeliveryJob = z.infer<typeof RoutineDeliverySchema>;

/** The webhook's answer is not read; the POST waits at most 10 s. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer a delivery carries (the whole answer is in the conversation). */
const MAX_DELIVERED_ANSWER = 100_000;

/** The delivery job of a run's answer: its id is the run's, so a run's answer is delivered once. */
export function deliveryMessage(
  run: Pick<RunFields, 'org_id' | 'routine_id' | 'id' | 'conversation_id' | 'trigger'>,
  answer: string,
): JobMessage {
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
    } satisfies RoutineDeliveryJob,
  };
}

/** The handler of a routine's delivery (on the outgoing-messages queue). */
export const routineDeliveryHandler: JobHandler<RoutineDeliveryJob> = {
  schema: RoutineDeliverySchema,
  async run(deps, data, job) {
    const routine = await findRoutine(deps, data.routineId);
    if (!routine || routine.org_id !== job.org_id) return;
    const url = await openWebhookUrl(deps, routine);
    if (url) {
      const { fetch, close } = createGuardedFetch(deps.config.mcpAllowPrivateUrls);
      try {
        const body = {
          type: 'routine_run',
          routine: { id: routine.id, name: routine.name, workspace_id: routine.workspace_id },
          run: { id: data.runId, trigger: data.trigger, conversation_id: data.conversationId },
          answer: data.answer,
        };
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`the routine's webhook answered ${response.status}`);
      } finally {
        await close();
      }
    }
    if (!routine.deliver_channel) return;
    const text = `Routine "${routine.name}":\n${data.answer}`;
    for (const channel of await channelsOf(deps, routine.org_id, routine.workspace_id)) {
      await deps.chat.postInThread(routine.org_id, channel.channel_id, '', text).catch((error: unknown) => {
        // An organisation without team chat gets the webhook only.
        if (!hasErrorCode(error, 'not_connected')) throw error;
      });
    }
  },
};
