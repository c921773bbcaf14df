import { createHash } from 'node:crypto';
import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import { indexEntry, indexSchema, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, outOf, tableEntity, updateOf } from '../platform/updates.js';
import { APPROVAL_DUE_SHARDS, APPROVAL_DUE_STATUS } from './expiry.js';

/*
 * The approval of one tool call (docs/data-model.md; approvals.ts): in its workspace's approvals
 * partition, newest first (ids are time-ordered), listed by status, and, while pending, in the
 * index of approvals by the time they expire, which the lifecycle sweep reads.
 */

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;

/** An approval (`WSAPPR#<org>#<workspace>` / `APPR#<id>`). */
const approvalEntity = tableEntity('approval', {
  id: string(),
  org_id: string(),
  workspace_id: string(),
  conversation_id: string(),
  status: string().enum(...APPROVAL_STATUSES),
  tool: string(),
  connection: nullableString,
  /** The arguments as shown (JSON), and the SHA-256 of their canonical JSON that binds the call to them. */
  input: string(),
  input_hash: string(),
  requested_by: string(),
  requester: string(),
  approvers: string().enum('admins', 'requester'),
  expires_at: string(),
  created_at: string(),
  decided_by: nullableString,
  decided_at: nullableString,
  reason: nullableString,
  /** Who asked (`Caller`, JSON): kept after the decision. */
  caller: string(),
  /** The paused query (`PausedQuery`, JSON); removed by the write that decides. None for a gateway call's. */
  paused: string().optional(),
  /** `gateway`: a person's tool call through the MCP gateway, which no paused query waits on (absent: the agent's). */
  source: string().enum('agent', 'gateway').optional(),
  /** When a gateway call ran on this approval: each approval lets one call run. */
  consumed_at: string().optional(),
  // Its entry in the listing by status and, while pending, in the index of expiries.
  ...indexSchema('lookups', string().optional()),
  ...indexSchema('approvalExpiries', string().optional()),
  due_at: string().optional(),
});

export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

const approvalsPartition = (orgId: string, workspaceId: string) => `WSAPPR#${orgId}#${workspaceId}`;

export const approvalKey = (orgId: string, workspaceId: string, approvalId: string): Key => ({
  pk: approvalsPartition(orgId, workspaceId),
  sk: `APPR#${approvalId}`,
});

const byStatus = (orgId: string, workspaceId: string, status: ApprovalStatus) => `${approvalsPartition(orgId, workspaceId)}#${status}`;

/** An approval's entry in its workspace's listing of one status. */
export const approvalStatusListing = (orgId: string, workspaceId: string, status: ApprovalStatus, approvalId: string) =>
  indexEntry('lookups', byStatus(orgId, workspaceId, status), approvalId);

function expiryShardOf(workspaceId: string, approvalId: string): number {
  return (createHash('sha1').update(`${workspaceId}#${approvalId}`).digest()[0] ?? 0) % APPROVAL_DUE_SHARDS;
}

/** A pending approval's entry in the index of expiries (one of its shards), due at its expiry. */
export function approvalExpiryEntry(orgId: string, workspaceId: string, approvalId: string, expiresAt: string) {
  return {
    ...indexEntry(
      'approvalExpiries',
      `DUE#${APPROVAL_DUE_STATUS}#${expiryShardOf(workspaceId, approvalId)}`,
      `${expiresAt}#${orgId}#${workspaceId}#${approvalId}`,
    ),
    due_at: expiresAt,
  };
}

/**
 * An approval's `caller` and `paused` rewritten (migration 007), only while its status is still
 * `status`: neither changes while it waits, and a decision only removes `paused`.
 */
export function approvalRewrite(key: Key, status: ApprovalStatus, rewritten: { caller: string; paused?: string }) {
  const command = approvalEntity
    .build(UpdateItemCommand)
    .item({ ...key, caller: rewritten.caller, ...(rewritten.paused === undefined ? {} : { paused: rewritten.paused }) })
    .options({ condition: { attr: 'status', eq: status } });
  return updateOf(command);
}

/**
 * When a pending approval may be decided: once it is due (an expiry), at any time (an expiry
 * before its time: the conversation was closed), or while it has not expired (a person's decision).
 */
type Claim = 'when due' | 'any time' | 'in time';

function pendingFor(claim: Claim, at: string): Condition<typeof approvalEntity> {
  const pending = { attr: 'status', eq: 'pending' } as const;
  if (claim === 'any time') return pending;
  return { and: [pending, claim === 'when due' ? { attr: 'expires_at', lte: at } : { attr: 'expires_at', gt: at }] };
}

/**
 * A pending approval moved to its decision, listed under its new status and out of the expiries;
 * the paused query is not kept (it holds tool results). Only while it is pending, and as `claim` says.
 */
export function decisionUpdate(
  approval: { org_id: string; workspace_id: string; id: string },
  decision: { status: Exclude<ApprovalStatus, 'pending'>; decidedBy: string | null; reason: string | null; at: string },
  claim: Claim,
) {
  const command = approvalEntity
    .build(UpdateItemCommand)
    .item({
      ...approvalKey(approval.org_id, approval.workspace_id, approval.id),
      status: decision.status,
      decided_by: decision.decidedBy,
      decided_at: decision.at,
      reason: decision.reason,
      ...approvalStatusListing(approval.org_id, approval.workspace_id, decision.status, approval.id),
      ...outOf('approvalExpiries'),
      due_at: $remove(),
      paused: $remove(),
    })
    .options({ condition: pendingFor(claim, decision.at) });
  return updateOf(command);
}

/**
 * An approved gateway approval used by the call it lets run: one conditional write, so of two
 * calls with the same arguments exactly one runs on it.
 */
export function consumeUpdate(approval: { org_id: string; workspace_id: string; id: string }, at: string) {
  const command = approvalEntity
    .build(UpdateItemCommand)
    .item({ ...approvalKey(approval.org_id, approval.workspace_id, approval.id), consumed_at: at })
    .options({
      condition: {
        and: [
          { attr: 'status', eq: 'approved' },
          { attr: 'consumed_at', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/**
 * The latest approval a person asked for one gateway call (`GWAPPR#<org>#<ws>` /
 * `CALL#<user>#<tool>#<arguments hash>`): read by key when the same call comes again, so it
 * finds the approval that lets it run, or the one it still waits on.
 */
export const gatewayCallKey = (orgId: string, workspaceId: string, call: { userId: string; tool: string; inputHash: string }): Key => ({
  pk: `GWAPPR#${orgId}#${workspaceId}`,
  sk: `CALL#${call.userId}#${call.tool}#${call.inputHash}`,
});

// --- Access patterns ---

/** A workspace's approvals, of one status or all (read newest first). */
export const approvalsOfWorkspace = (orgId: string, workspaceId: string, status?: ApprovalStatus): QueryInput =>
  status ? { index: 'lookups', pk: byStatus(orgId, workspaceId, status) } : { pk: approvalsPartition(orgId, workspaceId) };

/** One shard of the pending approvals in the index of expiries, by the time they expire (the lifecycle sweep reads them: sweep/due-sweep.ts). */
export const expiringApprovals = (shard: number) => ({ index: 'approvalExpiries' as const, pk: `DUE#${APPROVAL_DUE_STATUS}#${shard}` });

/** Every approval of every workspace (migration 007). */
export const everyApproval = () =>
  conditionOf(approvalEntity, {
    and: [
      { attr: 'pk', beginsWith: 'WSAPPR#' },
      { attr: 'sk', beginsWith: 'APPR#' },
    ],
  });
