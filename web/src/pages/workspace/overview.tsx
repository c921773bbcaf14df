import { Link } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { BudgetMeter, coverOf, periodOf, ResetTime } from '../../ui/budget';
import { count, dateTime, duration, money, percent } from '../../ui/format';
import { Stats } from '../../ui/stats';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable } from '../../ui/states';
import { ConnectionHealthTable } from './connections/health';
import { useWorkspaceId } from './shell';

type Detail = Schemas['WorkspaceDetail'];

/** Every field of WorkspaceStats, in reading order. */
function StatsGrid({ stats }: { stats: Schemas['WorkspaceStats'] }) {
  const items: [string, string][] = [
    ['Queries today', count(stats.today)],
    ['Queries this week', count(stats.week)],
    ['Queries this month', count(stats.month)],
    ['Average duration', duration(stats.avg_ms)],
    ['Cost this month', money(stats.cost_mtd)],
    ['Error rate', percent(stats.error_rate)],
  ];
  return <Stats items={items} label="Usage" />;
}

/** What the workspace holds, each count leading to the tab that manages it. */
function Counts({ id, detail }: { id: string; detail: Detail }) {
  const items: [string, number, string][] = [
    ['Connections', detail.connections.length, 'connections'],
    ['Tools', detail.tools.length, 'connections'],
    ['Knowledge entries', detail.knowledge.length, 'knowledge'],
    ['Guardrails', detail.guardrails.length, 'guardrails'],
    ['Consumers', detail.consumers.length, 'consumers'],
    ['Permissions', detail.permissions.length, 'permissions'],
  ];
  return (
    <dl className="stats" aria-label="Configuration">
      {items.map(([label, value, tab]) => (
        <div className="stat" key={label}>
          <dt>
            <Link to={`/workspaces/${id}/${tab}`}>{label}</Link>
          </dt>
          <dd>{count(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Summary({ id, workspace }: { id: string; workspace: Schemas['WorkspaceSummary'] }) {
  const approvals = { none: 'none', write_tools: 'write tools', patterns: 'tools matching patterns' }[workspace.approval.mode];
  return (
    <Section title="Workspace" actions={<Link to={`/workspaces/${id}/settings`}>Change the settings</Link>}>
      <dl className="wc-facts">
        <dt>Team</dt>
        <dd>{workspace.team}</dd>
        <dt>Status</dt>
        <dd>
          <Badge status={workspace.status} />
        </dd>
        <dt>Model</dt>
        <dd>{workspace.model}</dd>
        <dt>Created</dt>
        <dd>{dateTime(workspace.created_at)}</dd>
        <dt>Conversations go cold after</dt>
        <dd>{count(workspace.cold_timeout_minutes)} minutes</dd>
        <dt>Cold conversations close after</dt>
        <dd>{count(workspace.close_timeout_minutes)} minutes</dd>
        <dt>Tool rounds per query</dt>
        <dd>at most {count(workspace.max_tool_rounds)}</dd>
        <dt>Tokens per query</dt>
        <dd>{workspace.max_tokens_per_query === null ? 'no budget' : `at most ${count(workspace.max_tokens_per_query)}`}</dd>
        <dt>Tool call timeout</dt>
        <dd>{workspace.tool_timeout_seconds === null ? 'the service default' : `${count(workspace.tool_timeout_seconds)} seconds`}</dd>
        <dt>Approvals</dt>
        <dd>{approvals}</dd>
        <dt>System prompt</dt>
        <dd className="wc-prose">{workspace.system_prompt || 'none'}</dd>
      </dl>
    </Section>
  );
}

/** The budgets that cover the workspace's queries: its own and the organisation's (consumer and user budgets cover other cuts). */
function Budgets({ id, name }: { id: string; name: string }) {
  const isAdmin = useIsAdmin();
  const budgets = $api.useQuery('get', '/api/org/budgets');
  const addLink = `/org/budgets?scope=workspace&scope_id=${encodeURIComponent(id)}`;
  return (
    <Section title="Budgets" actions={<Link to="/org/budgets">All budgets</Link>}>
      <Loadable query={budgets} label="budgets">
        {(data) => {
          const covering = data.budgets.filter(
            (budget) => budget.scope === 'org' || (budget.scope === 'workspace' && budget.scope_id === id),
          );
          if (covering.length === 0)
            return (
              <Empty>
                No budget: nothing limits what {name} spends but its tokens per query.{' '}
                {isAdmin && <Link to={addLink}>Add a budget for {name}</Link>}
              </Empty>
            );
          return (
            <ul className="budget-list">
              {covering.map((budget) => (
                <li key={budget.id}>
                  <p className="budget-list-head">
                    <strong>
                      {budget.scope === 'org' ? 'Organisation' : 'Workspace'} budget {periodOf(budget)}
                    </strong>{' '}
                    <Badge status={budget.status} /> <span className="hint">({coverOf(budget)})</span>
                  </p>
                  <BudgetMeter
                    budget={budget}
                    label={`Spent of the ${budget.scope === 'org' ? 'organisation' : 'workspace'} budget ${periodOf(budget)}`}
                  />
                  <p className="hint">
                    Resets <ResetTime at={budget.resets_at} />
                  </p>
                </li>
              ))}
            </ul>
          );
        }}
      </Loadable>
    </Section>
  );
}

function ConnectionHealth({ id, connections }: { id: string; connections: Schemas['Connection'][] }) {
  return (
    <Section title="Connection health" actions={<Link to={`/workspaces/${id}/connections`}>Manage connections</Link>}>
      <ConnectionHealthTable
        connections={connections}
        more={[
          { header: 'Transport', cell: (connection) => connection.transport },
          { header: 'Tools', num: true, cell: (connection) => count(connection.tool_count) },
        ]}
        empty="No connections yet: the agent has no tools until one is added."
      />
    </Section>
  );
}

/** The workspace at a glance: its settings, usage, what it holds, and whether its connections work. */
export default function Overview() {
  const id = useWorkspaceId();
  const detail = $api.useQuery('get', '/api/workspaces/{id}', { params: { path: { id } } });
  return (
    <>
      <PageHeader title="Overview" />
      <Loadable query={detail} label="the workspace">
        {(data) => (
          <>
            <Section title="Usage">
              <StatsGrid stats={data.stats} />
            </Section>
            <Budgets id={id} name={data.workspace.name} />
            <Section title="Configuration">
              <Counts id={id} detail={data} />
            </Section>
            <ConnectionHealth id={id} connections={data.connections} />
            <Summary id={id} workspace={data.workspace} />
          </>
        )}
      </Loadable>
    </>
  );
}
