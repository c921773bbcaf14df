import { keys } from '../platform/keys.js';
import type { Key, Table } from '../platform/table.js';
import type { JobItem, QueueName } from './ledger-types.js';
import { PENDING_SHARDS, pendingPartitions } from './shards.js';

/*
 * A queue's pending jobs (waiting, delayed, active), for a drain, the sweep of stuck jobs and the
 * local runtime's start. They are in GSI5's `JOBPENDING#<queue>#<n>` (by run time), which carries
 * the keys and the organisation alone: recording a job puts its entry and finishing it takes it
 * out, while a claim, which changes neither its keys nor its organisation, writes none (it updated
 * a whole copy in GSI2 before, docs/capacity.md). So the jobs are read by key after their entries
 * (one BatchGetItem). Jobs recorded before are still in GSI2 (whole items) until their next move.
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
  const filter = options.orgId ? { filter: 'org_id = :org', values: { ':org': options.orgId } } : {};
  const [entries, before] = await Promise.all([
    Promise.all(
      Array.from({ length: PENDING_SHARDS }, (_, shard) =>
        table.queryAll<Key>({ index: 'pending', pk: keys.pendingJobsIndex(queue, shard), ...sk, ...filter }),
      ),
    ),
    Promise.all(pendingPartitions(queue).map((pk) => table.queryAll<JobItem>({ index: 'lookups', pk, ...sk, ...filter }))),
  ]);
  const jobs = await table.batchGet<JobItem>(entries.flat().map(({ pk, sk }) => ({ pk, sk })));
  // A job moved from GSI2 to GSI5 since may be read twice: once, as the table holds it.
  const byId = new Map([...before.flat(), ...jobs].map((job) => [job.id, job]));
  return [...byId.values()].filter((job) => PENDING_STATES.has(job.state));
}
