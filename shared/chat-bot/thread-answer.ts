import type { WebClient } from '@slack/web-api';
import type { PendingApproval, QueryResponse } from '../agent/index.js';
import { getApproval, toApprovalView } from '../approvals/index.js';
import type { Store } from '../platform/store.js';
import { approvalBlockId, approvalRequestMessage, decidedApprovalMessage } from './approval-messages.js';
import { feedbackBlocks } from './feedback-buttons.js';
import { entitySafeCut, escapeMrkdwn, type DecisionForThread } from '../chat/index.js';
import { MAX_MESSAGE_CHARS, type ThreadReply } from './reply.js';

/*
 * How an answer ends in its thread — why it stopped, the 👍/👎 buttons, or the approval message it
 * waits for — whether it was streamed there (the bridge) or is posted after a decision made
 * elsewhere (the chat notifier).
 */

interface Thread {
  channel: string;
  threadTs: string;
}

/** The query's result, as `runQuery` and `decideApproval` answer it. */
interface QueryResult {
  response: QueryResponse;
  answerSeq: number | null;
}

/** The platform's limit is 40 000 characters; posts are split well below it. */
const MAX_POST_CHARS = 3_900;
/** Threads searched for an approval message: at most this many pages of replies. */
const MAX_REPLY_PAGES = 5;

/**
 * Splits an answer into posts of at most `max` characters, at paragraph, line or word boundaries,
 * else at `max` (but not inside an entity of escaped text).
 */
export function splitForPosting(text: string, max = MAX_POST_CHARS): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max);
    // The last paragraph break in the second half of the window, else a line break, else a space.
    const cut = ['\n\n', '\n', ' '].map((separator) => window.lastIndexOf(separator)).find((index) => index > max / 2);
    const at = cut ?? (entitySafeCut(rest, max) || max);
    parts.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts.length ? parts : [''];
}

/** What ends the text of an answer: why it stopped, if it did; "(no answer)" for nothing at all (a paused query has said nothing yet). */
function answerEnding(response: QueryResponse, hasText: boolean): string {
  if (response.error) return `${hasText ? '\n\n' : ''}Sorry, I could not finish: ${response.error}`;
  if (hasText && response.citations?.length) return `\n\n${sourcesOf(response.citations)}`;
  return hasText || response.pending_approval ? '' : '(no answer)';
}

/** The passages an answer cites, as a short list under it (written through the reply, which escapes it). */
function sourcesOf(citations: NonNullable<QueryResponse['citations']>): string {
  const lines = citations.map((citation) => `[${citation.n}] ${citation.title}${citation.section ? ` › ${citation.section}` : ''}`);
  return `Sources:\n${lines.join('\n')}`;
}

/** The 👍/👎 buttons of a finished answer; none while it waits for an approval. */
function buttonsOf(workspaceId: string, result: QueryResult) {
  return result.answerSeq === null || result.response.pending_approval
    ? []
    : feedbackBlocks(workspaceId, result.response.conversation_id, result.answerSeq);
}

/** Posts the approval message of a paused query, with its Approve / Deny buttons. */
async function postApprovalRequest(
  store: Store,
  client: WebClient,
  thread: Thread,
  scope: { orgId: string; workspaceId: string },
  pending: PendingApproval,
) {
  const { orgId, workspaceId } = scope;
  const item = await getApproval(store, orgId, workspaceId, pending.id);
  await client.chat.postMessage({
    channel: thread.channel,
    thread_ts: thread.threadTs,
    ...approvalRequestMessage(workspaceId, pending, item?.approvers),
  });
}

/** Ends an answer streamed into the thread (`ThreadReply`); a paused one is followed by its approval message. */
export async function finishAnswer(
  store: Store,
  client: WebClient,
  reply: ThreadReply,
  ask: Thread & { orgId: string; workspaceId: string },
  result: QueryResult,
): Promise<void> {
  await reply.finish(answerEnding(result.response, reply.hasText), buttonsOf(ask.workspaceId, result));
  const pending = result.response.pending_approval;
  if (pending) await postApprovalRequest(store, client, ask, ask, pending);
}

/** Rewrites an approval message as decided: who decided what, and no buttons. */
export async function showDecision(
  client: WebClient,
  message: { channel: string; ts: string },
  workspaceId: string,
  approval: PendingApproval,
  decision: DecisionForThread['decision'],
): Promise<void> {
  await client.chat.update({ channel: message.channel, ts: message.ts, ...decidedApprovalMessage(workspaceId, approval, decision) });
}

/** The approval message of an approval in its thread (found by its block id), if the bot can still see it. */
async function findApprovalMessage(client: WebClient, thread: Thread, approvalId: string): Promise<string | undefined> {
  const blockId = approvalBlockId(approvalId);
  let cursor: string | undefined;
  for (let page = 0; page < MAX_REPLY_PAGES; page += 1) {
    const replies = await client.conversations.replies({
      channel: thread.channel,
      ts: thread.threadTs,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    const found = replies.messages?.find((message) => message.blocks?.some((block) => block.block_id === blockId));
    if (found?.ts) return found.ts;
    cursor = replies.response_metadata?.next_cursor;
    if (!cursor) return undefined;
  }
  return undefined;
}

/**
 * An approval decided outside the thread (the API, the expiry): its message shows the decision (or
 * the decision is posted, where the message is not found), then the rest of the answer is posted
 * with the 👍/👎 buttons, or the next approval message.
 */
export async function showDecisionInThread(store: Store, client: WebClient, decided: DecisionForThread): Promise<void> {
  const thread = { channel: decided.channelId, threadTs: decided.threadTs };
  const item = await getApproval(store, decided.orgId, decided.workspaceId, decided.approvalId);
  if (item) {
    const ts = await findApprovalMessage(client, thread, item.id);
    if (ts) await showDecision(client, { channel: thread.channel, ts }, decided.workspaceId, toApprovalView(item), decided.decision);
    else {
      const message = decidedApprovalMessage(decided.workspaceId, toApprovalView(item), decided.decision);
      await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.threadTs, ...message });
    }
  }
  const { response } = decided;
  const rest = response.answer.startsWith(decided.answeredBefore)
    ? response.answer.slice(decided.answeredBefore.length).trim()
    : response.answer;
  // The model's text (and the tools' it quotes): escaped, so it can neither mention nor link.
  const text = escapeMrkdwn(`${rest}${answerEnding(response, rest !== '')}`);
  const buttons = buttonsOf(decided.workspaceId, decided);
  const parts = text ? splitForPosting(text, MAX_MESSAGE_CHARS) : [];
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    // With blocks the platform shows the blocks, not the text: the text goes in a section above the buttons.
    const blocks =
      last && buttons.length ? [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: part } }, ...buttons] : undefined;
    await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.threadTs, text: part, ...(blocks ? { blocks } : {}) });
  }
  if (response.pending_approval) await postApprovalRequest(store, client, thread, decided, response.pending_approval);
}
