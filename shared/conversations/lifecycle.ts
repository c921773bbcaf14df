import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { type Item, unlessConditionFailed } from '../platform/table.js';
import type { JobMessage } from '../jobs/ledger.js';
import { scheduleName } from '../jobs/scheduler.js';
import type { JobHandler } from '../jobs/worker.js';
import { addWorkspaceCounters, counterNames } from '../workspaces/counters.js';
import { getWorkspaceItem, type WorkspaceItem } from '../workspaces/workspaces.js';

/**
 * Conversation lifecycle: open → cold after `cold_timeout_minutes` without activity, cold →
 * closed after `close_timeout_minutes` more, back to open on a new message, closed by hand from
 * open or cold. Each timed move is a job (`lifecycle` queue) sent by a one-time schedule; every
 * move is a conditional write on the expected status and last activity, so a stale or repeated
 * job does nothing. Open and cold conversations also carry their due time in a due index (GSI5
 * for open ones, lazily; GSI4 for cold ones), where a periodic sweep finds any move that is
 * overdue because a schedule was lost.
 *
 * A conversation is listed in one list, GSI1 by last activity, whatever its status: the moves
 * write no list entry of their own (the status lists read GSI1 with a filter, conversations/list.ts),
 * and take the conversation out of GSI2, where the by-status lists of before put it.
 */

/**
 * A conversation's shard of the due index (`shards`: `DUE_INDEX_SHARDS`), from its id. On DynamoDB
 * the index is a partition set every tenant writes: each question moves its conversation's entry
 * (about 2 WCU, docs/capacity.md), so 128 shards keep each under 0.02 WCU per question of the
 * deployment. Locally one store holds them all, and 4 keep the wake-up's reads few.
 */
function shardOf(workspaceId: string, conversationId: string, shards: number): number {
  const digest = createHash('sha1').update(`${workspaceId}#${conversationId}`).digest();
  return digest.readUInt16BE(0) % shards;
}

/** Due-index attributes of a cold conversation waiting for its close (GSI4, which carries what the sweep reads). */
function coldDueIndex(workspaceId: string, conversationId: string, dueAt: Date, shards: number) {
  return {
    gsi4pk: keys.dueIndex('cold', shardOf(workspaceId, conversationId, shards)),
    // The due time alone: an index's keys need not be unique, and the entry carries the ids.
    gsi4sk: dueAt.toISOString(),
  };
}

/**
 * Due-index attributes in GSI5 (the keys and the organisation): an open conversation waiting to go
 * cold (`open`), or a closed one waiting for its stats (`stats`, `STATS_BACKSTOP_MS`). An open
 * conversation's entry is lazy: its first question puts it, its next ones leave it where it is
 * (earlier than the real due time, `due_at`), and the sweep that finds it early moves it
 * (conversations/due-sweep.ts). So a follow-up writes no due entry; before, each moved one.
 */
export function lazyDueIndex(list: 'open' | 'stats', workspaceId: string, conversationId: string, dueAt: Date, shards: number) {
  return {
    gsi5pk: keys.dueIndex(list, shardOf(workspaceId, conversationId, shards)),
    gsi5sk: dueAt.toISOString(),
  };
}

/**
 * How long after a close its stats are looked for again, if they are still pending then: the
 * close's entry in the due index (GSI5 `DUE#stats#<n>`, taken out when the stats are written or
 * fail for good) sends the stats job again, in case it was lost (the local runtime stopped while
 * it waited; its send failed; the close was retried after a crash). The stats job is written to
 * the ledger only by its claim (jobs/ledger-types.ts `CLAIMED_ON_DELIVERY`): this entry is its
 * record until then. A stats job takes seconds; sent again while another delivery runs it, the
 * claim lets one run.
 */
export const STATS_BACKSTOP_MS = 30 * 60_000;

export function minutesAfter(at: Date | string, minutes: number): Date {
  return new Date(new Date(at).getTime() + minutes * 60_000);
}

export const LifecycleJobSchema = z.object({
  workspaceId: z.string().min(1),
  conversationId: z.string().min(1),
  move: z.enum(['cold', 'close']),
  /** The last activity the move was planned from: a newer message makes the job stale. */
  lastActivityAt: z.string().min(1),
});
export type LifecycleJob = z.infer<typeof LifecycleJobSchema>;

/** The job of a move; its id is deterministic, so the schedule, the sweep and retries name the same job. */
export function lifecycleMessage(orgId: string, data: LifecycleJob): JobMessage {
  return {
    jobId: `lifecycle-${data.move}-${orgId}-${data.workspaceId}-${data.conversationId}-${data.lastActivityAt}`,
    queue: 'lifecycle',
    orgId,
    data,
  };
}

