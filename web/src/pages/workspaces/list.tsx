import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { Field, FormError, formValues, Submit } from '../../ui/form';
import { count, dateTime, money } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

function CreateWorkspace({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const teams = $api.useQuery('get', '/api/teams');
  const create = $api.useMutation('post', '/api/workspaces', {
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/workspaces'] });
      onDone();
      void navigate(`/workspaces/${created.id}`);
    },
  });
  return (
    <form
      className="card form"
      aria-label="New workspace"
      noValidate
      onSubmit={(event) => {
        const { name = '', team_id: teamId = '', system_prompt: prompt = '' } = formValues(event);
        create.mutate({ body: { name, ...(teamId ? { team_id: teamId } : {}), ...(prompt ? { system_prompt: prompt } : {}) } });
      }}
    >
      <h2>New workspace</h2>
      <FormError error={create.error} />
      <Field label="Name" name="name" error={create.error}>
        <input required />
      </Field>
      <Field
        label="Team"
        name="team_id"
        error={create.error}
        hint="Without a team, the workspace goes to your organisation's default team."
      >
        <select defaultValue="">
          <option value="">Default team</option>
          {teams.data?.teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="System prompt" name="system_prompt" error={create.error} hint="Optional: how the agent should behave.">
        <textarea rows={3} />
      </Field>
      <div className="actions">
        <Submit pending={create.isPending} busy="Creating">
          Create workspace
        </Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type WorkspaceRow = Schemas['WorkspaceListItem'];

/** The workspaces with their counts and usage. */
function WorkspacesTable({ workspaces }: { workspaces: WorkspaceRow[] }) {
  return (
    <DataTable caption="Workspaces">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Team</th>
          <th scope="col">Status</th>
          <th scope="col">Model</th>
          <th scope="col" className="num">
            Connections
          </th>
          <th scope="col" className="num">
            Tools
          </th>
          <th scope="col" className="num">
            Knowledge
          </th>
          <th scope="col" className="num">
            Queries today
          </th>
          <th scope="col" className="num">
            Cost this month
          </th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {workspaces.map((workspace) => (
          <tr key={workspace.id}>
            <th scope="row">
              <Link to={`/workspaces/${workspace.id}`}>{workspace.name}</Link>
            </th>
            <td>{workspace.team}</td>
            <td>
              <Badge status={workspace.status} />
            </td>
            <td>{workspace.model}</td>
            <td className="num">{count(workspace.connection_count)}</td>
            <td className="num">{count(workspace.tool_count)}</td>
            <td className="num">{count(workspace.knowledge_count)}</td>
            <td className="num">{count(workspace.queries_today)}</td>
            <td className="num">{money(workspace.cost_mtd)}</td>
            <td>{dateTime(workspace.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

export function WorkspacesPage() {
  const isAdmin = useIsAdmin();
  const [creating, setCreating] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const workspaces = $api.useQuery('get', '/api/workspaces', showArchived ? { params: { query: { include_archived: 'true' } } } : {});
  return (
    <>
      <PageHeader
        title="Workspaces"
        actions={
          isAdmin &&
          !creating && (
            <button type="button" className="button" onClick={() => setCreating(true)}>
              New workspace
            </button>
          )
        }
      />
      {creating && <CreateWorkspace onDone={() => setCreating(false)} />}
      <label className="checkbox">
        <input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} /> Show archived
        workspaces
      </label>
      <Loadable
        query={workspaces}
        label="workspaces"
        isEmpty={(data) => data.workspaces.length === 0}
        empty={isAdmin ? 'No workspaces yet: create the first one.' : 'No workspaces yet: an admin of your organisation creates them.'}
      >
        {(data) => <WorkspacesTable workspaces={data.workspaces} />}
      </Loadable>
    </>
  );
}
