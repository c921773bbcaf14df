import { keys } from '../platform/keys.js';
import type { Store } from '../platform/store.js';
import type { ConnectionItem } from './connections.js';

/**
 * Deletes a person's own grants (`user:<id>`) of every per-user connection of the organisation:
 * they were removed from it. Their sealed tokens are kept nowhere else.
 */
export async function forgetUserGrants(deps: Store, orgId: string, userId: string): Promise<void> {
  const workspaces = await deps.table.queryAll<{ id: string }>({ index: 'gsi1', pk: keys.workspacesIndex(orgId) });
  const connections = await Promise.all(
    workspaces.map((workspace) =>
      deps.table.queryAll<ConnectionItem>({ pk: keys.workspacePartition(orgId, workspace.id), sk: { beginsWith: keys.connectionPrefix } }),
    ),
  );
  const perUser = connections.flat().filter((connection) => connection.credential === 'per_user');
  await Promise.all(perUser.map((connection) => deps.table.delete(keys.oauthTokens(connection.id, `user:${userId}`))));
}
