import type { Deps } from '../deps.js';
import { newId } from '../platform/ids.js';
import { listShardOf } from '../platform/list-shards.js';
import { workspaceLabel } from '../platform/metrics.js';
import { addWorkspaceCounters } from './counters.js';
import { activityEntryKey } from './entities.js';
import type { ToolCallOutcome } from './schemas.js';

/*
 * A person's tool call through the workspace's MCP endpoint (agent/gateway/) in the audit log: an
 * entry of its own (`kind: tool_call`), with no conversation and no model cost, beside the queries.
 */

/** The workspace counter of its tool calls through the gateway, all time (the activity list's total adds it to its queries). */
export const TOOL_CALLS_TOTAL = 'total#tool_calls';

export interface ToolCallAudit {
  orgId: string;
  workspaceId: string;
  userId: string;
  userName: string;
  /** The MCP client's name; the entry's consumer is named after it (`mcp:<client name>`). */
  client: string;
  tool: string;
  connection: string | null;
  outcome: ToolCallOutcome;
  durationMs: number;
  /** Why it did not answer, as its caller was told; null when it did. */
  error: string | null;
  /** The decision that let it run, or refused it. */
  approval?: { id: string; status: string; decided_by: string | null; decided_at: string | null; reason: string | null };
}

/** The audit entry of one tool call, in the audit log's shard its id picks. */
function toolCallEntry(audit: ToolCallAudit, now: Date) {
  const id = newId('act', now);
  const at = now.toISOString();
  return {
    ...activityEntryKey(audit.orgId, audit.workspaceId, at, id, listShardOf(id)),
    id,
    kind: 'tool_call',
    conversation_id: null,
    user_id: audit.userId,
    consumer_id: null,
    user_name: audit.userName,
    client: audit.client,
    consumer: `mcp:${audit.client}`,
    tool: audit.tool,
    outcome: audit.outcome,
    query: '',
    tools_called: [audit.tool],
    connections_hit: audit.connection ? [audit.connection] : [],
    tokens_input: 0,
    tokens_output: 0,
    tokens_cache_read: 0,
    tokens_cache_write: 0,
    cost_usd: 0,
    duration_ms: Math.round(audit.durationMs),
    error: audit.error,
    approvals: audit.approval ? [{ ...audit.approval, tool: audit.tool }] : [],
    created_at: at,
  };
}

/** Writes a tool call's audit entry and counts it (the workspace's count of tool calls, the `tool_calls` metric). */
export async function auditToolCall(deps: Deps, audit: ToolCallAudit): Promise<void> {
  const now = deps.clock.now();
  await Promise.all([
    deps.table.put(toolCallEntry(audit, now)),
    addWorkspaceCounters(deps, audit.orgId, audit.workspaceId, { [TOOL_CALLS_TOTAL]: 1 }, now),
  ]);
  deps.metrics.count('tool_calls', 1, { workspace: workspaceLabel(audit.orgId, audit.workspaceId) });
}
