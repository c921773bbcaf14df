import type { Deps } from '../deps.js';
import { keys } from '../platform/keys.js';
import { APPROVAL_DUE_SHARDS, APPROVAL_DUE_STATUS, expiryMessage } from '../approvals/expiry.js';
import { lifecycleMessage, type LifecycleJob } from './lifecycle.js';

/*
 * The backstop of timed moves: open and cold conversations (and pending approvals) carry their due
 * time in a due index, where a sweep finds what is overdue because a schedule was lost (AWS: the
 * jobs function every minute) and the local scheduler finds when to wake up next.
 */

/**
 * Conversations written before the due index had its own projection are in GSI3 (`DUE#<status>#<n>`,
 * 32 shards, and 4 before that): read with the rest until their next move takes them out.
 */
const LEGACY_DUE_SHARDS = 32;

/** A partition of the due index, and what its entries are: conversations of a status, or approvals. */
interface DuePartition {
  index: 'gsi3' | 'gsi4';
  pk: string;
  holds: 'open' | 'cold' | 'approval';
}

/** Every partition of the due index: conversations' in GSI4 (`shards` of them), then GSI3's of before; approvals' in GSI3. */
function duePartitions(shards: number): DuePartition[] {
  const partitions = (index: DuePartition['index'], holds: DuePartition['holds'], count: number, status: string = holds) =>
    Array.from({ length: count }, (_, shard) => ({ index, holds, pk: keys.dueIndex(status, shard) }));
  return [
    ...(['open', 'cold'] as const).flatMap((status) => [
      ...partitions('gsi4', status, shards),
      ...partitions('gsi3', status, LEGACY_DUE_SHARDS),
    ]),
    ...partitions('gsi3', 'approval', APPROVAL_DUE_SHARDS, APPROVAL_DUE_STATUS),
  ];
}

/**
 * What the due index carries of a conversation (its projection, shared/platform/table.ts), and of
 * an approval (approvals/expiry.ts): the ids, and the due time the sort key starts with.
 */
interface DueEntry {
  org_id: string;
  workspace_id: string;
  id: string;
  last_activity_at?: string;
  due_at: string;
}

/** What sending due moves uses: the due index and the job queue (the local scheduler is built before the deps). */
export type DueMoveDeps = Pick<Deps, 'table' | 'clock' | 'jobs'> & { config: Pick<Deps['config'], 'dueIndexShards'> };

/** Reads what is due at `now` in `partitions`, all at once, and sends each move; answers how many were sent. */
async function sendMovesIn(deps: DueMoveDeps, partitions: DuePartition[], now: Date): Promise<number> {
  const upTo = keys.afterTime(now.toISOString());
  const found = await Promise.all(
    partitions.map(async ({ holds, ...partition }) =>
      (await deps.table.queryAll<DueEntry>({ ...partition, sk: { lte: upTo } })).map((entry) => ({ holds, entry })),
    ),
  );
  let sent = 0;
  for (const { holds, entry } of found.flat()) {
    const message =
      holds === 'approval'
        ? expiryMessage(entry.org_id, entry.workspace_id, entry.id)
        : lifecycleMessage(entry.org_id, {
            workspaceId: entry.workspace_id,
            conversationId: entry.id,
            move: holds === 'open' ? 'cold' : 'close',
            lastActivityAt: String(entry.last_activity_at),
          } satisfies LifecycleJob);
    if (await deps.jobs.enqueue(message)) sent += 1;
  }
  return sent;
}

/** The earliest due time after `after` in `partitions` (one Query of one entry each), or undefined. */
async function earliestAfter(deps: DueMoveDeps, partitions: DuePartition[], after: Date): Promise<number> {
  // Sort keys are `<due ISO time>#…`, so this skips everything due at `after`.
  const from = keys.afterTime(after.toISOString());
  const firsts = await Promise.all(
    partitions.map(({ holds: _, ...partition }) => deps.table.query<DueEntry>({ ...partition, sk: { gte: from }, limit: 1 })),
  );
  // due_at is written with the index attributes, and holds the same time.
  return Math.min(...firsts.flatMap((page) => page.items.map((item) => Date.parse(item.due_at))));
}

const dateOrUndefined = (time: number) => (Number.isFinite(time) ? new Date(time) : undefined);

/**
 * How long after its due time the AWS sweep leaves a move to its schedule: a schedule fires within
 * seconds, and a move is in the ledger only once it failed (jobs/ledger-types.ts,
 * RECORDED_ON_FAILURE), so a sweep that also sent a move firing just then would make it twice
 * (a conditional write that finds it made: no harm, but writes).
 */
export const SCHEDULE_GRACE_MS = 60_000;

/**
 * Finds conversations whose move is overdue (a lost schedule, a restart of the local runtime), and
 * approvals past their time whose expiry was not sent, and sends their moves. One Query per
 * partition of the due index, all at once; each move is a conditional write on the state it expects,
 * and a move already in the ledger (it failed) is not sent again, so a move already on its way is
 * harmless.
 */
export async function sweepOverdue(deps: DueMoveDeps, at: Date = deps.clock.now()): Promise<number> {
  return sendMovesIn(deps, duePartitions(deps.config.dueIndexShards), at);
}

/** The earliest due time after `after` among open and cold conversations and approvals: where the local scheduler sleeps to. */
export async function nextDueAt(deps: DueMoveDeps, after: Date): Promise<Date | undefined> {
  return dateOrUndefined(await earliestAfter(deps, duePartitions(deps.config.dueIndexShards), after));
}

/**
 * The local scheduler's wake-up: sends every move due at `now`, answers when the next one is due.
 * One Query of one entry per partition, its earliest: only a partition whose earliest is due is
 * read further (everything due in it, then its first entry after `now`).
 */
export async function sendDueMoves(deps: DueMoveDeps, now: Date): Promise<Date | undefined> {
  const partitions = duePartitions(deps.config.dueIndexShards);
  const firsts = await Promise.all(partitions.map(({ holds: _, ...partition }) => deps.table.query<DueEntry>({ ...partition, limit: 1 })));
  const earliest = firsts.map((page) => (page.items[0] ? Date.parse(page.items[0].due_at) : Number.POSITIVE_INFINITY));
  const due = partitions.filter((_, at) => (earliest[at] ?? Number.POSITIVE_INFINITY) <= now.getTime());
  const waiting = Math.min(...earliest.filter((time) => time > now.getTime()));
  if (!due.length) return dateOrUndefined(waiting);
  await sendMovesIn(deps, due, now);
  return dateOrUndefined(Math.min(waiting, await earliestAfter(deps, due, now)));
}
