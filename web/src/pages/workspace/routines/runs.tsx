import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { dateTime, duration, money } from '../../../ui/format';
import { Loadable } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { isSettled, POLL_EVERY_MS, type Routine, type RoutineRun } from './shared';

const TRIGGERS: Record<RoutineRun['trigger'], string> = { schedule: 'Schedule', webhook: 'Webhook', manual: 'Run now' };

/** What started the run: a schedule's time, a webhook's delivery id, or Run now. */
function RunTrigger({ run }: { run: RoutineRun }) {
  return (
    <>
      {TRIGGERS[run.trigger]}
      {run.scheduled_at && <span className="hint rt-detail">for {dateTime(run.scheduled_at)}</span>}
      {run.delivery_id && <span className="hint rt-detail">delivery {run.delivery_id}</span>}
    </>
  );
}

function RunStatus({ workspaceId, run }: { workspaceId: string; run: RoutineRun }) {
  return (
    <>
      <Badge status={run.status} />
      {run.status === 'waiting_approval' && (
        <Link className="rt-detail" to={`/workspaces/${workspaceId}/approvals`}>
          Decide under Approvals
        </Link>
      )}
      {run.error && <span className="rt-detail rt-error">{run.error}</span>}
    </>
  );
}

function RunsTable({ workspaceId, routine, runs }: { workspaceId: string; routine: Routine; runs: RoutineRun[] }) {
  return (
    <DataTable
      caption={`Runs of ${routine.name}`}
      columns={[
        { header: 'Started', className: 'wc-nowrap', cell: (run) => dateTime(run.started_at ?? run.created_at) },
        { header: 'Trigger', cell: (run) => <RunTrigger run={run} /> },
        { header: 'Status', cell: (run) => <RunStatus workspaceId={workspaceId} run={run} /> },
        { header: 'Finished', className: 'wc-nowrap', cell: (run) => dateTime(run.finished_at) },
        { header: 'Duration', num: true, cell: (run) => duration(run.duration_ms) },
        { header: 'Cost', num: true, cell: (run) => money(run.cost_usd) },
        {
          header: 'Transcript',
          cell: (run) => (
            <Link to={`/workspaces/${workspaceId}/conversations/${run.conversation_id}`}>
              Open<span className="visually-hidden"> the transcript of the run of {dateTime(run.created_at)}</span>
            </Link>
          ),
        },
      ]}
      rows={runs}
      rowKey={(run) => run.id}
      empty="No runs yet: it runs on its trigger, or now with Run now."
    />
  );
}

/** A routine's last 50 runs, newest first; asked again every 1.5 s while one is queued or running. */
export function RunHistory({ workspaceId, routine }: { workspaceId: string; routine: Routine }) {
  const runs = $api.useQuery(
    'get',
    '/api/workspaces/{id}/routines/{routine_id}/runs',
    { params: { path: { id: workspaceId, routine_id: routine.id } } },
    { refetchInterval: (query) => (query.state.data?.runs.every(isSettled) === false ? POLL_EVERY_MS : false) },
  );
  return (
    <Loadable query={runs} label="runs">
      {(data) => <RunsTable workspaceId={workspaceId} routine={routine} runs={data.runs} />}
    </Loadable>
  );
}
