import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { $api } from '../../api/client';
import { ModelKeyNotice } from '../../app/model-key-notice';
import { useIsAdmin } from '../../app/session';
import { PageHeader } from '../../ui/page';
import { Notice, usePanel } from '../../ui/panel';
import { Empty, Loadable } from '../../ui/states';
import { RoutineDetail } from './routines/detail';
import { RoutinesTable } from './routines/list';
import { NewRoutine, type Saved } from './routines/routine-form';
import { isSettled, POLL_EVERY_MS, type Routine } from './routines/shared';
import { WebhookSecret } from './routines/webhook-secret';
import { useWorkspaceId } from './shell';

/** The list is asked again every 1.5 s while a routine's last run is queued or running, so its outcome shows. */
const running = (routines: Routine[] | undefined) => routines?.some((routine) => routine.last_run && !isSettled(routine.last_run)) === true;

/** The routines of the workspace (admins): the list, a new one's form, the webhook secret once, and the open routine's runs. */
function Routines({ workspaceId }: { workspaceId: string }) {
  const panel = usePanel();
  const [secret, setSecret] = useState<Required<Saved> & { keptMinutes?: number }>();
  const [params, setParams] = useSearchParams();
  const openId = params.get('routine');
  const routines = $api.useQuery(
    'get',
    '/api/workspaces/{id}/routines',
    { params: { path: { id: workspaceId } } },
    { refetchInterval: (query) => (running(query.state.data?.routines) ? POLL_EVERY_MS : false) },
  );
  const open = (routine: Routine) => setParams({ routine: routine.id });
  const saved = ({ routine, secret: made }: Saved, verb: string, keptMinutes?: number) => {
    panel.done(`${verb} ${routine.name}.`);
    if (made) setSecret({ routine, secret: made, keptMinutes });
    open(routine);
  };
  return (
    <>
      <PageHeader
        title="Routines"
        actions={
          !panel.open && (
            <button type="button" className="button" onClick={panel.show}>
              New routine
            </button>
          )
        }
      >
        <p>Prompts the workspace answers on its own, on a schedule or when a webhook is called, with its tools, approvals and budgets.</p>
      </PageHeader>
      <ModelKeyNotice />
      {panel.open && <NewRoutine workspaceId={workspaceId} onSaved={(made) => saved(made, 'Created')} onCancel={() => panel.done()} />}
      <Notice message={panel.notice} />
      {secret && <WebhookSecret key={secret.secret} {...secret} onDone={() => setSecret(undefined)} />}
      <Loadable
        query={routines}
        label="routines"
        isEmpty={(data) => data.routines.length === 0}
        empty="No routines yet: add one with “New routine”, e.g. a summary every weekday at 8 or a triage of each new ticket."
      >
        {(data) => {
          const shown = data.routines.find((routine) => routine.id === openId);
          return (
            <>
              <RoutinesTable
                workspaceId={workspaceId}
                routines={data.routines}
                onStarted={(routine) => {
                  panel.say(`Started a run of ${routine.name}.`);
                  open(routine);
                }}
                onDeleted={(routine) => {
                  panel.say(`Deleted ${routine.name}.`);
                  if (routine.id === openId) setParams({});
                }}
              />
              {shown && (
                <RoutineDetail
                  key={shown.id}
                  workspaceId={workspaceId}
                  routine={shown}
                  onSaved={(made) => saved(made, 'Saved')}
                  onRotated={(rotated, keptMinutes) => saved(rotated, 'Made a new secret for', keptMinutes)}
                />
              )}
            </>
          );
        }}
      </Loadable>
    </>
  );
}

/** `/workspaces/:id/routines`: admins manage the workspace's routines; the API answers members 403, so they are told so. */
export default function RoutinesPage() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  if (isAdmin) return <Routines workspaceId={id} />;
  return (
    <>
      <PageHeader title="Routines">
        <p>Prompts the workspace answers on its own, on a schedule or when a webhook is called.</p>
      </PageHeader>
      <Empty>Only admins see and manage a workspace's routines. Their runs' conversations are under Conversations.</Empty>
    </>
  );
}
