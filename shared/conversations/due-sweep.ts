import type { Deps } from '../deps.js';
import { keys } from '../platform/keys.js';
import { type Key, unlessConditionFailed } from '../platform/table.js';
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

/**
 * A partition of the due index, and what its entries are: conversations of a status, or approvals.
 * `lazy`: GSI5's open conversations, whose entries carry the keys alone and can stand earlier than
 * the real due time (conversations/lifecycle.ts `openDueIndex`).
 */
interface DuePartition {
  index: 'gsi3' | 'gsi4' | 'gsi5';
  pk: string;
  holds: 'open' | 'cold' | 'approval';
}

/**
 * Every partition of the due index: open conversations' in GSI5 and cold ones' in GSI4 (`shards`
 * of each), then those written before (open ones in GSI4, both in GSI3); approvals' in GSI3.
 */
function duePartitions(shards: number): DuePartition[] {
  const partitions = (index: DuePartition['index'], holds: DuePartition['holds'], count: number, status: string = holds) =>
    Array.from({ length: count }, (_, shard) => ({ index, holds, pk: keys.dueIndex(status, shard) }));
  return [
    ...partitions('gsi5', 'open', shards),
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

/** A lazy entry (GSI5): the conversation's keys, and the time it stands at. */
type LazyEntry = Key & { gsi5sk: string };

/** When an entry of `partition` falls due, as its index sorts it. */
function dueTimeOf(partition: DuePartition, entry: DueEntry | LazyEntry): number {
  return Date.parse(partition.index === 'gsi5' ? (entry as LazyEntry).gsi5sk : (entry as DueEntry).due_at);
}

/** What the sweep reads of a conversation whose lazy entry fell due. */
interface DueConversation extends DueEntry {
  status?: string;
}

/**
 * Settles the lazy entries found due at `now`: reads their conversations (one BatchGetItem), and
 * answers those really due (open, `due_at` passed) as entries to send the cold move for. An entry
 * found early (the conversation had questions since) is moved to the conversation's due time, and
 * one whose conversation is no longer open (none should be: its moves take it out) is taken out.
 */
async function settleLazy(deps: DueMoveDeps, entries: LazyEntry[], now: Date): Promise<DueEntry[]> {
  if (!entries.length) return [];
  const conversations = await deps.table.batchGet<DueConversation & Key>(entries.map(({ pk, sk }) => ({ pk, sk })));
  const due: DueEntry[] = [];
  await Promise.all(
    conversations.map(async (conversation) => {
      const key = { pk: conversation.pk, sk: conversation.sk };
      const open = conversation.status === 'open' && typeof conversation.due_at === 'string';
      if (open && Date.parse(conversation.due_at) <= now.getTime()) {
        due.push(conversation);
        return;
      }
      const write = open
        ? {
            update: 'SET gsi5sk = due_at',
            condition: '#status = :open AND due_at = :due',
            values: { ':open': 'open', ':due': conversation.due_at },
          }
        : { update: 'REMOVE gsi5pk, gsi5sk', condition: 'attribute_exists(pk) AND #status <> :open', values: { ':open': 'open' } };
      await unlessConditionFailed(deps.table.update(key, { ...write, names: { '#status': 'status' } }), undefined);
    }),
  );
  return due;
}

/** What sending due moves uses: the due index and the job queue (the local scheduler is built before the deps). */
export type DueMoveDeps = Pick<Deps, 'table' | 'clock' | 'jobs'> & { config: Pick<Deps['config'], 'dueIndexShards'> };

/** Reads what is due at `now` in `partitions`, all at once, and sends each move; answers how many were sent. */
async function sendMovesIn(deps: DueMoveDeps, partitions: DuePartition[], now: Date): Promise<number> {
  const upTo = keys.afterTime(now.toISOString());
  const found = await Promise.all(
    partitions.map(async ({ holds, ...partition }) =>
      (await deps.table.queryAll<DueEntry & LazyEntry>({ ...partition, sk: { lte: upTo } })).map((entry) => ({
        holds,
        lazy: partition.index === 'gsi5',
        entry,
      })),
    ),
  );
  const lazy = found.flat().filter((found) => found.lazy);
  const settled = await settleLazy(
    deps,
    lazy.map(({ entry }) => entry),
    now,
  );
  const entries = [...found.flat().filter((found) => !found.lazy), ...settled.map((entry) => ({ holds: 'open' as const, entry }))];
  let sent = 0;
  for (const { holds, entry } of entries) {
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
  return Math.min(...firsts.flatMap((page, at) => page.items.map((item) => dueTimeOf(partitions[at] as DuePartition, item))));
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
  const earliest = firsts.map((page, at) =>
    page.items[0] ? dueTimeOf(partitions[at] as DuePartition, page.items[0]) : Number.POSITIVE_INFINITY,
  );
  const due = partitions.filter((_, at) => (earliest[at] ?? Number.POSITIVE_INFINITY) <= now.getTime());
  const waiting = Math.min(...earliest.filter((time) => time > now.getTime()));
  if (!due.length) return dateOrUndefined(waiting);
  await sendMovesIn(deps, due, now);
  return dateOrUndefined(Math.min(waiting, await earliestAfter(deps, due, now)));
}