/**
 * Plans a conversation's next move (replacing the pending schedule of that move). `replaces`: the
 * conversation was open already, so its move is pending and is replaced (the scheduler tries that first).
 */
export async function scheduleMove(deps: Deps, orgId: string, data: LifecycleJob, at: Date, replaces = false): Promise<void> {
  const name = scheduleName(data.move, orgId, data.workspaceId, data.conversationId);
  await deps.scheduler.schedule(name, at, lifecycleMessage(orgId, data), { replaces });
}

/** The stats job of a closed conversation; its id is the conversation's, so every send of it names the same job. */
export function statsMessage(orgId: string, workspaceId: string, conversationId: string): JobMessage {
  return {
    jobId: `stats-${orgId}-${workspaceId}-${conversationId}`,
    queue: 'conversation-stats',
    orgId,
    data: { workspaceId, conversationId },
    claimOnDelivery: true,
  };
}

interface ConversationState extends Item {
  status: 'open' | 'cold' | 'closed';
  org_id: string;
  last_activity_at: string;
  consumer_type?: string;
  moved_by?: string;
  owner?: string;
}

const statusNames = { '#status': 'status', '#last': 'last_activity_at', '#moved': 'moved_by' };

/**
 * What a timed move writes in `moved_by`, so that a retry of the same job finds the move made and
 * only finishes its follow-ups: the move and the last activity it was planned from, which name
 * the job within its conversation. Its id (which also names the organisation, workspace and
 * conversation, about 130 bytes) was written before, and still matches: the item is copied whole
 * into the list (gsi1), where 100 bytes more can take an entry past 1 KB (2 WCU).
 */
function movedBy(move: LifecycleJob['move'], lastActivityAt: string): string {
  return `${move}@${lastActivityAt}`;
}

/**
 * Closes a conversation that is in one of `from` (and, for a timed move, still at the expected
 * last activity): status closed, out of the due index, stats queued. Returns the status it left,
 * or undefined when the condition did not hold.
 */
async function close(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  conversationId: string,
  from: ('open' | 'cold')[],
  expected?: { lastActivityAt: string; jobId: string },
): Promise<'open' | 'cold' | undefined> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const statsDue = lazyDueIndex(
    'stats',
    workspaceId,
    conversationId,
    new Date(now.getTime() + STATS_BACKSTOP_MS),
    deps.config.dueIndexShards,
  );
  const values: Record<string, unknown> = {
    ':closed': 'closed',
    ':at': at,
    ':g5pk': statsDue.gsi5pk,
    ':g5sk': statsDue.gsi5sk,
    ':pending': 'pending',
    ':moved': expected ? movedBy('close', expected.lastActivityAt) : `manual@${at}`,
  };
  for (const [index, status] of from.entries()) values[`:from${index}`] = status;
  let condition = `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`;
  if (expected) {
    // A retry of the job that already made this move passes too, to finish the follow-ups.
    values[':expected'] = expected.lastActivityAt;
    values[':job'] = expected.jobId;
    condition = `(${condition} AND #last = :expected) OR #moved IN (:moved, :job)`;
  }
  const previous = await unlessConditionFailed(
    deps.table.updateReturningOld<ConversationState>(keys.conversation(orgId, workspaceId, conversationId), {
      // if_not_exists: a retry of this close must not set finished stats back to pending.
      update:
        'SET #status = :closed, closed_at = :at, stats_status = if_not_exists(stats_status, :pending), #moved = :moved, gsi5pk = :g5pk, gsi5sk = :g5sk REMOVE gsi2pk, gsi2sk, gsi4pk, gsi4sk, gsi3pk, gsi3sk, due_at',
      condition: `attribute_exists(pk) AND (${condition})`,
      // DynamoDB refuses names an expression does not use: #last only when the move is timed.
      names: expected ? statusNames : { '#status': 'status', '#moved': 'moved_by' },
      values,
    }),
    null,
  );
  if (previous === null) return undefined;
  const left = previous?.status === 'cold' ? 'cold' : 'open';
  // Counters move only when this attempt made the move (not on a retry that finds it made).
  const moved = previous?.status !== 'closed';
  await Promise.all([
    moved &&
      addWorkspaceCounters(deps, orgId, workspaceId, {
        [counterNames.dimension('status', left)]: -1,
        [counterNames.dimension('status', 'closed')]: 1,
      }),
    // Sent by the attempt that made the move: a retry that finds it made leaves a send it lost to
    // the close's entry in the due index (STATS_BACKSTOP_MS).
    moved && deps.jobs.enqueue(statsMessage(orgId, workspaceId, conversationId)),
    deps.scheduler.cancel(scheduleName('cold', orgId, workspaceId, conversationId)),
    deps.scheduler.cancel(scheduleName('close', orgId, workspaceId, conversationId)),
  ]);
  return left;
}

