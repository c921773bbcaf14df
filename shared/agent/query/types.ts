import type { AgentListener, PendingApproval } from '../events.js';
import type { TokenCounts } from '../../models/index.js';
import type { Citation } from '../../knowledge/index.js';

/*
 * The shapes a query passes between its rooms: who asks, what they get back, and what is read of
 * the conversation.
 */

/** Who asks, and through which entry point. */
export interface Caller {
  orgId: string;
  /** Organisation role, matched against the workspace's permissions. */
  role: string;
  userName: string;
  consumerType: 'api' | 'team-chat' | 'messaging' | 'coding-agent';
  /** Display name of the chat channel, or null. */
  channel: string | null;
  /**
   * Team chat: the channel and thread the conversation lives in (for the cold notice), and the chat
   * user who asked (absent in approvals kept before it was).
   */
  chat?: { channelId: string; threadTs: string; userId?: string };
  /** Who may continue the conversations this caller starts (`conversations/owners.ts`). */
  owner: string;
  /**
   * Whose grant a per-user connection uses, when it is not the owner: a team-chat thread is owned
   * by the workspace's threads, but each chat user asks with the grant of the user of the service
   * their chat account is linked to (`user:<id>`); an unlinked one is `chat:<org>:<chat user>`,
   * which has no grant and can start none.
   */
  grantSubject?: string;
  /** An evaluation's case (`shared/evals/`): write tools do not run, nothing waits for approval. */
  evaluation?: boolean;
}

/**
 * The person of the service who asks: a signed-in user (`user:<id>` owner), or the one a linked
 * chat account asks as; null for a key or an unlinked chat account. The starter of the
 * conversations the caller starts, and the `user_id` of its audit entries.
 */
export function callerUserId(caller: Pick<Caller, 'owner' | 'grantSubject'>): string | null {
  const subject = [caller.owner, caller.grantSubject].find((value) => value?.startsWith('user:'));
  return subject ? subject.slice('user:'.length) : null;
}

/** Who listens to a query as it runs (the streaming forms); the JSON form has none. */
export interface QueryListener {
  /** The query passed its checks (access, rate, an open conversation): the stream may begin. */
  onStart?(ids: { conversation_id: string; session_id: string }): void;
  onEvent?: AgentListener;
  /** Aborted when the person stops the answer (the streaming client went away): `LoopInput.signal`. */
  signal?: AbortSignal;
}

export interface QueryResponse {
  answer: string;
  tools_called: string[];
  connections_hit: string[];
  tokens: TokenCounts;
  cost_usd: number;
  duration_ms: number;
  error: string | null;
  conversation_id: string;
  session_id: string;
  /** A per-user connection the caller must grant first. */
  authorization_url?: string;
  /** A tool call waiting for a person's approval: the query is paused until it is decided. */
  pending_approval: PendingApproval | null;
  /** The knowledge passages the answer cites as [n] (only when it cites any). */
  citations?: Citation[];
}

/** Time spent in each part of a query, for the `Server-Timing` header and the benchmark. */
export interface QueryTiming {
  totalMs: number;
  modelMs: number;
  toolMs: number;
  overheadMs: number;
}

/** Messages of the conversation sent to the model with a new query (the latest ones). */
export const CONTEXT_MESSAGES = 40;
export const MAX_TOKENS = 4096;

export interface ConversationState {
  status?: string;
  message_count?: number;
  owner?: string;
  /** Where its open due entry stands (`pending`, lazy: conversations/entities.ts `pendingEntry`). */
  gsi5sk?: string;
}
