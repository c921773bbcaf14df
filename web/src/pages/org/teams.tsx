import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

function CreateTeam({ onDone }: { onDone: (message?: string) => void }) {
  const queryClient = useQueryClient();
  const create = $api.useMutation('post', '/api/teams', {
    onSuccess: async ({ team }) => {
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/teams'] });
      onDone(`Created the team ${team.name}.`);
    },
  });
  return (
    <form
      className="card form"
      aria-label="New team"
      noValidate
      onSubmit={(event) => {
        const { name = '' } = formValues(event);
        create.mutate({ body: { name } });
      }}
    >
      <h2>New team</h2>
      <FormError error={create.error} />
      <Field label="Name" name="name" error={create.error} hint="Workspaces belong to a team; names are unique in the organisation.">
        <input required autoComplete="off" />
      </Field>
      <div className="actions">
        <Submit pending={create.isPending} busy="Creating">
          Create team
        </Submit>
        <button type="button" className="button secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The organisation's teams; an admin creates more. */
export default function Teams() {
  const isAdmin = useIsAdmin();
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  const teams = $api.useQuery('get', '/api/teams');
  return (
    <>
      <PageHeader
        title="Teams"
        actions={
          isAdmin &&
          !creating && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setNotice('');
                setCreating(true);
              }}
            >
              New team
            </button>
          )
        }
      >
        <p>Teams group the organisation's workspaces.</p>
      </PageHeader>
      <div role="status">{notice && <p className="result">{notice}</p>}</div>
      {creating && (
        <CreateTeam
          onDone={(message) => {
            setCreating(false);
            if (message) setNotice(message);
          }}
        />
      )}
      <Loadable
        query={teams}
        label="teams"
        isEmpty={(data) => data.teams.length === 0}
        empty={isAdmin ? 'No teams yet: create the first one.' : 'No teams yet: an admin of your organisation creates them.'}
      >
        {(data) => (
          <DataTable caption="Teams of the organisation">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
              </tr>
            </thead>
            <tbody>
              {data.teams.map((team) => (
                <tr key={team.id}>
                  <th scope="row">{team.name}</th>
                  <td>
                    <code>{team.id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </Loadable>
    </>
  );
}
