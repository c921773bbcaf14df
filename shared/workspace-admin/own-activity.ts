import type { Principal } from '../auth/index.js';
import { readScope } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { ForbiddenError } from '../platform/errors.js';
import { getWorkspaceItem, type WorkspaceItem } from '../workspaces/index.js';

/**
 * The audit log's filters for a caller: an admin's as given; a member reads the entries of the
 * conversations they read (conversations/visibility.ts): every one in a workspace open to its team
 * they belong to, else only their own, so `user` is theirs, and another person's is 403. With the
 * workspace when it was read to decide (a member's), so the log's reading does not read it again.
 */
export async function activityFiltersFor<Filters extends { user?: string }>(
  deps: Deps,
  viewer: Principal,
  workspaceId: string,
  filters: Filters,
): Promise<{ filters: Filters; workspace?: WorkspaceItem }> {
  if (viewer.role === 'admin') return { filters };
  const workspace = await getWorkspaceItem(deps, viewer.orgId, workspaceId);
  const scope = await readScope(deps, viewer, workspace);
  if (scope.kind === 'all') return { filters, workspace };
  if (filters.user !== undefined && filters.user !== viewer.userId) {
    throw new ForbiddenError('members see their own queries in the audit log: leave out user, or give your own id');
  }
  return { filters: { ...filters, user: viewer.userId }, workspace };
}
