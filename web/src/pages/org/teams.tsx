import { $api, useRefresh } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ActionForm, Field } from '../../ui/form';
import { PageHeader } from '../../ui/page';
import { Notice, usePanel } from '../../ui/panel';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

function CreateTeam({ onDone }: { onDone: (message?: string) => void }) {
  const refresh = useRefresh('/api/teams');
  const create = $api.useMutation('post', '/api/teams', {
    onSuccess: async ({ team }) => {
      await refresh();
      onDone(`Created the team ${team.name}.`);
    },
  });
  return (
    <ActionForm
      className="card form"
      label="New team"
      heading={2}
      error={create.error}
      onSubmit={({ name = '' }) => create.mutate({ body: { name } })}
      submit="Create team"
      pending={create.isPending}
      busy="Creating"
      onCancel={() => onDone()}
    >
      <Field label="Name" name="name" error={create.error} hint="Workspaces belong to a team; names are unique in the organisation.">
        <input required autoComplete="off" />
      </Field>
    </ActionForm>
  );
}

/** The organisation's teams; an admin creates more. */
export default function Teams() {
  const isAdmin = useIsAdmin();
  const panel = usePanel();
  const teams = $api.useQuery('get', '/api/teams');
  return (
    <>
      <PageHeader
        title="Teams"
        actions={
          isAdmin &&
          !panel.open && (
            <button type="button" className="button" onClick={panel.show}>
              New team
            </button>
          )
        }
      >
        <p>Teams group the organisation's workspaces.</p>
      </PageHeader>
      <Notice message={panel.notice} />
      {panel.open && <CreateTeam onDone={panel.done} />}
      <Loadable
        query={teams}
        label="teams"
        isEmpty={(data) => data.teams.length === 0}
        empty={isAdmin ? 'No teams yet: create the first one.' : 'No teams yet: an admin of your organisation creates them.'}
      >
        {(data) => (
          <DataTable
            caption="Teams of the organisation"
            columns={[
              { header: 'Name', cell: (team) => team.name },
              { header: 'Id', cell: (team) => <code>{team.id}</code> },
            ]}
            rows={data.teams}
            rowKey={(team) => team.id}
          />
        )}
      </Loadable>
    </>
  );
}
