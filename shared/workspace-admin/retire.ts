import type { Deps } from '../deps.js';
import { channelsOfWorkspace } from '../chat/index.js';
import { apiKeyKey, isConsumerItem } from '../consumers/index.js';
import { evaluationsOfWorkspace, runItemsOfEvaluation } from '../evals/index.js';
import { grantsOfConnection, isConnectionItem } from '../connections/index.js';
import { onConditionFailed, type Item, type Key } from '../platform/table.js';
import {
  isWorkspaceItem,
  workspaceDeletionUpdate,
  workspaceKey,
  workspaceStatusUpdate,
  workspaceWithChildren,
  type WorkspaceSummary,
  WORKSPACE_STATUS,
  toSummary,
  workspaceNotFound,
  type WorkspaceItem,
} from '../workspaces/index.js';

/*
 * A workspace's end: archived (kept, silent, out of the default list, back with unarchive) or
 * deleted (its configuration gone, its id kept so it is never handed out again).
 */

/** Sets a live workspace's status (`active` or `archived`); a deleted or another organisation's one is 404. */
async function setStatus(deps: Deps, orgId: string, workspaceId: string, status: 'active' | 'archived'): Promise<WorkspaceSummary> {
  const { key, input } = workspaceStatusUpdate(orgId, workspaceId, status, deps.clock.now().toISOString());
  const item = await onConditionFailed(deps.table.update<WorkspaceItem>(key, input), () => workspaceNotFound(workspaceId));
  return toSummary(item);
}

/** `POST /api/workspaces/:id/archive`: it answers no queries (409) and leaves the default list; its data stays. */
export function archiveWorkspace(deps: Deps, orgId: string, workspaceId: string): Promise<WorkspaceSummary> {
  return setStatus(deps, orgId, workspaceId, WORKSPACE_STATUS.archived);
}

/** `POST /api/workspaces/:id/unarchive`: it answers again. */
export function unarchiveWorkspace(deps: Deps, orgId: string, workspaceId: string): Promise<WorkspaceSummary> {
  return setStatus(deps, orgId, workspaceId, WORKSPACE_STATUS.active);
}

/** Deletes items many at a time (a workspace's configuration: tens to a few thousand items). */
async function deleteAll(deps: Deps, items: Key[]): Promise<void> {
  for (let at = 0; at < items.length; at += 25) {
    await Promise.all(items.slice(at, at + 25).map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
  }
}

/**
 * What a workspace owns outside its partition: its consumers' key records, its channel bindings, its
 * connections' OAuth clients and grants, its evaluations with their runs and results.
 */
async function ownedElsewhere(deps: Deps, orgId: string, workspaceId: string, partition: Item[]): Promise<Key[]> {
  const keyRecords = partition.flatMap((item) =>
    isConsumerItem(item) && typeof item.key_hash === 'string' ? [apiKeyKey(item.key_hash)] : [],
  );
  const connectionIds = partition.flatMap((item) => (isConnectionItem(item) && typeof item.id === 'string' ? [item.id] : []));
  const [channels, evaluations, ...grants] = await Promise.all([
    deps.table.queryAll(channelsOfWorkspace(orgId, workspaceId)),
    deps.table.queryAll(evaluationsOfWorkspace(orgId, workspaceId)),
    ...connectionIds.map((id) => deps.table.queryAll(grantsOfConnection(id))),
  ]);
  const evalIds = evaluations.flatMap((item) => (typeof item.id === 'string' ? [item.id] : []));
  const runs = await Promise.all(evalIds.map((id) => deps.table.queryAll(runItemsOfEvaluation(id))));
  // The process that carries the MCP hub closes their clients (the API function on AWS has none).
  await Promise.all(connectionIds.map((id) => deps.mcp?.drop(id)));
  // Channel bindings are read through the listings index: their own keys are what goes.
  return [...keyRecords, ...channels, ...grants.flat(), ...runs.flat(), ...evaluations];
}

/**
 * `DELETE /api/workspaces/:id`. First the workspace becomes `deleted` and leaves the list (from then
 * on every route answers 404 for it and its keys find nothing to serve), then its configuration
 * goes: connections, tools, knowledge, guardrails, consumers and their keys, channel bindings,
 * evaluations. Last the workspace item is cut down to its id and status, which keeps the id from
 * being handed out again to a new workspace, which would then see the old one's conversations and
 * audit log: those, its approvals and its counters stay stored, unreachable (unbounded, so not
 * removed in a request; docs/data-model.md). A delete that failed part way is finished by asking again.
 */
export async function deleteWorkspace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  const mark = workspaceDeletionUpdate(orgId, workspaceId, deps.clock.now().toISOString());
  const marked = await onConditionFailed(deps.table.updateReturningOld<WorkspaceItem & { cleared_at?: string }>(mark.key, mark.input), () =>
    workspaceNotFound(workspaceId),
  );
  if (!marked) throw workspaceNotFound(workspaceId);
  const partition = (await deps.table.queryAll(workspaceWithChildren(orgId, workspaceId))).filter((item) => !isWorkspaceItem(item));
  await deleteAll(deps, await ownedElsewhere(deps, orgId, workspaceId, partition));
  // Its keys' records are gone: this process reads keys again (the others within AUTH_CACHE_MS).
  deps.apiKeys.forgetAll();
  await deleteAll(deps, partition);
  const now = deps.clock.now().toISOString();
  await deps.table.put({
    ...workspaceKey(orgId, workspaceId),
    id: workspaceId,
    org_id: orgId,
    status: WORKSPACE_STATUS.deleted,
    deleted_at: now,
    cleared_at: now,
  });
}
