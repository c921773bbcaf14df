import type { Key } from '../platform/table.js';

/* The job ledger's items and names, shared by the ledger (ledger.ts) and its entities (entities.ts). */

/**
 * `evals`: an evaluation's cases, on a queue of their own so that a run of many cannot hold the others' jobs;
 * `routines`: the runs of routines (shared/routines), which a schedule of many routines can start by the hundred in a minute.
 */
export const QUEUE_NAMES = ['lifecycle', 'cold-messages', 'conversation-stats', 'evals', 'knowledge', 'routines'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(name: string): name is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(name);
}

/**
 * When a queue's jobs are written to the ledger: a property of the queue alone, the same for every
 * job it carries (docs/operations.md, Queues).
 *
 * - `recorded-when-sent`: recorded (waiting or delayed, in the pending index) before the message
 *   goes; its delivery claims it there.
 * - `recorded-on-failure`: the timed moves (a conversation's cold and close, an approval's expiry).
 *   Each is one conditional write on the state it expects, so a repeated or stale delivery does
 *   nothing, and the due index holds every move not made yet; the ledger's three writes, their
 *   index entries and three counter writes per move (about 11 WCU) bought nothing the move does not
 *   have. A delivery reads the ledger: a move not there runs at once and adds one to its queue's
 *   `completed`; one that fails is recorded then (attempts, backoff, `failed`, retry-all: as any
 *   job), and one there goes the ledger's way.
 * - `claimed-on-delivery`: the conversation statistics. Sending one counts it waiting (a drain is
 *   a time: jobs/drains.ts); the delivery's claim puts it in the ledger, active, outside the
 *   pending index and with a finished job's TTL, and counts it active; the outcome is counted when
 *   the stats are written, the item not written again (it stays `active` until its TTL, and a later
 *   delivery finds the stats written and does nothing). What replaces the ledger's record of a job
 *   waiting to run, in case its message is lost (the local runtime stopped, a send failed), is the
 *   closed conversation's entry in the due index, which sends it again
 *   (sweep/due-sweep.ts). A failure goes on through the ledger (delayed, failed,
 *   retry-all) as any job's. Three writes and two index entries per job fewer than recording it
 *   (docs/capacity.md).
 */
export type DeliveryMode = 'recorded-when-sent' | 'recorded-on-failure' | 'claimed-on-delivery';

/** The queue definitions: each queue's delivery mode, declared once. */
const QUEUES: Record<QueueName, { delivery: DeliveryMode }> = {
  lifecycle: { delivery: 'recorded-on-failure' },
  'cold-messages': { delivery: 'recorded-when-sent' },
  'conversation-stats': { delivery: 'claimed-on-delivery' },
  evals: { delivery: 'recorded-when-sent' },
  knowledge: { delivery: 'recorded-when-sent' },
  routines: { delivery: 'recorded-when-sent' },
};

/** When the jobs of `queue` are written to the ledger. */
export const deliveryModeOf = (queue: QueueName): DeliveryMode => QUEUES[queue].delivery;

/** The queue counters' attribute holding the time of a queue's last drain (jobs/drains.ts). */
export const drainedAttribute = (queue: QueueName) => `${queue}#drained_at` as const;

/** `removed` is a drained job: kept (with a TTL) so a late delivery of it is recognised and dropped. */
export const JOB_STATES = ['waiting', 'delayed', 'active', 'completed', 'failed', 'removed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** What a queue carries: the ledger is the truth, the message only points at it. */
export interface JobMessage {
  jobId: string;
  queue: QueueName;
  orgId: string;
  data: Record<string, unknown>;
  /** When a job of a `claimed-on-delivery` queue was sent (counted waiting): a drain after it drops it. */
  sentAt?: string;
  /** Sent again by a runtime that started after the one that held it stopped: its claim is taken over, whatever its lease. */
  takeover?: boolean;
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
  /** `listings` (only while failed): the organisation's failed jobs of the queue, by the time they failed (entities.ts). */
  gsi1pk?: string;
  gsi1sk?: string;
  /** `pending` (only while waiting, delayed or active): pending jobs of a queue, by run time (pending.ts). */
  gsi5pk?: string;
  gsi5sk?: string;
  ttl?: number;
}

/** Finished jobs are kept a week, then expire. */
export const FINISHED_TTL_SECONDS = 7 * 24 * 3600;
/** States whose counters count jobs in that state now; `completed` is a running total instead. */
export const GAUGES: readonly JobState[] = ['waiting', 'delayed', 'active', 'failed'];

/** A queue counter attribute of an organisation's counters item. */
export type CounterName = `${QueueName}#${JobState}`;
export const COUNTER_NAMES: readonly CounterName[] = QUEUE_NAMES.flatMap((queue) =>
  JOB_STATES.map((state) => `${queue}#${state}` as const),
);

/** A move of a job that is not its claim (the claim is `claimUpdate`, entities.ts): the lease, if any, is given up. */
export interface TransitionOptions {
  /** States the job must be in (checked by the write's condition). */
  from: JobState[];
  to: JobState;
  /** `decrement`: a job sent back before it could run (a limit of its organisation) takes back its claim's attempt. */
  attempts?: 'decrement' | 'reset';
  lastError?: string | null;
  runAt?: string;
}

/** The times of a claim (ISO). */
export interface ClaimTimes {
  at: string;
  /** A delayed job is claimed only if its run time is before this (a little after `at`). */
  dueBy: string;
  /** An active job is claimed only if its lease lapsed before this (its worker died). */
  lapsedBefore: string;
  leaseUntil: string;
}
