import type { Deps } from '../deps.js';
import { isConditionFailed, type Key } from '../platform/table.js';

export const QUEUE_NAMES = ['lifecycle', 'cold-messages', 'conversation-stats'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(name: string): name is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(name);
}

/** `removed` is a drained job: kept (with a TTL) so a late delivery of it is recognised and dropped. */
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'removed';

/** What a queue carries: the ledger is the truth, the message only points at it. */
export interface JobMessage {
  jobId: string;
  queue: QueueName;
  orgId: string;
  data: Record<string, unknown>;
}

/** One job in the ledger (`JOB#<id>` / `JOB`). */
export interface JobItem extends Key {
  id: string;
  queue: QueueName;
  org_id: string;
  state: JobState;
  attempts: number;
  data: Record<string, unknown>;
  last_error: string | null;
  /** When a waiting or delayed job may run (ISO). */
  run_at: string;
  /** While active: when the claim lapses, so a job whose worker died can be claimed again. */
  lease_until?: string;
  created_at: string;
  updated_at: string;
  /** GSI1: jobs of one organisation, queue and state, by last change. */
  gsi1pk: string;
  gsi1sk: string;
  /** GSI2 (only while waiting, delayed or active): pending jobs of a queue, by run time. */
  gsi2pk?: string;
  gsi2sk?: string;
  ttl?: number;
}

/** Finished jobs are kept a week, then expire. */
const FINISHED_TTL_SECONDS = 7 * 24 * 3600;
/** States whose counters count jobs in that state now; `completed` is a running total instead. */
const GAUGES: readonly JobState[] = ['waiting', 'delayed', 'active', 'failed'];

export const jobKeys = {
  job: (jobId: string): Key => ({ pk: `JOB#${jobId}`, sk: 'JOB' }),
  byState: (orgId: string, queue: QueueName, state: JobState) => `JOBS#${orgId}#${queue}#${state}`,
  pending: (queue: QueueName) => `JOBPENDING#${queue}`,
  /** Per-organisation queue counters: attributes `<queue>#<state>`. */
  counters: (orgId: string): Key => ({ pk: `QSTAT#${orgId}`, sk: 'QUEUES' }),
};

const isPending = (state: JobState) => state === 'waiting' || state === 'delayed' || state === 'active';

function indexAttributes(orgId: string, queue: QueueName, id: string, state: JobState, at: string, runAt: string) {
  return {
    gsi1pk: jobKeys.byState(orgId, queue, state),
    gsi1sk: `${at}#${id}`,
    ...(isPending(state) ? { gsi2pk: jobKeys.pending(queue), gsi2sk: `${runAt}#${id}` } : {}),
  };
}

/** Adds to the queue counters of an organisation. */
export async function countJobs(deps: Deps, orgId: string, deltas: Partial<Record<`${QueueName}#${JobState}`, number>>): Promise<void> {
  const entries = Object.entries(deltas).filter(([, delta]) => delta);
  if (!entries.length) return;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts = entries.map(([name, delta], index) => {
    names[`#n${index}`] = name;
    values[`:v${index}`] = delta ?? 0;
    return `#n${index} :v${index}`;
  });
  await deps.table.update(jobKeys.counters(orgId), { update: `ADD ${parts.join(', ')}`, names, values });
}

function counterDeltas(queue: QueueName, from: JobState | undefined, to: JobState) {
  const deltas: Partial<Record<`${QueueName}#${JobState}`, number>> = {};
  if (from && GAUGES.includes(from)) deltas[`${queue}#${from}`] = -1;
  if (GAUGES.includes(to) || to === 'completed') deltas[`${queue}#${to}`] = (deltas[`${queue}#${to}`] ?? 0) + 1;
  return deltas;
}

/**
 * Records a new job (waiting, or delayed until `runAt`). The id is the idempotency key: a job
 * already in the ledger is not recorded again, and `false` says so — unless it was drained
 * (`removed`), which a new send replaces.
 */
export async function recordJob(deps: Deps, message: JobMessage, delayMs = 0): Promise<boolean> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const runAt = new Date(now.getTime() + Math.max(0, delayMs)).toISOString();
  const state: JobState = delayMs > 0 ? 'delayed' : 'waiting';
  const item: JobItem = {
    ...jobKeys.job(message.jobId),
    id: message.jobId,
    queue: message.queue,
    org_id: message.orgId,
    state,
    attempts: 0,
    data: message.data,
    last_error: null,
    run_at: runAt,
    created_at: at,
    updated_at: at,
    ...indexAttributes(message.orgId, message.queue, message.jobId, state, at, runAt),
  };
  if (!(await deps.table.putNew(item))) {
    // A drained job may be sent again (the sweep re-sends an overdue move): it replaces the removed one.
    try {
      await deps.table.put(item, { condition: '#state = :removed', names: { '#state': 'state' }, values: { ':removed': 'removed' } });
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }
  await countJobs(deps, message.orgId, counterDeltas(message.queue, undefined, state));
  return true;
}

