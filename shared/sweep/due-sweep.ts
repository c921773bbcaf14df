import type { Deps } from '../deps.js';
import { keys } from '../platform/keys.js';
import { type Key, type QueryInput, unlessConditionFailed } from '../platform/table.js';
import { expiringApprovals, APPROVAL_DUE_SHARDS, expiryMessage } from '../approvals/index.js';
import {
  closingConversations,
  pendingConversations,
  pendingEntryMoved,
  pendingEntryMovedToDue,
  pendingEntryRemoval,
  pendingEntryTime,
  lifecycleMessage,
  STATS_BACKSTOP_MS,
  statsMessage,
  type LifecycleJob,
} from '../conversations/index.js';
import { drainedAt, type JobMessage } from '../jobs/index.js';
import { dueRoutines, fireMessage, moveNextRun, ROUTINE_DUE_SHARDS } from '../routines/index.js';

/*
 * The backstop of timed moves: open and cold conversations (and pending approvals) carry their due
 * time in a due index, where a sweep finds what is overdue because a schedule was lost (AWS: the
 * jobs function every minute) and the local scheduler finds when to wake up next.
 */

/**
 * A partition of the due indexes, and what its entries are: conversations waiting for a move or
 * their statistics, or approvals. The entries of `pending` (open conversations, closed ones
 * awaiting their stats) carry the keys and the organisation alone, and an open one's can stand
 * earlier than the real due time (entities.ts `pendingEntry`): the sweep reads their
 * conversations (`settleLazy`). A partition is queried as it is: `Table.query` reads only the
 * fields of `QueryInput`, not `holds`.
 */
type DuePartition = QueryInput &
  (
    | { index: 'pending'; holds: 'open' | 'stats' }
    | { index: 'closes'; holds: 'cold' }
    | { index: 'approvalExpiries'; holds: 'approval' | 'routine' }
  );

const shardsOf = (count: number) => Array.from({ length: count }, (_, shard) => shard);

/**
 * Every partition of the due indexes: open conversations' and closed ones' awaiting their stats
 * in `pending`, cold ones' in `closes` (`shards` of each); approvals' in `approvalExpiries`.
 */
