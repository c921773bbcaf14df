import type { Key, Table } from '../platform/table.js';
import { keys } from '../platform/keys.js';
import { pendingJobShards } from './entities.js';
import type { JobItem, QueueName } from './ledger-types.js';

/*
 * A queue's pending jobs (waiting, delayed, active), for a drain, the sweep of stuck jobs and the
 * local runtime's start. They are in `pending`'s `JOBPENDING#<queue>#<n>` (by run time), which
 * carries the keys and the organisation alone: recording a job puts its entry and finishing it
 * takes it out, while a claim, which changes neither its keys nor its organisation, writes none
 * (docs/capacity.md). So the jobs are read by key after their entries (one BatchGetItem).
 */

const PENDING_STATES = new Set(['waiting', 'delayed', 'active']);

/**
 * The pending jobs of `queue`: of one organisation (`orgId`, a filter on the index), or due to
 * run before `runBefore`, or all; each once, as the table holds it now.
 */
export async function pendingJobs(
  table: Table,
  queue: QueueName,
  options: { orgId?: string; runBefore?: string } = {},
): Promise<JobItem[]> {
  const sk = options.runBefore ? { sk: { lte: keys.afterTime(options.runBefore) } } : {};
  const entries = await Promise.all(pendingJobShards(queue, options.orgId).map((shard) => table.queryAll<Key>({ ...shard, ...sk })));
  // An entry moved between shards while they were read may be found twice: the BatchGet reads each job once.
  const jobs = await table.batchGet<JobItem>(entries.flat().map(({ pk, sk }) => ({ pk, sk })));
  return jobs.filter((job) => PENDING_STATES.has(job.state));
}
