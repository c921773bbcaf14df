import { createHash } from 'node:crypto';
import type { Caller, LoopCheckpoint, ApprovalRecord, CountedSoFar } from '../agent/index.js';
import { type Metrics, workspaceLabel } from '../platform/metrics.js';
import type { Store } from '../platform/store.js';
import { conversationKey } from '../conversations/index.js';
import {
  approvalExpiryEntry,
  approvalKey,
  approvalsOfWorkspace,
  approvalStatusListing,
  type ApprovalStatus,
  decisionUpdate,
} from './entities.js';
import { readPage } from '../platform/pages.js';
import type { Pagination } from '../http/schemas.js';
import type { Item } from '../platform/table.js';
import { unlessConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters, counterNames } from '../workspaces/index.js';

/*
 * The approval of one tool call: what was asked (the tool and its exact arguments, bound by a
 * hash), by whom, until when, and everything the paused query needs to go on once it is decided.
 * Nothing waits in memory: the item is the query's whole state while it waits.
 */

export type { ApprovalStatus } from './entities.js';

/** What the paused query had spent and recorded when it paused (its audit entry is rewritten at the end). */
export interface PausedQuery {
  caller: Caller;
  /** The question as screened, and the time the query has taken so far. */
  query: string;
  durationMs: number;
  activityAt: string;
  activityId: string;
  /** The audit log's shard of its entry. */
  activityShard: number;
  counted: CountedSoFar;
  checkpoint: LoopCheckpoint;
  /** Decisions already made on earlier calls of the same query. */
  earlier: ApprovalRecord[];
}

export interface ApprovalFields {
  id: string;
  org_id: string;
  workspace_id: string;
  conversation_id: string;
  status: ApprovalStatus;
  tool: string;
  connection: string | null;
  /** The arguments as shown (JSON), and the hash that binds the call to them. */
  input: string;
  input_hash: string;
  requested_by: string;
  requester: string;
  approvers: 'admins' | 'requester';
  expires_at: string;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  /** Who asked (`Caller`, JSON): kept after the decision, when the paused query is dropped. */
  caller: string;
  /** The paused query (`PausedQuery`, JSON); removed by the write that decides. None for a gateway call's. */
  paused?: string;
  /** `gateway`: a person's call through the MCP gateway (agent/gateway/), which no paused query waits on. */
  source?: 'agent' | 'gateway';
  /** When the gateway call it let run ran (each approval lets one run). */
  consumed_at?: string;
}

export type ApprovalItem = ApprovalFields & Item;

/** An approval as the API shows it. */
export interface ApprovalView {
  id: string;
  status: ApprovalStatus;
  tool: string;
  connection: string | null;
  input: Record<string, unknown>;
  requested_by: string;
  conversation_id: string;
  approvers: 'admins' | 'requester';
  expires_at: string;
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  /** `agent`: a query waits on it; `gateway`: a person's call through the workspace's MCP endpoint, run when they call again. */
  source: 'agent' | 'gateway';
}

/** JSON with its keys sorted at every level: the same arguments always hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function argumentsHash(input: unknown): string {
  return createHash('sha256').update(canonical(input)).digest('hex');
}

export function toApprovalView(item: ApprovalItem): ApprovalView {
  return {
    id: item.id,
    status: item.status,
    tool: item.tool,
    connection: item.connection,
    input: JSON.parse(item.input) as Record<string, unknown>,
    requested_by: item.requested_by,
    conversation_id: item.conversation_id,
    approvers: item.approvers,
    expires_at: item.expires_at,
    created_at: item.created_at,
    decided_by: item.decided_by,
    decided_at: item.decided_at,
    reason: item.reason,
    source: item.source ?? 'agent',
  };
}

export function pausedQueryOf(item: ApprovalItem): PausedQuery {
  if (!item.paused) throw new Error(`approval ${item.id} keeps no paused query: it was decided`);
  return JSON.parse(item.paused) as PausedQuery;
}

/** Who asked: their organisation, role, name, owner, and (team chat) thread and chat user. */
export function callerOf(item: ApprovalItem): Caller {
  return JSON.parse(item.caller) as Caller;
}

