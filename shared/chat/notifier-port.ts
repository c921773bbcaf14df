import type { QueryResponse } from '../agent/index.js';
import { ConflictError } from '../platform/errors.js';

/*
 * The port through which the core posts into team-chat threads; `notifier.ts` implements it with
 * the Web API. Light on purpose: `deps.ts` imports it, and nothing here imports the chat code.
 */

/** An approval of a team-chat conversation decided outside its thread (the API, the expiry), and what the query answered then. */
export interface DecisionForThread {
  orgId: string;
  channelId: string;
  threadTs: string;
  workspaceId: string;
  approvalId: string;
  decision: { status: 'approved' | 'denied' | 'expired'; decidedBy: string | null; reason: string | null };
  /** The answer the thread shows already (up to the pause): what follows it is posted. */
  answeredBefore: string;
  response: QueryResponse;
  answerSeq: number | null;
}

/** An approval message posted in a channel, outside any thread (an approval of a routine's run). */
export interface ChannelApprovalMessage {
  orgId: string;
  workspaceId: string;
  approvalId: string;
  channelId: string;
  ts: string;
}

/** Posts into team-chat threads (the cold notice, the outcome of an approval decided elsewhere). */
export interface ChatNotifier {
  /** Posts `text` in a thread of the channel, or in the channel itself when `threadTs` is empty. */
  postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void>;
  /**
   * Shows in the thread that its approval was decided (the approval message updated) and what
   * followed: the rest of the answer, or the next approval. Optional: a notifier that only posts
   * notices (the tests' recorder) has nothing to show it with.
   */
  continueAfterDecision?(decided: DecisionForThread): Promise<void>;
  /**
   * Posts a pending approval in the channel itself, with its Approve / Deny buttons (the approval of
   * a conversation without a thread: a routine's run); answers the message's ts, or undefined when
   * the approval is no longer pending (nothing is posted). Optional, as `continueAfterDecision`.
   */
  postApproval?(orgId: string, channelId: string, workspaceId: string, approvalId: string): Promise<string | undefined>;
  /** Shows a decided approval's decision on its channel message (who decided what; no buttons). */
  showApprovalDecision?(message: ChannelApprovalMessage): Promise<void>;
}

const NOT_CONNECTED = 'team-chat is not connected for this organisation';

/** What a post fails with before the organisation's team-chat is connected: code `not_connected`, which a budget alert skips. */
export function notConnected(why?: string): ConflictError {
  return new ConflictError(why ? `${NOT_CONNECTED} (${why})` : NOT_CONNECTED, { code: 'not_connected' });
}

/** Until the organisation's team-chat is connected: a job that needs it fails, visibly, with this reason. */
export class UnconnectedChat implements ChatNotifier {
  async postInThread(): Promise<void> {
    throw notConnected();
  }

  async continueAfterDecision(): Promise<void> {
    throw notConnected();
  }

  async postApproval(): Promise<string | undefined> {
    throw notConnected();
  }

  async showApprovalDecision(): Promise<void> {
    throw notConnected();
  }
}
