import { useInfiniteQuery } from '@tanstack/react-query';
import { api, errorText, type Schemas } from '../../api/client';
import { Badge } from '../../ui/badge';
import { count, dateTime, duration, money } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { ActivityFiltersForm, type ActivityFilters, csvHref, useActivityFilters } from './activity/filters';
import { useWorkspaceId } from './shell';

const PAGE_SIZE = 50;

/**
 * The audit log, page after page through the API's cursor. The key starts like `$api`'s
 * (`['get', path, init]`) so invalidating the path refreshes it, and ends apart so it never
 * shares a cache entry with a single-page read of the same path.
 */
function useActivity(id: string, filters: ActivityFilters) {
  return useInfiniteQuery({
    queryKey: ['get', '/api/workspaces/{id}/activity', { params: { path: { id }, query: filters } }, 'pages'],
    queryFn: async ({ pageParam, signal }) => {
      const query = { ...filters, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) };
      const { data, error } = await api.GET('/api/workspaces/{id}/activity', { params: { path: { id }, query }, signal });
      if (error) throw error;
      return data;
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** A list of names (each once), or "—". */
function Names({ names }: { names: string[] }) {
  if (names.length === 0) return <>—</>;
  return (
    <ul className="activity-names">
      {[...new Set(names)].map((name) => (
        <li key={name}>
          <code>{name}</code>
        </li>
      ))}
    </ul>
  );
}

function Approvals({ approvals }: { approvals: Schemas['ActivityEntry']['approvals'] }) {
  if (approvals.length === 0) return <>—</>;
  return (
    <ul className="activity-names">
      {approvals.map((approval) => (
        <li key={approval.id}>
          <code>{approval.tool}</code> <Badge status={approval.status} />
          {approval.decided_by && <span className="hint"> by {approval.decided_by}</span>}
          {approval.reason && <span className="hint">: {approval.reason}</span>}
        </li>
      ))}
    </ul>
  );
}

function ActivityTable({ entries }: { entries: Schemas['ActivityEntry'][] }) {
  return (
    <DataTable
      caption="Audit log"
      columns={[
        { header: 'When', className: 'nowrap', cell: (entry) => <time dateTime={entry.created_at}>{dateTime(entry.created_at)}</time> },
        { header: 'User', cell: (entry) => entry.user_name },
        { header: 'Query', className: 'activity-query', cell: (entry) => entry.query },
        { header: 'Tools called', cell: (entry) => <Names names={entry.tools_called} /> },
        { header: 'Connections', cell: (entry) => <Names names={entry.connections_hit} /> },
        { header: 'Tokens in / out', num: true, cell: (entry) => `${count(entry.tokens_input)} / ${count(entry.tokens_output)}` },
        { header: 'Cost', num: true, cell: (entry) => money(entry.cost_usd) },
        { header: 'Duration', num: true, cell: (entry) => duration(entry.duration_ms) },
        { header: 'Error', cell: (entry) => (entry.error ? <span className="activity-error">{entry.error}</span> : '—') },
        { header: 'Approvals', cell: (entry) => <Approvals approvals={entry.approvals} /> },
      ]}
      rows={entries}
      rowKey={(entry) => entry.id}
    />
  );
}

/** Every query asked of the workspace, newest first: who, what, which tools, what it cost, how it ended. */
export default function Activity() {
  const id = useWorkspaceId();
  const filters = useActivityFilters();
  const activity = useActivity(id, filters.query);
  return (
    <>
      <PageHeader title="Activity">
        <p>The audit log: every query asked of this workspace, newest first.</p>
      </PageHeader>
      <ActivityFiltersForm workspaceId={id} filters={filters} error={activity.error} />
      <p className="actions">
        <a className="button secondary" href={csvHref(id, filters.query)} download>
          Download CSV
        </a>
        <span className="hint">The entries of these filters, newest first, 10 000 at most.</span>
      </p>
      <Loadable
        // A failed "Load more" keeps the pages already shown; its error shows under them.
        query={{ ...activity, isError: activity.isError && !activity.data }}
        label="the audit log"
        isEmpty={(data) => !activity.hasNextPage && data.pages.every((page) => page.activity.length === 0)}
        empty={filters.filtered ? 'No entries match these filters.' : 'No queries yet: ask one in the playground and it shows here.'}
      >
        {(data) => {
          const entries = data.pages.flatMap((page) => page.activity);
          const total = data.pages[0]?.total;
          return (
            <>
              <p className="hint" aria-live="polite">
                {filters.filtered
                  ? `${count(entries.length)} shown of ${count(total ?? entries.length)} matching ${total === 1 ? 'entry' : 'entries'}${activity.hasNextPage ? '; Load more looks further back' : ''}.`
                  : `${count(entries.length)} shown of ${count(total ?? entries.length)} entries.`}
              </p>
              {entries.length > 0 && <ActivityTable entries={entries} />}
              {activity.hasNextPage && (
                <button
                  type="button"
                  className="button secondary"
                  disabled={activity.isFetchingNextPage}
                  aria-busy={activity.isFetchingNextPage || undefined}
                  onClick={() => void activity.fetchNextPage()}
                >
                  {activity.isFetchingNextPage ? 'Loading more…' : 'Load more'}
                </button>
              )}
              {activity.isFetchNextPageError && (
                <p className="form-error" role="alert">
                  Could not load more: {errorText(activity.error)}
                </p>
              )}
            </>
          );
        }}
      </Loadable>
    </>
  );
}