/** Whether the conversation of an approval was closed while the call waited. */
export async function conversationClosed(deps: Store, item: ApprovalItem): Promise<boolean> {
  const conversation = await deps.table.get<{ status?: string }>(
    conversationKey(item.org_id, item.workspace_id, item.conversation_id),
    true,
  );
  return conversation?.status === 'closed';
}

/** Records a new pending approval (and counts it on the dashboard). */
export async function createApproval(deps: Store & { metrics: Metrics }, item: ApprovalFields): Promise<ApprovalItem> {
  const stored: ApprovalItem = {
    ...approvalKey(item.org_id, item.workspace_id, item.id),
    ...approvalStatusListing(item.org_id, item.workspace_id, 'pending', item.id),
    // In the index of expiries until decided, for the sweep that expires it if its schedule is lost.
    ...approvalExpiryEntry(item.org_id, item.workspace_id, item.id, item.expires_at),
    ...item,
  };
  await deps.table.put(stored);
  await addWorkspaceCounters(deps, item.org_id, item.workspace_id, { [counterNames.approvals('pending')]: 1 });
  deps.metrics.count('approvals', 1, { workspace: workspaceLabel(item.org_id, item.workspace_id), outcome: 'requested' });
  return stored;
}

export async function getApproval(deps: Store, orgId: string, workspaceId: string, approvalId: string): Promise<ApprovalItem | undefined> {
  return deps.table.get<ApprovalItem>(approvalKey(orgId, workspaceId, approvalId), true);
}

/** A workspace's approvals, newest first, of one status or all: one page (by `offset` or `cursor`), and the total. */
export async function listApprovals(
  deps: Store,
  orgId: string,
  workspaceId: string,
  status: ApprovalStatus | undefined,
  page: Pagination,
  mayDecide: (item: ApprovalItem) => boolean,
): Promise<{ approvals: (ApprovalView & { can_decide: boolean })[]; total: number; next_cursor: string | null }> {
  const query = approvalsOfWorkspace(orgId, workspaceId, status);
  const [items, total] = await Promise.all([
    readPage<ApprovalItem>(deps.table, { ...query, newestFirst: true }, page),
    deps.table.count(query),
  ]);
  const approvals = items.items.map((item) => ({ ...toApprovalView(item), can_decide: item.status === 'pending' && mayDecide(item) }));
  return { approvals, total, next_cursor: items.nextCursor };
}

/**
 * Moves a pending approval to its decision: one conditional write, so of two decisions (or a
 * decision and the expiry) exactly one wins. False when it was no longer pending (or, for an
 * expiry, not yet due).
 */
export async function claimDecision(
  deps: Store & { metrics: Metrics },
  item: ApprovalItem,
  decision: { status: Exclude<ApprovalStatus, 'pending'>; decidedBy: string | null; reason: string | null; at?: string },
  /** An expiry before its time (the conversation was closed). */
  options: { early?: boolean } = {},
): Promise<boolean> {
  const now = decision.at ?? deps.clock.now().toISOString();
  const claim = options.early ? 'any time' : decision.status === 'expired' ? 'when due' : 'in time';
  // The paused query is read before the claim and not kept after it (it holds tool results).
  const { key, input } = decisionUpdate(item, { ...decision, at: now }, claim);
  const claimed = await unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
  if (claimed) {
    await addWorkspaceCounters(deps, item.org_id, item.workspace_id, {
      [counterNames.approvals('pending')]: -1,
      [counterNames.approvals(decision.status)]: 1,
    });
    deps.metrics.count('approvals', 1, { workspace: workspaceLabel(item.org_id, item.workspace_id), outcome: decision.status });
  }
  return claimed;
}
