import { $get, $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../auth/index.js';
import { closeScope, conversationNotFound, inScope, notTheStarter, readScope } from './visibility.js';
import { type Item, unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { type JobMessage, scheduleName, type JobHandler } from '../jobs/index.js';
import { addWorkspaceCounters, counterNames, workspaceKey, getWorkspaceItem, type WorkspaceItem } from '../workspaces/index.js';
import { closesEntry, conversationEntity, conversationKey, outOf, pendingEntry } from './entities.js';

/**
 * Conversation lifecycle: open → cold after `cold_timeout_minutes` without activity, cold →
 * closed after `close_timeout_minutes` more, back to open on a new message, closed by hand from
 * open or cold. Each timed move is a job (`lifecycle` queue) sent by a one-time schedule; every
 * move is a conditional write on the expected status and last activity, so a stale or repeated
 * job does nothing. Open and cold conversations also carry their due time in a due index
 * (`pending` for open ones, lazily; `closes` for cold ones: entities.ts), where a periodic sweep
 * finds any move that is overdue because a schedule was lost.
 *
 * A conversation is listed in one list, `listings` by last activity, whatever its status: the
 * moves write no list entry of their own (the status lists read it with a filter, list.ts).
 */

/**
 * How long after a close its stats are looked for again, if they are still pending then: the
 * close's entry in `pending` (`pendingEntry('stats', …)`, taken out when the stats are written or
 * fail for good) sends the stats job again, in case it was lost (the local runtime stopped while
 * it waited; its send failed; the close was retried after a crash). The stats job is written to
 * the ledger only by its claim (its queue is `claimed-on-delivery`, jobs/ledger-types.ts): this
 * entry is its record until then. A stats job takes seconds; sent again while another delivery runs it, the
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

/**
 * What a timed move writes in `moved_by`, so that a retry of the same job finds the move made and
 * only finishes its follow-ups: the move and the last activity it was planned from, which name
 * the job within its conversation. Not its id, which also names the organisation, workspace and
 * conversation (about 130 bytes): the item is copied whole into `listings`, where 100 bytes more
 * can take an entry past 1 KB (2 WCU).
 */
function movedBy(move: LifecycleJob['move'], lastActivityAt: string): string {
  return `${move}@${lastActivityAt}`;
}

/**
 * The close's write: status closed, out of `closes` (a cold conversation's), into `pending` for
 * its statistics (`STATS_BACKSTOP_MS`), conditioned on a status of `from` (and, for a timed move,
 * the last activity it was planned from, or this move already made by a retry of its job).
 */
function closeUpdate(deps: Deps, orgId: string, workspaceId: string, conversationId: string, from: ('open' | 'cold')[], planned?: string) {
  const now = deps.clock.now();
  const at = now.toISOString();
  const statsDue = new Date(now.getTime() + STATS_BACKSTOP_MS);
  const moved = planned ? movedBy('close', planned) : `manual@${at}`;
  const inFrom = { attr: 'status', in: from } as const;
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({
      ...conversationKey(orgId, workspaceId, conversationId),
      status: 'closed',
      closed_at: at,
      // If not there: a retry of this close must not set finished stats back to pending.
      stats_status: $get('stats_status', 'pending'),
      moved_by: moved,
      ...pendingEntry('stats', workspaceId, conversationId, statsDue, deps.config.dueIndexShards),
      ...outOf('closes'),
      due_at: $remove(),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          planned ? { or: [{ and: [inFrom, { attr: 'last_activity_at', eq: planned }] }, { attr: 'moved_by', eq: moved }] } : inFrom,
        ],
      },
    });
  return updateOf(command);
}

/**
 * Closes a conversation that is in one of `from` (and, for a timed move, still at the last activity
 * it was `planned` from): status closed, out of the due index, stats queued. Returns the status it
 * left, or undefined when the condition did not hold.
 */
async function close(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  conversationId: string,
  from: ('open' | 'cold')[],
  planned?: string,
): Promise<'open' | 'cold' | undefined> {
  const { key, input } = closeUpdate(deps, orgId, workspaceId, conversationId, from, planned);
  const previous = await unlessConditionFailed(deps.table.updateReturningOld<ConversationState>(key, input), null);
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
  /** Who closes it: an admin any; a member one they started, an api key its consumer's (conversations/visibility.ts). */
  closer: Principal,
): Promise<void> {
  const workspace = await getWorkspaceItem(deps, orgId, workspaceId);
  const mayClose = closeScope(closer);
  if (mayClose.kind !== 'all') {
    const current = await deps.table.get<ConversationState>(conversationKey(orgId, workspaceId, conversationId), true);
    if (!current || !inScope(await readScope(deps, closer, workspace), current)) throw conversationNotFound(conversationId);
    if (!inScope(mayClose, current)) throw notTheStarter();
  }
  const left = await close(deps, orgId, workspaceId, conversationId, ['open', 'cold']);
  if (left) return;
  const current = await deps.table.get<ConversationState>(conversationKey(orgId, workspaceId, conversationId), true);
  if (!current) throw new NotFoundError(`conversation ${conversationId} not found`);
  throw new ConflictError(`conversation ${conversationId} is already closed`);
}

/**
 * open → cold: status cold, out of `pending`, into `closes` at the close's time; conditioned on
 * the status open at the last activity the move was planned from, or this move already made (a retry).
 */
function coldUpdate(deps: Deps, orgId: string, data: LifecycleJob, now: Date, closeAt: Date) {
  const moved = movedBy('cold', data.lastActivityAt);
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({
      ...conversationKey(orgId, data.workspaceId, data.conversationId),
      status: 'cold',
      cold_at: now.toISOString(),
      due_at: closeAt.toISOString(),
      ...closesEntry(data.workspaceId, data.conversationId, closeAt, deps.config.dueIndexShards),
      moved_by: moved,
      ...outOf('pending'),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          {
            or: [
              {
                and: [
                  { attr: 'status', eq: 'open' },
                  { attr: 'last_activity_at', eq: data.lastActivityAt },
                ],
              },
              { attr: 'moved_by', eq: moved },
            ],
          },
        ],
      },
    });
  return updateOf(command);
}

/** open → cold: a conditional write, then the counters, the close schedule and the cold notice. */
async function goCold(deps: Deps, orgId: string, data: LifecycleJob, workspace: WorkspaceItem): Promise<void> {
  const now = deps.clock.now();
  const closeAt = minutesAfter(now, workspace.close_timeout_minutes);
  const { key, input } = coldUpdate(deps, orgId, data, now, closeAt);
  const previous = await unlessConditionFailed(deps.table.updateReturningOld<ConversationState>(key, input), null);
  if (previous === null) return; // stale: the conversation moved on (a new message, a close)
  if (!previous) return;
  // Counters move only when this attempt made the move (a retry finds it made: status cold, moved_by this move).
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
      const workspace = await deps.table.get<WorkspaceItem>(workspaceKey(job.org_id, data.workspaceId));
      if (!workspace || workspace.org_id !== job.org_id || workspace.status === 'deleted') return; // the workspace is gone
      await goCold(deps, job.org_id, data, workspace);
      return;
    }
    await close(deps, job.org_id, data.workspaceId, data.conversationId, ['cold'], data.lastActivityAt);
  },
};
