import { approvalsOfWorkspace } from '../approvals/index.js';
import { conversationWithMessages, currentMessages } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import type { Item } from '../platform/table.js';
import { activityOfConversationSince } from '../workspaces/index.js';
import type { RunItem } from './runs.js';

/*
 * What a run's query left before its job stopped (docs/routines.md, "Runs"). The job moves the run
 * to `running`, asks, then writes the run's outcome: a job retried after the query was stored but
 * before that last write (the process ended, the write failed) must not ask the model again. The
 * run's conversation (`routine-<routine>-<run>`) is its own, so what it holds is this run's query:
 * nothing (not asked: ask), its answer or a question that ended unanswered (finish from it), or its
 * question waiting for an approval (the run waits on that approval). What the query spent and its
 * error are in its audit entry.
 */

/** A query the run already asked: answered, or paused on an approval. */
export type AskedBefore =
  | { kind: 'answered'; answer: string; costUsd: number; durationMs: number; error: string | null }
  | { kind: 'paused'; approvalId: string; costUsd: number; durationMs: number };

/** The audit entry of the run's query (the latest, should there be more), or undefined when none is stored. */
async function auditEntryOf(deps: Pick<Deps, 'table'>, run: RunItem, since: string): Promise<Item | undefined> {
  const queries = activityOfConversationSince(run.org_id, run.workspace_id, run.conversation_id, since);
  const entries = (await Promise.all(queries.map((query) => deps.table.queryAll<Item>(query)))).flat();
  return entries.sort((a, b) => String(a.sk).localeCompare(String(b.sk))).at(-1);
}

const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);

/**
 * The query a `running` run already asked, or undefined when its conversation holds no question
 * (it was not asked, or not stored: asking is safe).
 * @throws Error while its question waits on an approval not found among the workspace's pending
 *   ones (not listed yet, or never asked: the job is tried again, and fails for good in the end)
 */
export async function askedBefore(deps: Pick<Deps, 'table'>, run: RunItem): Promise<AskedBefore | undefined> {
  const items = await deps.table.queryAll<Item>(conversationWithMessages(run.org_id, run.workspace_id, run.conversation_id));
  const messages = currentMessages(items);
  const question = messages.find((message) => message.role === 'user');
  if (!question) return undefined;
  const entry = await auditEntryOf(deps, run, run.started_at ?? run.created_at);
  const answer = messages.find((message) => message.role === 'assistant' && Number(message.seq) > Number(question.seq));
  // Ended: answered, or stopped before the model ran (no model key, a tool server down), its error in the audit entry.
  if (answer || question.awaiting_approval !== true) {
    const error = typeof entry?.error === 'string' ? entry.error : null;
    return {
      kind: 'answered',
      answer: String(answer?.content ?? ''),
      costUsd: numberOr(answer?.cost_usd, numberOr(entry?.cost_usd, 0)),
      durationMs: Math.round(numberOr(answer?.duration_ms, numberOr(entry?.duration_ms, 0))),
      error: answer ? error : (error ?? 'the query ended without an answer'),
    };
  }
  const pending = await deps.table.queryAll<{ id: string; conversation_id: string }>(
    approvalsOfWorkspace(run.org_id, run.workspace_id, 'pending'),
  );
  const approval = pending.find((candidate) => candidate.conversation_id === run.conversation_id);
  if (!approval) throw new Error('the run paused for an approval that is not listed yet: it is looked for again');
  return {
    kind: 'paused',
    approvalId: approval.id,
    costUsd: numberOr(entry?.cost_usd, 0),
    durationMs: Math.round(numberOr(entry?.duration_ms, 0)),
  };
}