export async function getJob(deps: Deps, jobId: string): Promise<JobItem | undefined> {
  return deps.table.get<JobItem>(jobKeys.job(jobId), true);
}

export interface TransitionOptions {
  /** States the job must be in (checked by the write's condition). */
  from: JobState[];
  to: JobState;
  /** Also allow claiming an active job whose lease has lapsed (its worker died). */
  lapsedLeaseBefore?: string;
  attempts?: 'increment' | 'reset';
  lastError?: string | null;
  runAt?: string;
  leaseUntil?: string;
}

/**
 * Moves a job between states with one conditional write on its current state (so two workers
 * can never both claim it, and a stale message is a no-op), then adjusts the queue counters.
 * Returns the job after the move, or undefined when it was not in an expected state.
 */
export async function transitionJob(deps: Deps, job: JobItem, options: TransitionOptions): Promise<JobItem | undefined> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const runAt = options.runAt ?? job.run_at;
  const index = indexAttributes(job.org_id, job.queue, job.id, options.to, at, runAt);
  const names: Record<string, string> = { '#state': 'state', '#updated': 'updated_at', '#run': 'run_at', '#g1pk': 'gsi1pk', '#g1sk': 'gsi1sk' };
  const values: Record<string, unknown> = { ':to': options.to, ':at': at, ':run': runAt, ':g1pk': index.gsi1pk, ':g1sk': index.gsi1sk };
  const sets = ['#state = :to', '#updated = :at', '#run = :run', '#g1pk = :g1pk', '#g1sk = :g1sk'];
  const removes: string[] = [];
  if (index.gsi2pk) {
    names['#g2pk'] = 'gsi2pk';
    names['#g2sk'] = 'gsi2sk';
    values[':g2pk'] = index.gsi2pk;
    values[':g2sk'] = index.gsi2sk;
    sets.push('#g2pk = :g2pk', '#g2sk = :g2sk');
  } else {
    removes.push('gsi2pk', 'gsi2sk');
  }
  if (options.attempts === 'increment') sets.push('attempts = attempts + :one'), (values[':one'] = 1);
  if (options.attempts === 'reset') sets.push('attempts = :zero'), (values[':zero'] = 0);
  if (options.lastError !== undefined) sets.push('last_error = :error'), (values[':error'] = options.lastError);
  if (options.leaseUntil) sets.push('lease_until = :lease'), (values[':lease'] = options.leaseUntil);
  else removes.push('lease_until');
  if (options.to === 'completed' || options.to === 'removed') {
    names['#ttl'] = 'ttl';
    values[':ttl'] = Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS;
    sets.push('#ttl = :ttl');
  } else removes.push('#ttl'), (names['#ttl'] = 'ttl');
  const allowed = options.from.map((_, i) => `:from${i}`);
  options.from.forEach((state, i) => (values[`:from${i}`] = state));
  let condition = `#state IN (${allowed.join(', ')})`;
  if (options.lapsedLeaseBefore) {
    values[':active'] = 'active';
    values[':lapsed'] = options.lapsedLeaseBefore;
    condition = `(${condition}) OR (#state = :active AND lease_until < :lapsed)`;
  }
  try {
    // ALL_OLD: the counters move from the state the job really was in, not the one read earlier.
    const previous = await deps.table.updateReturningOld<JobItem>(jobKeys.job(job.id), {
      update: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      condition: `attribute_exists(pk) AND (${condition})`,
      names,
      values,
    });
    if (!previous) return undefined;
    await countJobs(deps, job.org_id, counterDeltas(job.queue, previous.state, options.to));
    const attempts =
      options.attempts === 'increment' ? previous.attempts + 1 : options.attempts === 'reset' ? 0 : previous.attempts;
    return {
      ...previous,
      ...index,
      state: options.to,
      attempts,
      run_at: runAt,
      updated_at: at,
      last_error: options.lastError !== undefined ? options.lastError : previous.last_error,
      lease_until: options.leaseUntil,
    };
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

export function messageOf(job: JobItem): JobMessage {
  return { jobId: job.id, queue: job.queue, orgId: job.org_id, data: job.data };
}
