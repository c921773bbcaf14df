import { z } from 'zod';
import type { JobHandler } from '../jobs/index.js';
import { conversationKey } from './entities.js';

export const COLD_NOTICE =
  'This conversation has gone quiet, so I am putting it on hold. Reply in this thread to pick it up again; ' +
  'otherwise it will be closed.';

export const ColdNoticeSchema = z.object({ workspaceId: z.string().min(1), conversationId: z.string().min(1) });
export type ColdNoticeJob = z.infer<typeof ColdNoticeSchema>;

/**
 * The `cold-messages` queue's handler: posts a short notice into the team-chat thread of a
 * conversation that went cold. Skipped when the conversation is no longer cold (a reply came) or
 * has no thread. Posting twice is prevented by the job id (one job per cold spell).
 */
export const coldNoticeHandler: JobHandler<ColdNoticeJob> = {
  schema: ColdNoticeSchema,
  async run(deps, data, job) {
    const conversation = await deps.table.get(conversationKey(job.org_id, data.workspaceId, data.conversationId), true);
    if (conversation?.status !== 'cold') return;
    const channelId = conversation.chat_channel_id;
    const threadTs = conversation.chat_thread_ts;
    if (typeof channelId !== 'string' || typeof threadTs !== 'string') return;
    await deps.chat.postInThread(job.org_id, channelId, threadTs, COLD_NOTICE);
  },
};
