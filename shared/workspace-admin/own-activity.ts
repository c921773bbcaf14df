import type { Principal } from '../auth/index.js';
import { readScope } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { ForbiddenError } from '../platform/errors.js';
import { getWorkspaceItem } from '../workspaces/index.js';

/**
 * The audit log's filters for a caller: an admin's as given; a member reads the entries of the
 * conversations they read (conversations/visibility.ts): every one in a workspace open to its team
 * they belong to, else only their own, so `user` is theirs, and another person's is 403.
 */
export async function activityFiltersFor<Filters extends { user?: string }>(
  deps: Deps,
  viewer: Principal,
  workspaceId: string,
  filters: Filters,
): Promise<Filters> {
  if (viewer.role === 'admin') return filters;
  const scope = await readScope(deps, viewer, await getWorkspaceItem(deps, viewer.orgId, workspaceId));
  if (scope.kind === 'all') return filters;
  if (filters.user !== undefined && filters.user !== viewer.userId) {
    throw new ForbiddenError('members see their own queries in the audit log: leave out user, or give your own id');
  }
  return { ...filters, user: viewer.userId };
}