function duePartitions(shards: number): DuePartition[] {
  return [
    ...(['open', 'stats'] as const).flatMap((list) =>
      shardsOf(shards).map((shard) => ({ ...pendingConversations(list, shard), holds: list })),
    ),
    ...shardsOf(shards).map((shard) => ({ ...closingConversations(shard), holds: 'cold' as const })),
    ...shardsOf(APPROVAL_DUE_SHARDS).map((shard) => ({ ...expiringApprovals(shard), holds: 'approval' as const })),
    ...shardsOf(ROUTINE_DUE_SHARDS).map((shard) => ({ ...dueRoutines(shard), holds: 'routine' as const })),
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
  /** A routine's schedule (its entry is the whole item): where its next run moves to. */
  schedule?: string;
  timezone?: string;
  anchor_at?: string;
}

/** What sending due moves uses: the due index and the job queue (the local scheduler is built before the deps). */
export type DueMoveDeps = Pick<Deps, 'table' | 'clock' | 'jobs' | 'scheduler'> & { config: Pick<Deps['config'], 'dueIndexShards'> };

/** An entry of `pending` found due: the conversation's keys, and the partition it stands in. */
interface LazyEntry {
  key: Key;
  partition: string;
}

/** When an entry of `partition` falls due, as its index sorts it. */
function dueTimeOf(partition: DuePartition, entry: DueEntry): number {
  return Date.parse((partition.index === 'pending' ? pendingEntryTime(entry) : entry.due_at) ?? '');
}

/** What the sweep reads of a conversation whose `pending` entry fell due. */
interface DueConversation extends DueEntry, Key {
  status?: string;
  stats_status?: string;
  closed_at?: string;
}

/** What a `pending` entry found due asks for: a job to send, a write of its conversation (its entry moved or taken out), or both. */
interface Settled {
  message?: JobMessage;
  write?: ReturnType<typeof pendingEntryRemoval>;
}

/**
 * What an open conversation's entry found due asks for: its cold move if really due, else the
 * entry moved to the conversation's due time (it was found early: questions came since). Not open
 * (none should be: its moves take it out): out. Each write is conditional on the entry being
 * where it was read (`partition`).
 */
function settleOpen(conversation: DueConversation, { key, partition }: LazyEntry, now: Date): Settled {
  const { org_id: orgId, workspace_id: workspaceId, id } = conversation;
  if (conversation.status !== 'open' || typeof conversation.due_at !== 'string') return { write: pendingEntryRemoval(key, partition) };
  if (Date.parse(conversation.due_at) <= now.getTime()) {
    const move = { workspaceId, conversationId: id, move: 'cold', lastActivityAt: String(conversation.last_activity_at) } as const;
    return { message: lifecycleMessage(orgId, move satisfies LifecycleJob) };
  }
  return { write: pendingEntryMovedToDue(key, partition, conversation.due_at) };
}

/**
 * What a closed conversation's entry found due asks for (its stats still pending since its close,
 * `STATS_BACKSTOP_MS` ago or more): its stats job sent again, as sent at the close (so a drain
 * since drops it), and the entry moved on by as much. Drained since its close (`drained`), or its
 * stats written or failed (the writes take the entry out; none should be left): out.
 */
function settleStats(
  conversation: DueConversation,
  { key, partition }: LazyEntry,
  now: Date,
  drained: string | undefined,
  takeover: boolean,
): Settled {
  const closedAt = conversation.closed_at ?? '';
  const pending = conversation.status === 'closed' && conversation.stats_status === 'pending';
  if (!pending || (drained !== undefined && drained > closedAt)) return { write: pendingEntryRemoval(key, partition) };
  const message = { ...statsMessage(conversation.org_id, conversation.workspace_id, conversation.id), sentAt: closedAt, takeover };
  const next = new Date(now.getTime() + STATS_BACKSTOP_MS).toISOString();
  return { message, write: pendingEntryMoved(key, partition, next) };
}

/**
 * Settles the `pending` entries found due at `now` (their conversations read in one BatchGetItem, and
 * the drain time of each organisation with stats entries): writes what they ask, answers the jobs
 * to send. `takeover`: the stats jobs are sent by a runtime that has just started (local).
 */
async function settleLazy(
  deps: DueMoveDeps,
  found: { holds: 'open' | 'stats'; entry: LazyEntry }[],
  now: Date,
  takeover = false,
): Promise<{ moves: JobMessage[]; stats: JobMessage[] }> {
  if (!found.length) return { moves: [], stats: [] };
  const conversations = await deps.table.batchGet<DueConversation>(found.map(({ entry }) => entry.key));
  const byKey = new Map(conversations.map((conversation) => [conversation.pk, conversation]));
  const statsOrgs = [...new Set(found.flatMap(({ holds, entry }) => (holds === 'stats' ? [byKey.get(entry.key.pk)?.org_id ?? ''] : [])))];
  const drains = new Map(
    await Promise.all(statsOrgs.filter(Boolean).map(async (orgId) => [orgId, await drainedAt(deps, orgId, 'conversation-stats')] as const)),
  );
  const settled = found.flatMap(({ holds, entry }) => {
    const conversation = byKey.get(entry.key.pk);
    if (!conversation) return [];
    const outcome =
      holds === 'open'
        ? settleOpen(conversation, entry, now)
        : settleStats(conversation, entry, now, drains.get(conversation.org_id), takeover);
    return [{ holds, ...outcome }];
  });
  await Promise.all(settled.map(({ write }) => write && unlessConditionFailed(deps.table.update(write.key, write.input), undefined)));
  const messages = (holds: 'open' | 'stats') => settled.flatMap((one) => (one.holds === holds && one.message ? [one.message] : []));
  return { moves: messages('open'), stats: messages('stats') };
}

/** Reads what is due at `now` in `partitions`, all at once, and sends each job; answers how many were sent. */
async function sendMovesIn(deps: DueMoveDeps, partitions: DuePartition[], now: Date): Promise<number> {
  const upTo = keys.afterTime(now.toISOString());
  const read = (partition: DuePartition) => deps.table.queryAll<DueEntry & Key>({ ...partition, sk: { lte: upTo } });
  const found = await Promise.all(partitions.map(async (partition) => ({ partition, entries: await read(partition) })));
  const lazy = found.flatMap(({ partition, entries }) =>
    partition.index === 'pending' ? entries.map((entry) => ({ holds: partition.holds, entry: lazyEntry(partition, entry) })) : [],
  );
  const settled = await settleLazy(deps, lazy, now);
  const messages = [
    ...found.flatMap(({ partition, entries }) =>
      partition.index === 'pending' ? [] : entries.map((entry) => messageOf(partition.holds, entry)),
    ),
    ...settled.moves,
  ];
  let sent = 0;
  for (const message of messages) if (await deps.jobs.enqueue(message)) sent += 1;
  // A routine's time fired moves its next run past now (once, however long the runtime was down): routines/fire-job.ts.
  const fired = found.flatMap(({ partition, entries }) => (partition.holds === 'routine' ? entries : []));
  await Promise.all(fired.map((entry) => moveNextRun(deps, entry, entry.due_at, now)));
  // A stats job is written to the ledger by its claim: sent again as it is, the delivery decides.
  for (const message of settled.stats) {
    await deps.jobs.redeliver(message);
    sent += 1;
  }
  return sent;
}

/** A `pending` entry read from `partition`. */
const lazyEntry = (partition: DuePartition, entry: Key): LazyEntry => ({ key: { pk: entry.pk, sk: entry.sk }, partition: partition.pk });

/**
 * The job of an entry of `closes` or `approvalExpiries`, which carries what it needs: a cold
 * conversation's close, an approval's expiry, a routine's scheduled time.
 */
function messageOf(holds: 'cold' | 'approval' | 'routine', entry: DueEntry): JobMessage {
  if (holds === 'approval') return expiryMessage(entry.org_id, entry.workspace_id, entry.id);
  if (holds === 'routine') return fireMessage(entry.org_id, entry.id, entry.due_at);
  return lifecycleMessage(entry.org_id, {
    workspaceId: entry.workspace_id,
    conversationId: entry.id,
    move: 'close',
    lastActivityAt: String(entry.last_activity_at),
  } satisfies LifecycleJob);
}

/**
 * The local runtime's start: the stats jobs it held when it stopped (waiting or running in its
 * memory) are lost with the process, and their conversations' entries in the due index are their
 * record. Every such entry, due or not, sends its job again now, with its claim taken over.
 * Answers how many were sent.
 */
export async function resendPendingStats(deps: DueMoveDeps): Promise<number> {
  const partitions = duePartitions(deps.config.dueIndexShards).filter((partition) => partition.holds === 'stats');
  const found = (
    await Promise.all(
      partitions.map(async (partition) =>
        (await deps.table.queryAll<Key>(partition)).map((entry) => ({ holds: 'stats' as const, entry: lazyEntry(partition, entry) })),
      ),
    )
  ).flat();
  const { stats } = await settleLazy(deps, found, deps.clock.now(), true);
  for (const message of stats) await deps.jobs.redeliver(message);
  return stats.length;
}

/** The earliest due time after `after` in `partitions` (one Query of one entry each), or undefined. */
async function earliestAfter(deps: DueMoveDeps, partitions: DuePartition[], after: Date): Promise<number> {
  // Sort keys are `<due ISO time>#…`, so this skips everything due at `after`.
  const from = keys.afterTime(after.toISOString());
  const firsts = await Promise.all(
    partitions.map((partition) => deps.table.query<DueEntry>({ ...partition, sk: { gte: from }, limit: 1 })),
  );
  return Math.min(...firsts.flatMap((page, at) => page.items.map((item) => dueTimeOf(partitions[at] as DuePartition, item))));
}

const dateOrUndefined = (time: number) => (Number.isFinite(time) ? new Date(time) : undefined);

/**
 * How long after its due time the AWS sweep leaves a move to its schedule: a schedule fires within
 * seconds, and a move is in the ledger only once it failed (its queue is `recorded-on-failure`,
 * jobs/ledger-types.ts), so a sweep that also sent a move firing just then would make it twice
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
  const firsts = await Promise.all(partitions.map((partition) => deps.table.query<DueEntry>({ ...partition, limit: 1 })));
  const earliest = firsts.map((page, at) =>
    page.items[0] ? dueTimeOf(partitions[at] as DuePartition, page.items[0]) : Number.POSITIVE_INFINITY,
  );
  const due = partitions.filter((_, at) => (earliest[at] ?? Number.POSITIVE_INFINITY) <= now.getTime());
  const waiting = Math.min(...earliest.filter((time) => time > now.getTime()));
  if (!due.length) return dateOrUndefined(waiting);
  await sendMovesIn(deps, due, now);
  return dateOrUndefined(Math.min(waiting, await earliestAfter(deps, due, now)));
}
