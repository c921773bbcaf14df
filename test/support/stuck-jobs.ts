import type { Deps } from '../../shared/deps.js';
import { redeliverStuckJobs } from '../../shared/jobs/ops.js';

/** The ids of the jobs the sweep of stuck jobs sends again (caught, not delivered), each as often as sent. */
export async function stuckJobsSent(deps: Deps): Promise<string[]> {
  const redelivered: string[] = [];
  const redeliver = deps.jobs.redeliver.bind(deps.jobs);
  deps.jobs.redeliver = async (message) => {
    redelivered.push(message.jobId);
  };
  try {
    await redeliverStuckJobs(deps);
  } finally {
    deps.jobs.redeliver = redeliver;
  }
  return redelivered;
}
