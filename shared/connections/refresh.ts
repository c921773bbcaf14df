import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { onConditionFailed } from '../platform/table.js';
import { toConnection, toTool } from './views.js';
import { addWorkspaceCounters } from '../workspaces/index.js';
import { type ConnectionItem, connectionSpec, findConnection, recordHealth, replaceTools } from './connections.js';
import { discoverTools } from './discovery.js';
import { connectedListingUpdate, connectionKey, toolsOfConnection } from './entities.js';
import { truncatedField } from './schemas.js';

/** The connection as listed, with its cached tools and why some were dropped or cut when last listed. */
async function listedConnection(deps: Deps, connection: ConnectionItem) {
  const [item, tools] = await Promise.all([
    deps.table.get<ConnectionItem>(connectionKey(connection.org_id, connection.workspace_id, connection.id), true),
    deps.table.queryAll(toolsOfConnection(connection.org_id, connection.workspace_id, connection.id)),
  ]);
  if (!item) throw new NotFoundError(`connection ${connection.id} not found`);
  return { connection: toConnection({ ...item }), tools: tools.map(toTool), ...truncatedField(item.tools_truncated) };
}

/**
 * Records a listing that reached the server (what `replaceTools` made of it): the connection is
 * connected with its tools, and the workspace's tool count moves by what changed. 404 when the
 * connection was deleted meanwhile.
 */
export async function recordListing(
  deps: Deps,
  connection: ConnectionItem,
  { delta, listing }: Awaited<ReturnType<typeof replaceTools>>,
  server: string,
  at?: string,
): Promise<void> {
  const { key, input } = connectedListingUpdate(connection, { count: listing.tools.length, truncated: listing.truncated, server }, at);
  await onConditionFailed(deps.table.update(key, input), () => new NotFoundError(`connection ${connection.id} not found`));
  if (delta) await addWorkspaceCounters(deps, connection.org_id, connection.workspace_id, { tool_count: delta });
}

/**
 * `POST /api/connections/:id/refresh`: lists the server's tools again (a per-user connection with
 * the admin's own grant) and replaces the cached ones. A server that cannot be reached keeps its
 * tools, and the connection shows why (status and last_error); either way the answer is the
 * connection as listed with its tools.
 */
export async function refreshConnection(deps: Deps, admin: { orgId: string; userId: string }, connectionId: string) {
  const connection = await findConnection(deps, admin.orgId, connectionId);
  const found = await discoverTools(deps, connectionSpec(deps, connection, `user:${admin.userId}`));
  if (!found.ok) {
    await recordHealth(deps, connection, { status: found.status, reason: found.reason });
    return listedConnection(deps, connection);
  }
  await recordListing(deps, connection, await replaceTools(deps, connection, found), found.server);
  return listedConnection(deps, connection);
}
