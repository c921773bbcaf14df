import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { ConfirmButton } from '../../../ui/confirm';
import { dateTime } from '../../../ui/format';
import { RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { timeIn } from './next-times';
import { type Routine, routinePath, useRefreshRoutines } from './shared';

/** The schedule and its zone, or "Webhook". */
function TriggerText({ routine }: { routine: Routine }) {
  if ('webhook' in routine.trigger) return <>Webhook</>;
  return (
    <>
      <code className="rt-mono">{routine.trigger.schedule}</code>
      <span className="hint rt-detail">{routine.trigger.timezone}</span>
    </>
  );
}

function NextRun({ routine }: { routine: Routine }) {
  if (!routine.enabled) return <span className="hint">paused</span>;
  if ('webhook' in routine.trigger) return <span className="hint">when called</span>;
  if (!routine.next_run_at) return <span className="hint">none</span>;
  // In the schedule's own zone, named: the time the admin set, not the browser's.
  return <time dateTime={routine.next_run_at}>{timeIn(new Date(routine.next_run_at), routine.trigger.timezone)}</time>;
}

function LastOutcome({ workspaceId, routine }: { workspaceId: string; routine: Routine }) {
  const run = routine.last_run;
  if (!run) return <span className="hint">never run</span>;
  return (
    <>
      <Badge status={run.status} />{' '}
      <Link to={routinePath(workspaceId, routine.id)}>
        {dateTime(run.created_at)}
        <span className="visually-hidden"> runs of {routine.name}</span>
      </Link>
    </>
  );
}

interface ActionsProps {
  workspaceId: string;
  routine: Routine;
  /** Run now started a run: the page opens its history. */
  onStarted: (routine: Routine) => void;
  /** The routine was deleted. */
  onDeleted: (routine: Routine) => void;
}

/** Run now, Pause or Resume (`PUT { enabled }`), and Delete after a confirmation. */
function RoutineActions({ workspaceId, routine, onStarted, onDeleted }: ActionsProps) {
  const refresh = useRefreshRoutines();
  const path = { params: { path: { id: workspaceId, routine_id: routine.id } } };
  const run = $api.useMutation('post', '/api/workspaces/{id}/routines/{routine_id}/run', {
    onSuccess: async () => {
      await refresh();
      onStarted(routine);
    },
  });
  const toggle = $api.useMutation('put', '/api/workspaces/{id}/routines/{routine_id}', { onSuccess: () => refresh() });
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/routines/{routine_id}', {
    onSuccess: async () => {
      await refresh();
      onDeleted(routine);
    },
  });
  const named = <span className="visually-hidden"> {routine.name}</span>;
  return (
    <div className="actions rt-actions">
      <button
        type="button"
        className="button secondary"
        // Not disabled while it starts: focus stays on it (a disabled button drops it to the page).
        aria-disabled={run.isPending}
        onClick={() => !run.isPending && run.mutate(path)}
      >
        {run.isPending ? 'Starting…' : 'Run now'}
        {named}
      </button>
      <button
        type="button"
        className="button secondary"
        disabled={toggle.isPending}
        onClick={() => toggle.mutate({ ...path, body: { enabled: !routine.enabled } })}
      >
        {routine.enabled ? 'Pause' : 'Resume'}
        {named}
      </button>
      <ConfirmButton
        title={`Delete ${routine.name}?`}
        description="It runs no more, and its schedule or webhook goes with it. Its runs' conversations stay under Conversations."
        confirmLabel="Delete routine"
        disabled={remove.isPending}
        onConfirm={() => remove.mutate(path)}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        {named}
      </ConfirmButton>
      <RowError error={run.error ?? toggle.error ?? remove.error} />
    </div>
  );
}

interface RoutinesTableProps extends Omit<ActionsProps, 'routine'> {
  routines: Routine[];
}

/** The workspace's routines: trigger, whether it runs, when next, how it last went, and what to do with it. */
export function RoutinesTable({ workspaceId, routines, onStarted, onDeleted }: RoutinesTableProps) {
  return (
    <DataTable
      caption="Routines"
      columns={[
        {
          header: 'Name',
          cell: (routine) => <Link to={routinePath(workspaceId, routine.id)}>{routine.name}</Link>,
        },
        { header: 'Trigger', cell: (routine) => <TriggerText routine={routine} /> },
        { header: 'Status', cell: (routine) => <Badge status={routine.enabled ? 'active' : 'paused'} /> },
        { header: 'Next run', className: 'wc-nowrap', cell: (routine) => <NextRun routine={routine} /> },
        { header: 'Last run', className: 'wc-nowrap', cell: (routine) => <LastOutcome workspaceId={workspaceId} routine={routine} /> },
        {
          header: 'Actions',
          hideHeader: true,
          cell: (routine) => <RoutineActions workspaceId={workspaceId} routine={routine} onStarted={onStarted} onDeleted={onDeleted} />,
        },
      ]}
      rows={routines}
      rowKey={(routine) => routine.id}
    />
  );
}
