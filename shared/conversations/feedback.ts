import { storedMessage } from './messages.js';
import type { Principal } from '../auth/tokens.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import type { Store } from '../platform/store.js';
import type { Item } from '../platform/table.js';
import { issueDetails } from '../platform/validation.js';
import { addWorkspaceCounters, counterNames } from '../workspaces/counters.js';
import { ownedWorkspace } from '../workspaces/workspaces.js';
import { FeedbackBody, type FeedbackRating } from './schemas.js';

/**
 * Feedback on answers: one rating per rater and answer, the last one counts. The rater's rating
 * item (`keys.feedback`) is the commit point: one UpdateItem swaps in the new rating and answers
 * the one it replaced, so each change is seen by exactly one writer however many race; that
 * writer then moves the counters by atomic ADDs (`feedback_up` / `feedback_down` on the message,
 * `feedback#up` / `feedback#down` on the workspace). dynalite has no transactions: as with the
 * query's counters, a crash between the swap and the ADDs leaves the counters one rating behind.
 */

export interface FeedbackInput {
  orgId: string;
  workspaceId: string;
  conversationId: string;
  seq: number;
  /** `user:<user id>` (a member), `key:<consumer id>` (an api key), `chat:<org id>:<chat user id>` (team chat). */
  rater: string;
  rating: 'up' | 'down';
  comment?: string;
}

interface FeedbackItem extends Item {
  rating?: string;
}

/** The rater a caller of the HTTP API rates as. */
export function raterOf(principal: Principal): string {
  return principal.apiKey ? `key:${principal.apiKey.consumerId}` : `user:${principal.userId}`;
}

/**
 * For a caller who may rate only its own conversations (an api key): a conversation of anyone
 * else is 404, as if it did not exist.
 */
export async function requireOwnConversation(
  deps: Store,
  orgId: string,
  workspaceId: string,
  conversationId: string,
  owner: string,
): Promise<void> {
  const conversation = await deps.table.get<Item>(keys.conversation(orgId, workspaceId, conversationId), true);
  if (conversation?.owner !== owner) throw new NotFoundError(`conversation ${conversationId} not found`);
}

/**
 * The answer to rate, after checking the workspace is the organisation's: 404 for anything absent,
 * 400 for a question. Answers where its rating counters are: its own item, or the item it shares
 * with its question (conversations/messages.ts), both read in the same round.
 */
async function answerToRate(deps: Store, input: FeedbackInput) {
  const { orgId, workspaceId, conversationId, seq } = input;
  const [workspace, conversation, single, before] = await Promise.all([
    deps.table.get(keys.workspace(orgId, workspaceId)),
    deps.table.get(keys.conversation(orgId, workspaceId, conversationId), true),
    deps.table.get(keys.message(orgId, workspaceId, conversationId, seq), true),
    seq > 1 ? deps.table.get(keys.message(orgId, workspaceId, conversationId, seq - 1), true) : undefined,
  ]);
  ownedWorkspace(workspace, orgId, workspaceId);
  if (!conversation) throw new NotFoundError(`conversation ${conversationId} not found`);
  const stored = storedMessage(single, before, seq);
  if (!stored) throw new NotFoundError(`message ${seq} not found in conversation ${conversationId}`);
  if (stored.message.role !== 'assistant') {
    throw new ValidationError('only answers can be rated', [
      { path: 'seq', message: `message ${seq} is a question, not an answer of the assistant` },
    ]);
  }
  return { key: { pk: stored.item.pk, sk: stored.item.sk }, counters: stored.counters };
}

/**
 * Records a rater's rating of an answer (`POST …/messages/:seq/feedback`, and team chat's 👍/👎
 * buttons). Does not check who may see the conversation: callers do, before calling it.
 * @throws NotFoundError when the workspace is not the organisation's, or the conversation or message does not exist
 * @throws ValidationError for a message that is not an answer, or a rating or comment that does not validate
 */
export async function recordFeedback(deps: Store, input: FeedbackInput): Promise<void> {
  const parsed = FeedbackBody.safeParse({ rating: input.rating, comment: input.comment });
  if (!parsed.success) throw new ValidationError('invalid feedback', issueDetails(parsed.error));
  const { rating, comment } = parsed.data;
  const answer = await answerToRate(deps, input);
  const { orgId, workspaceId, conversationId, seq, rater } = input;
  const at = deps.clock.now().toISOString();
  const names: Record<string, string> = { '#rating': 'rating', '#comment': 'comment' };
  const values: Record<string, unknown> = {
    ':rating': rating,
    ':at': at,
    ':org': orgId,
    ':ws': workspaceId,
    ':conv': conversationId,
    ':seq': seq,
    ':rater': rater,
  };
  // The last rating counts, with its own comment or none.
  let update =
    'SET #rating = :rating, updated_at = :at, created_at = if_not_exists(created_at, :at), ' +
    'org_id = :org, workspace_id = :ws, conversation_id = :conv, seq = :seq, rater = :rater';
  if (comment) values[':comment'] = comment;
  update += comment ? ', #comment = :comment' : ' REMOVE #comment';
  const previous = await deps.table.updateReturningOld<FeedbackItem>(keys.feedback(orgId, workspaceId, conversationId, seq, rater), {
    update,
    names,
    values,
  });
  const before = previous?.rating === 'up' || previous?.rating === 'down' ? previous.rating : undefined;
  if (before === rating) return; // the same rating again (perhaps a new comment): nothing to count
  await moveCounters(deps, input, answer, rating, before);
}

/** The counters of one change of a rater's rating: +1 for the new rating, -1 for the one it replaced. */
async function moveCounters(
  deps: Store,
  input: FeedbackInput,
  answer: Awaited<ReturnType<typeof answerToRate>>,
  rating: FeedbackRating,
  before: FeedbackRating | undefined,
) {
  const delta = (which: FeedbackRating) => (which === rating ? 1 : 0) - (which === before ? 1 : 0);
  await Promise.all([
    deps.table.update(answer.key, {
      update: `ADD ${answer.counters}feedback_up :up, ${answer.counters}feedback_down :down`,
      condition: 'attribute_exists(pk)',
      values: { ':up': delta('up'), ':down': delta('down') },
    }),
    addWorkspaceCounters(deps, input.orgId, input.workspaceId, {
      [counterNames.feedback('up')]: delta('up'),
      [counterNames.feedback('down')]: delta('down'),
    }),
  ]);
}
