import type { AgentDeps } from '../deps.js';
import { recordFeedback } from '../conversations/index.js';
import { DomainError, errorMessage } from '../platform/errors.js';
import { getBinding } from '../chat/index.js';
import type { WebClient } from '@slack/web-api';
import type { types } from '@slack/bolt';

/** Which answer a button rates: small, in the button's value (the platform caps it at 2 000 characters). */
interface AnswerRef {
  w: string;
  c: string;
  s: number;
}

export const FEEDBACK_ACTIONS = { up: 'feedback_up', down: 'feedback_down' } as const;

/** The 👍/👎 buttons under an answer. */
export function feedbackBlocks(workspaceId: string, conversationId: string, seq: number): types.KnownBlock[] {
  const value = JSON.stringify({ w: workspaceId, c: conversationId, s: seq } satisfies AnswerRef);
  const button = (actionId: string, emoji: string, label: string) => ({
    type: 'button' as const,
    action_id: actionId,
    text: { type: 'plain_text' as const, text: emoji, emoji: true },
    accessibility_label: label,
    value,
  });
  return [
    {
      type: 'actions',
      block_id: 'feedback',
      elements: [button(FEEDBACK_ACTIONS.up, '👍', 'This answer helped'), button(FEEDBACK_ACTIONS.down, '👎', 'This answer did not help')],
    },
  ];
}

function refOf(value: string | undefined): AnswerRef | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as Partial<AnswerRef>;
    if (typeof parsed.w === 'string' && typeof parsed.c === 'string' && Number.isInteger(parsed.s)) return parsed as AnswerRef;
  } catch {
    // not one of our buttons
  }
  return undefined;
}

/** A press of a feedback button, as the bridge reads it from the interactive payload. */
export interface FeedbackPress {
  user: string;
  channel: string;
  threadTs: string | undefined;
  actionId: string;
  value: string | undefined;
}

/**
 * Records a 👍/👎 press as the chat user's rating of the answer (the last press counts), and tells
 * only that user it was noted. The button's value is checked against the channel it was pressed
 * in: the answer must be of the workspace the channel is bound to, and of a thread of that channel.
 */
export async function handleFeedbackPress(
  deps: AgentDeps,
  context: { orgId: string; client: WebClient },
  press: FeedbackPress,
): Promise<void> {
  const ref = refOf(press.value);
  if (!ref) return;
  const rating = press.actionId === FEEDBACK_ACTIONS.up ? 'up' : 'down';
  const tell = (text: string) =>
    context.client.chat.postEphemeral({
      channel: press.channel,
      user: press.user,
      text,
      ...(press.threadTs ? { thread_ts: press.threadTs } : {}),
    });
  const binding = await getBinding(deps, context.orgId, press.channel);
  if (binding?.workspace_id !== ref.w || !ref.c.startsWith(`${press.channel}-`)) {
    await tell('This answer is no longer part of a workspace bound to this channel, so the feedback was not recorded.');
    return;
  }
  try {
    await recordFeedback(deps, {
      orgId: context.orgId,
      workspaceId: ref.w,
      conversationId: ref.c,
      seq: ref.s,
      rater: `chat:${context.orgId}:${press.user}`,
      rating,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    deps.logger.warn('team-chat feedback refused', { orgId: context.orgId, error: errorMessage(error) });
    await tell('That answer can no longer be rated.');
    return;
  }
  await tell(rating === 'up' ? 'Thanks: noted that this answer helped.' : 'Thanks: noted that this answer did not help.');
}
