import { storedMessage } from './messages.js';
import { $add, $get, $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Principal } from '../auth/index.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import type { Store } from '../platform/store.js';
import type { Item, Key } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { issueDetails } from '../platform/validation.js';
import { addWorkspaceCounters, counterNames, workspaceKey, ownedWorkspace } from '../workspaces/index.js';
import { conversationNotFound, inScope, readScope } from './visibility.js';
import { conversationKey, feedbackEntity, feedbackKey, messageEntity, messageKey } from './entities.js';
import { FeedbackBody, type FeedbackRating } from './schemas.js';

/**
 * Feedback on answers: one rating per rater and answer, the last one counts. The rater's rating
 * item (`feedbackKey`) is the commit point: one UpdateItem swaps in the new rating and answers
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
  /** A caller of the HTTP API: the conversation must be one they read (conversations/visibility.ts), else 404. */
  reader?: Principal;
}

interface FeedbackItem extends Item {
  rating?: string;
}

/** The rater a caller of the HTTP API rates as. */
export function raterOf(principal: Principal): string {
  return principal.apiKey ? `key:${principal.apiKey.consumerId}` : `user:${principal.userId}`;
}

/**
 * The answer to rate, after checking the workspace is the organisation's: 404 for anything absent,
 * 400 for a question. Answers where its rating counters are: its own item, or the item it shares
 * with its question (conversations/messages.ts), both read in the same round.
 */
async function answerToRate(deps: Store, input: FeedbackInput) {
  const { orgId, workspaceId, conversationId, seq } = input;
  const [workspace, conversation, single, before] = await Promise.all([
    deps.table.get(workspaceKey(orgId, workspaceId)),
    deps.table.get(conversationKey(orgId, workspaceId, conversationId), true),
    deps.table.get(messageKey(orgId, workspaceId, conversationId, seq), true),
    seq > 1 ? deps.table.get(messageKey(orgId, workspaceId, conversationId, seq - 1), true) : undefined,
  ]);
  const owned = ownedWorkspace(workspace, orgId, workspaceId);
  const readable = conversation && (!input.reader || inScope(await readScope(deps, input.reader, owned), conversation));
  if (!readable) throw conversationNotFound(conversationId);
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
 * buttons). Checks that an HTTP caller (`reader`) reads the conversation; team chat's buttons are
 * pressed in the thread itself.
 * @throws NotFoundError when the workspace is not the organisation's, or the conversation or message does not exist
 * @throws ValidationError for a message that is not an answer, or a rating or comment that does not validate
 */
export async function recordFeedback(deps: Store, input: FeedbackInput): Promise<void> {
  const parsed = FeedbackBody.safeParse({ rating: input.rating, comment: input.comment });
  if (!parsed.success) throw new ValidationError('invalid feedback', issueDetails(parsed.error));
  const { rating, comment } = parsed.data;
  const answer = await answerToRate(deps, input);
  const write = ratingUpdate(input, rating, comment, deps.clock.now().toISOString());
  const previous = await deps.table.updateReturningOld<FeedbackItem>(write.key, write.input);
  const before = previous?.rating === 'up' || previous?.rating === 'down' ? previous.rating : undefined;
  if (before === rating) return; // the same rating again (perhaps a new comment): nothing to count
  await moveCounters(deps, input, answer, rating, before);
}

/** The rater's rating item, swapped in: the last rating counts, with its own comment or none. */
function ratingUpdate(input: FeedbackInput, rating: FeedbackRating, comment: string | undefined, at: string) {
  const { orgId, workspaceId, conversationId, seq, rater } = input;
  const command = feedbackEntity.build(UpdateItemCommand).item({
    ...feedbackKey(orgId, workspaceId, conversationId, seq, rater),
    rating,
    updated_at: at,
    created_at: $get('created_at', at),
    org_id: orgId,
    workspace_id: workspaceId,
    conversation_id: conversationId,
    seq,
    rater,
    comment: comment || $remove(),
  });
  return updateOf(command);
}

/** The rating counters of the answer at `key` moved by `up` and `down`: its own, or those beside its question (`answer_`). */
function countersUpdate(key: Key, counters: '' | 'answer_', up: number, down: number) {
  const command = messageEntity
    .build(UpdateItemCommand)
    .item({
      ...key,
      ...(counters
        ? { answer_feedback_up: $add(up), answer_feedback_down: $add(down) }
        : { feedback_up: $add(up), feedback_down: $add(down) }),
    })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
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
  const counters = countersUpdate(answer.key, answer.counters, delta('up'), delta('down'));
  await Promise.all([
    deps.table.update(counters.key, counters.input),
    addWorkspaceCounters(deps, input.orgId, input.workspaceId, {
      [counterNames.feedback('up')]: delta('up'),
      [counterNames.feedback('down')]: delta('down'),
    }),
  ]);
}
