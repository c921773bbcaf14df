import { Link, Outlet, useParams } from 'react-router';
import { $api, statusOf } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { ErrorNote, Loading } from '../../ui/states';
import { Tabs } from '../../ui/tabs';
import { WorkspaceNotFound } from './not-found';

/** The workspace id of the current page (inside /workspaces/:id). */
export function useWorkspaceId(): string {
  const { id } = useParams();
  if (!id) throw new Error('useWorkspaceId outside /workspaces/:id');
  return id;
}

const TABS = [
  { to: '', label: 'Overview', end: true },
  { to: 'dashboard', label: 'Dashboard' },
  { to: 'chat', label: 'Chat' },
  { to: 'mcp', label: 'Use from your tools' },
  { to: 'conversations', label: 'Conversations' },
  { to: 'evals', label: 'Evaluations' },
  { to: 'activity', label: 'Activity' },
  { to: 'approvals', label: 'Approvals' },
  { to: 'connections', label: 'Connections' },
  { to: 'knowledge', label: 'Knowledge' },
  // The routines API is for admins (members get 403): members see no tab.
  { to: 'routines', label: 'Routines', adminOnly: true },
  { to: 'guardrails', label: 'Guardrails' },
  { to: 'consumers', label: 'Consumers' },
  { to: 'permissions', label: 'Permissions' },
  { to: 'settings', label: 'Settings' },
];

/**
 * How many tool calls wait for a decision, for the Approvals tab: the list's `total` of one page
 * of pending ones (a count over the pending index). Refreshed with the approvals (a decision, a
 * playground question) and every minute; undefined while unknown.
 */
function usePendingApprovals(id: string): number | undefined {
  const pending = $api.useQuery(
    'get',
    '/api/workspaces/{id}/approvals',
    { params: { path: { id }, query: { status: 'pending', limit: 1 } } },
    { refetchInterval: 60_000 },
  );
  return pending.data?.total;
}

/** A workspace: its name, its tabs, and the tab's page. */
export default function WorkspaceShell() {
  const id = useWorkspaceId();
  const summary = $api.useQuery('get', '/api/workspaces/{id}/summary', { params: { path: { id } } });
  const pending = usePendingApprovals(id);
  const isAdmin = useIsAdmin();
  if (summary.isPending) return <Loading label="Loading the workspace" />;
  if (summary.isError && statusOf(summary.error) === 404) return <WorkspaceNotFound />;
  if (summary.isError)
    return (
      <>
        <ErrorNote error={summary.error} retry={() => void summary.refetch()} />
        <p>
          <Link to="/workspaces">Back to the workspaces</Link>
        </p>
      </>
    );
  const { workspace } = summary.data;
  return (
    <div className="workspace">
      <p className="breadcrumb">
        <Link to="/workspaces">Workspaces</Link> / <span>{workspace.name}</span> <Badge status={workspace.status} />
      </p>
      <Tabs
        label="Workspace"
        tabs={TABS.filter((tab) => isAdmin || !tab.adminOnly).map(({ adminOnly: _, ...tab }) => ({
          ...tab,
          // The chat is a page of its own, beside the workspace's admin pages.
          to: tab.to === 'chat' ? `/chat/${id}` : `/workspaces/${id}${tab.to ? `/${tab.to}` : ''}`,
          ...(tab.to === 'approvals' && pending !== undefined ? { count: { value: pending, of: 'pending' } } : {}),
        }))}
      />
      <Outlet />
    </div>
  );
}
