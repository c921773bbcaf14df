import type { Store } from '../platform/store.js';
import { workspacesOfOrganisation } from '../workspaces/index.js';
import type { ConnectionItem } from './connections.js';
import { connectionsOfWorkspace, oauthTokensKey } from './entities.js';

/**
 * Deletes a person's own grants (`user:<id>`) of every per-user connection of the organisation:
 * they were removed from it. Their sealed tokens are kept nowhere else.
 */
export async function forgetUserGrants(deps: Store, orgId: string, userId: string): Promise<void> {
  const workspaces = await deps.table.queryAll<{ id: string }>(workspacesOfOrganisation(orgId));
  const connections = await Promise.all(
    workspaces.map((workspace) => deps.table.queryAll<ConnectionItem>(connectionsOfWorkspace(orgId, workspace.id))),
  );
  const perUser = connections.flat().filter((connection) => connection.credential === 'per_user');
  await Promise.all(perUser.map((connection) => deps.table.delete(oauthTokensKey(connection.id, `user:${userId}`))));
}
