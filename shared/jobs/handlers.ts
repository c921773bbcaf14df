import { coldNoticeHandler } from '../conversations/cold-notice.js';
import { lifecycleHandler } from '../conversations/lifecycle.js';
import { conversationStatsHandler } from '../conversations/stats-job.js';
import type { JobHandlers } from './worker.js';

/** The handler of each queue. */
export const jobHandlers: JobHandlers = {
  lifecycle: lifecycleHandler,
  'cold-messages': coldNoticeHandler,
  'conversation-stats': conversationStatsHandler,
};
