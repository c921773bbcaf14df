import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, errorText, type Schemas } from '../../api/client';
import { Badge } from '../../ui/badge';
import { count, dateTime, duration, money } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { ActivityFiltersForm, type ActivityFilters, csvHref, useActivityFilters } from './activity/filters';
import { useWorkspaceId } from './shell';

const PAGE_SIZE = 50;

type Entry = Schemas['ActivityEntry'];

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

/** Tool names (each once), each whole on its line: a long name never breaks inside itself. */
function ToolNames({ names }: { names: string[] }) {
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

/** The tools a query called and, under them, the connections it reached; "—" for none. */
function ToolsCalled({ entry }: { entry: Entry }) {
  if (entry.tools_called.length === 0 && entry.connections_hit.length === 0) return <>—</>;
  const connections = [...new Set(entry.connections_hit)];
  return (
    <>
      {entry.tools_called.length > 0 ? <ToolNames names={entry.tools_called} /> : '—'}
      {connections.length > 0 && (
        <p className="hint activity-connections">
          {connections.length === 1 ? 'Connection' : 'Connections'}: {connections.join(', ')}
        </p>
      )}
    </>
  );
}

function Approvals({ approvals }: { approvals: Entry['approvals'] }) {
  if (approvals.length === 0) return <>—</>;
  return (
    <ul className="activity-approvals">
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

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const time = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });

/** When: the day, then the time, each whole (the column stays narrow). */
function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={dateTime(at)}>
      <span className="nowrap">{day.format(new Date(at))}</span> <span className="nowrap">{time.format(new Date(at))}</span>
    </time>
  );
}

/** Tokens in, then out, one a line. */
function Tokens({ entry }: { entry: Entry }) {
  return (
    <>
      <span className="nowrap">{count(entry.tokens_input)} in</span> <span className="nowrap">{count(entry.tokens_output)} out</span>
    </>
  );
}

/** The question, as a link to its conversation's transcript when the entry names one. */
function Question({ workspaceId, entry }: { workspaceId: string; entry: Entry }) {
  if (!entry.conversation_id) return <>{entry.query}</>;
  return <Link to={`/workspaces/${workspaceId}/conversations/${encodeURIComponent(entry.conversation_id)}`}>{entry.query}</Link>;
}

/**
 * The audit log's table. The connections go under the tools, the day above the time and tokens in
 * above tokens out, so that the columns fit the page's 1 200 px with long tool names, each whole
 * (styles/activity.css); the question opens its transcript.
 */
function ActivityTable({ workspaceId, entries }: { workspaceId: string; entries: Entry[] }) {
  return (
    <DataTable
      caption="Audit log"
      className="activity-log"
      columns={[
        { header: 'When', cell: (entry) => <When at={entry.created_at} /> },
        { header: 'User', cell: (entry) => entry.user_name },
        { header: 'Query', className: 'activity-query', cell: (entry) => <Question workspaceId={workspaceId} entry={entry} /> },
        { header: 'Tools called', cell: (entry) => <ToolsCalled entry={entry} /> },
        { header: 'Tokens', num: true, cell: (entry) => <Tokens entry={entry} /> },
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
              {entries.length > 0 && <ActivityTable workspaceId={id} entries={entries} />}
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
