import type { PausedQuery } from '../../approvals/index.js';
import type { Citation } from '../../knowledge/index.js';
import type { PendingApproval } from '../events.js';
import type { LoopResult } from '../loop.js';
import { tokenCountsOf } from '../../models/index.js';
import type { ApprovalRecord, SavedQuery } from './persist.js';
import type { QueryResponse } from './types.js';

/** The query's answer, as JSON and as the stream's `done`: the same for a query and a resumed one. */
export function queryResponse(
  loop: LoopResult,
  done: {
    costUsd: number;
    durationMs: number;
    conversationId: string;
    authorizationUrl?: string;
    pending: PendingApproval | null;
    citations?: Citation[];
  },
): QueryResponse {
  return {
    answer: loop.answer,
    tools_called: loop.toolsCalled,
    connections_hit: loop.connectionsHit,
    tokens: tokenCountsOf(loop.usage),
    cost_usd: done.costUsd,
    duration_ms: done.durationMs,
    error: loop.error,
    conversation_id: done.conversationId,
    session_id: done.conversationId,
    ...(done.authorizationUrl ? { authorization_url: done.authorizationUrl } : {}),
    pending_approval: done.pending,
    ...(done.citations?.length ? { citations: done.citations } : {}),
  };
}

/** What a paused query has stored and counted so far, for its approval item. */
export function pausedSoFar(
  query: string,
  saved: SavedQuery,
  spent: { costUsd: number; durationMs: number; loop: LoopResult },
  earlier: ApprovalRecord[],
): Omit<PausedQuery, 'checkpoint' | 'caller'> {
  return {
    query,
    durationMs: spent.durationMs,
    activityAt: saved.activityAt,
    activityId: saved.activityId,
    activityShard: saved.activityShard,
    counted: {
      costUsd: spent.costUsd,
      durationMs: spent.durationMs,
      tokensInput: spent.loop.usage.input,
      tokensOutput: spent.loop.usage.output,
      tokensCacheRead: spent.loop.usage.cacheRead,
      tokensCacheWrite: spent.loop.usage.cacheWrite,
    },
    earlier,
  };
}
