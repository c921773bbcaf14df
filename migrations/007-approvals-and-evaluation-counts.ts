import { APPROVAL_STATUSES, approvalRewrite, everyApproval } from '../shared/approvals/entities.js';
import { countsOpened, evalCountStarted, evaluationsOfWorkspace, everyEvaluation } from '../shared/evals/entities.js';
import { type Migration, type MigrationContext, rewriteAsRead } from '../shared/platform/migrations.js';
import { conditionHeld, type Item } from '../shared/platform/table.js';

/*
 * 007: approvals and evaluation counts, in the shape this version writes.
 * - An approval paused before the audit log had shards names its entry's shard: 0, the unsharded
 *   log, where it was written (and where it was read as being).
 * - An approval asked in a team-chat thread before the asking chat user was kept names them, where
 *   its grant subject did (`chat:<org>:<chat user>`, an unlinked asker): the one its answer goes
 *   to. One asked by a linked account (`user:<id>`) cannot name them, and its answer goes, as
 *   before, to whoever presses the button.
 * - Every workspace with evaluations has its count in its organisation's counts (made before the
 *   counts, they were counted by a Query at the first claim): the counts' maps made, then the
 *   number of its evaluations (the same Query, once per workspace as the scan meets it, so a run
 *   that stops and goes on counts every workspace whole) set where it has none yet (a claim of the
 *   version before may set it first, to the same number).
 */

/** A caller as stored in an approval's JSON: what this migration reads and completes. */
interface StoredCaller {
  chat?: { channelId: string; threadTs: string; userId?: string };
  grantSubject?: string;
}

/** The caller naming its chat user, or undefined when it needs (or allows) no change. */
function withAsker(caller: StoredCaller, orgId: string): StoredCaller | undefined {
  const prefix = `chat:${orgId}:`;
  if (!caller.chat || caller.chat.userId || !caller.grantSubject?.startsWith(prefix)) return undefined;
  return { ...caller, chat: { ...caller.chat, userId: caller.grantSubject.slice(prefix.length) } };
}

/** An approval's caller and paused query in the current shape, or undefined when they are in it already. */
function rewritten(item: Item): { caller: string; paused?: string } | undefined {
  const orgId = String(item.org_id);
  const caller = JSON.parse(String(item.caller)) as StoredCaller;
  const paused =
    typeof item.paused === 'string' ? (JSON.parse(item.paused) as { caller: StoredCaller; activityShard?: number }) : undefined;
  const newCaller = withAsker(caller, orgId);
  const pausedCaller = paused && withAsker(paused.caller, orgId);
  const unsharded = paused !== undefined && paused.activityShard === undefined;
  if (!newCaller && !pausedCaller && !unsharded) return undefined;
  const newPaused = paused && { ...paused, caller: pausedCaller ?? paused.caller, activityShard: paused.activityShard ?? 0 };
  return { caller: JSON.stringify(newCaller ?? caller), ...(newPaused ? { paused: JSON.stringify(newPaused) } : {}) };
}

/** An approval's rewrite, on the condition that its status is as read (it was not decided meanwhile). */
function rewriteOf(item: Item) {
  const next = rewritten(item);
  const status = APPROVAL_STATUSES.find((candidate) => candidate === item.status);
  return next && status ? approvalRewrite({ pk: item.pk, sk: item.sk }, status, next) : undefined;
}

async function completeApprovals(context: MigrationContext): Promise<void> {
  for await (const item of context.scan('approvals', everyApproval())) {
    try {
      if ((await rewriteAsRead(context.table, item, rewriteOf)) === 'moved') context.moved();
    } catch (error) {
      // JSON this version cannot read is left as it is, and counted.
      if (!(error instanceof SyntaxError)) throw error;
      context.left();
    }
  }
}

async function countEvaluations({ table, scan, moved }: MigrationContext): Promise<void> {
  const opened = new Set<string>();
  const counted = new Set<string>();
  for await (const item of scan('evaluations', everyEvaluation())) {
    const orgId = String(item.org_id);
    const workspaceId = String(item.workspace_id);
    if (counted.has(`${orgId} ${workspaceId}`)) continue;
    counted.add(`${orgId} ${workspaceId}`);
    if (!opened.has(orgId)) {
      const open = countsOpened(orgId);
      await table.update(open.key, open.input);
      opened.add(orgId);
    }
    const count = await table.count(evaluationsOfWorkspace(orgId, workspaceId));
    const { key, input } = evalCountStarted(orgId, workspaceId, count);
    if (await conditionHeld(table.update(key, input))) moved();
  }
}

export const approvalsAndEvaluationCounts: Migration = {
  version: 7,
  name: 'approvals name their audit shard and chat asker, every workspace has its count of evaluations',
  async run(context) {
    await completeApprovals(context);
    await countEvaluations(context);
  },
};