/** `POST /api/workspaces/:id/conversations/:cid/close`: from open or cold; closed → 409. */
export async function closeConversation(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  conversationId: string,
  /** Set for a caller who may close only their own conversations (members, api keys); admins pass none. */
  requiredOwner?: string,
): Promise<void> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  if (requiredOwner) {
    const current = await deps.table.get<ConversationState>(keys.conversation(orgId, workspaceId, conversationId), true);
    if (!current) throw new NotFoundError(`conversation ${conversationId} not found`);
    if (current.owner !== requiredOwner)
      throw new ForbiddenError('only the person who started this conversation, or an admin, may close it');
  }
  const left = await close(deps, orgId, workspaceId, conversationId, ['open', 'cold']);
  if (left) return;
  const current = await deps.table.get<ConversationState>(keys.conversation(orgId, workspaceId, conversationId), true);
  if (!current) throw new NotFoundError(`conversation ${conversationId} not found`);
  throw new ConflictError(`conversation ${conversationId} is already closed`);
}

/** open → cold: a conditional write, then the counters, the close schedule and the cold notice. */
async function goCold(deps: Deps, orgId: string, data: LifecycleJob, jobId: string, workspace: WorkspaceItem): Promise<void> {
  const now = deps.clock.now();
  const closeAt = minutesAfter(now, workspace.close_timeout_minutes);
  const due = coldDueIndex(data.workspaceId, data.conversationId, closeAt, deps.config.dueIndexShards);
  const previous = await unlessConditionFailed(
    deps.table.updateReturningOld<ConversationState>(keys.conversation(orgId, data.workspaceId, data.conversationId), {
      update:
        'SET #status = :cold, cold_at = :at, due_at = :due, gsi4pk = :g4pk, gsi4sk = :g4sk, #moved = :moved REMOVE gsi2pk, gsi2sk, gsi3pk, gsi3sk, gsi5pk, gsi5sk',
      condition: 'attribute_exists(pk) AND ((#status = :open AND #last = :expected) OR #moved IN (:moved, :job))',
      names: statusNames,
      values: {
        ':cold': 'cold',
        ':open': 'open',
        ':at': now.toISOString(),
        ':due': closeAt.toISOString(),
        ':expected': data.lastActivityAt,
        ':g4pk': due.gsi4pk,
        ':g4sk': due.gsi4sk,
        ':moved': movedBy('cold', data.lastActivityAt),
        ':job': jobId,
      },
    }),
    null,
  );
  if (previous === null) return; // stale: the conversation moved on (a new message, a close)
  if (!previous) return;
  // Counters move only when this attempt made the move (a retry finds it made: status cold, moved_by this job).
  if (previous.status === 'open') {
    await addWorkspaceCounters(deps, orgId, data.workspaceId, {
      [counterNames.dimension('status', 'open')]: -1,
      [counterNames.dimension('status', 'cold')]: 1,
    });
  }
  await scheduleMove(deps, orgId, { ...data, move: 'close' }, closeAt);
  if (previous.consumer_type === 'team-chat') {
    await deps.jobs.enqueue({
      jobId: `cold-notice-${orgId}-${data.workspaceId}-${data.conversationId}-${data.lastActivityAt}`,
      queue: 'cold-messages',
      orgId,
      data: { workspaceId: data.workspaceId, conversationId: data.conversationId },
    });
  }
}

/** The `lifecycle` queue's handler. */
export const lifecycleHandler: JobHandler<LifecycleJob> = {
  schema: LifecycleJobSchema,
  async run(deps, data, job) {
    if (data.move === 'cold') {
      const workspace = await deps.table.get<WorkspaceItem>(keys.workspace(job.org_id, data.workspaceId));
      if (!workspace || workspace.org_id !== job.org_id || workspace.status === 'deleted') return; // the workspace is gone
      await goCold(deps, job.org_id, data, job.id, workspace);
      return;
    }
    await close(deps, job.org_id, data.workspaceId, data.conversationId, ['cold'], { lastActivityAt: data.lastActivityAt, jobId: job.id });
  },
};
