import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { $api, fieldError, type Schemas } from '../../api/client';
import { count, money, percent } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable, Loading } from '../../ui/states';
import {
  ApprovalsFigure,
  CategoriesFigure,
  ChannelsFigure,
  FeedbackFigure,
  ResolutionFigure,
  SentimentFigure,
  TicketsFigure,
} from './dashboard/figures';
import { Stats } from '../../ui/stats';
import { CacheFigures } from './dashboard/cache';
import { ConnectionHealth, KnowledgeGaps, RecentConversations } from './dashboard/lists';
import { RangeControl, useDayRange } from './dashboard/range';
import { UsageChart } from './dashboard/usage';
import { useWorkspaceId } from './shell';

type Dashboard = Schemas['Dashboard'];

/** The numbers a reader looks for first. */
function Headline({ data }: { data: Dashboard }) {
  return (
    <Stats
      items={[
        ['Queries today', count(data.usage.queries_today)],
        ['Queries, last 7 days', count(data.usage.week)],
        ['Queries this month', count(data.usage.month)],
        ['Cost today', money(data.cost.today)],
        ['Cost this month', money(data.cost.mtd)],
        ['Cost per conversation', money(data.cost.per_conversation)],
        ['Open conversations', count(data.tickets.open)],
        ['Resolution rate', percent(data.resolution.rate)],
        ['Thumbs-up rate', percent(data.feedback.rate)],
        ['Knowledge gaps', count(data.knowledge_gaps.count)],
      ]}
    />
  );
}

function DashboardBody({ id, data }: { id: string; data: Dashboard }) {
  return (
    <>
      <Headline data={data} />
      <Section title="Usage and cost">
        <UsageChart days={data.usage.by_day} />
      </Section>
      <Section title="Prompt cache">
        <CacheFigures cache={data.cache} days={data.usage.by_day} />
      </Section>
      <Section title="Conversations">
        <div className="grid chart-grid">
          <TicketsFigure tickets={data.tickets} />
          <SentimentFigure sentiment={data.sentiment} />
          <ResolutionFigure resolution={data.resolution} />
          <FeedbackFigure feedback={data.feedback} />
          <CategoriesFigure categories={data.categories} />
          <ChannelsFigure channels={data.channels} />
        </div>
      </Section>
      <Section title="Approvals and compliance">
        <div className="grid chart-grid">
          <ApprovalsFigure approvals={data.approvals} />
          <div>
            <Stats
              items={[
                ['Guardrail violations', count(data.compliance.violations)],
                ['Guardrails', count(data.compliance.guardrails)],
              ]}
            />
            <p className="hint">
              <Link to={`/workspaces/${id}/guardrails`}>Guardrails and their violations</Link> ·{' '}
              <Link to={`/workspaces/${id}/approvals`}>Approvals</Link>
            </p>
          </div>
        </div>
      </Section>
      <Section title="Knowledge gaps" actions={<Link to={`/workspaces/${id}/knowledge`}>Knowledge</Link>}>
        <KnowledgeGaps workspaceId={id} gaps={data.knowledge_gaps} />
      </Section>
      <Section title="Connection health" actions={<Link to={`/workspaces/${id}/connections`}>Connections</Link>}>
        <ConnectionHealth workspaceId={id} connections={data.connections} />
      </Section>
      <Section title="Recent conversations" actions={<Link to={`/workspaces/${id}/conversations`}>All conversations</Link>}>
        <RecentConversations workspaceId={id} conversations={data.recent_conversations} />
      </Section>
    </>
  );
}

/**
 * Whether the days asked were refused (a 400 with its messages on `from` or `to`): the range's
 * fields say why, under themselves, and the page asks nothing again; any other failure is the
 * page's to show, with "Try again".
 */
const refusedDays = (error: unknown) => Boolean(fieldError(error, 'from') || fieldError(error, 'to'));

/** The last dashboard the API answered (for a range it refuses, the charts stay those of the days before). */
function useLastAnswer(data: Dashboard | undefined): Dashboard | undefined {
  // Kept as React keeps what it saw in an earlier render: set while rendering, which renders again at once.
  const [last, setLast] = useState(data);
  if (data && data !== last) setLast(data);
  return data ?? last;
}

/** The workspace's dashboard: headline numbers, then pictures of usage, conversations and health. */
export default function DashboardPage() {
  const id = useWorkspaceId();
  const range = useDayRange();
  const dashboard = $api.useQuery(
    'get',
    '/api/workspaces/{id}/dashboard',
    // Without days in the address, no query at all: the key the route's loader started.
    { params: range.query ? { path: { id }, query: range.query } : { path: { id } } },
    // The charts of the days shown stay while the next days load.
    { placeholderData: keepPreviousData },
  );
  const last = useLastAnswer(dashboard.data);
  const refused = dashboard.isError && refusedDays(dashboard.error);
  return (
    <>
      <PageHeader title="Dashboard">
        <p>Usage, cost and how conversations go, from the workspace's counters.</p>
      </PageHeader>
      <RangeControl range={dashboard.data?.range} asked={range} error={dashboard.error} onShow={range.show} />
      {dashboard.isPlaceholderData && <Loading label="Loading these days" />}
      {refused ? (
        <RefusedDays id={id} last={last} />
      ) : (
        <Loadable query={dashboard} label="the dashboard">
          {(data) => <DashboardBody id={id} data={data} />}
        </Loadable>
      )}
    </>
  );
}

/** Days the API refused: the charts of the days shown before, said to be those; or, on a first visit, what to do. */
function RefusedDays({ id, last }: { id: string; last: Dashboard | undefined }) {
  if (!last) return <Empty>Choose the days to chart above: a preset, or dates at most 90 days apart.</Empty>;
  return (
    <>
      <p className="hint">
        Still showing {last.range.from} to {last.range.to}, the days charted before.
      </p>
      <DashboardBody id={id} data={last} />
    </>
  );
}
