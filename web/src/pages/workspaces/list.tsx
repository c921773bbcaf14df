import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { ModelKeyNotice } from '../../app/model-key-notice';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { ActionForm, Field } from '../../ui/form';
import { count, dateTime, money } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

function CreateWorkspace({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const refresh = useRefresh('/api/workspaces');
  const teams = $api.useQuery('get', '/api/teams');
  const create = $api.useMutation('post', '/api/workspaces', {
    onSuccess: async (created) => {
      await refresh();
      onDone();
      void navigate(`/workspaces/${created.id}`);
    },
  });
  return (
    <ActionForm
      className="card form"
      label="New workspace"
      heading={2}
      error={create.error}
      onSubmit={({ name = '', team_id: teamId = '', system_prompt: prompt = '' }) =>
        create.mutate({ body: { name, ...(teamId ? { team_id: teamId } : {}), ...(prompt ? { system_prompt: prompt } : {}) } })
      }
      submit="Create workspace"
      pending={create.isPending}
      busy="Creating"
      onCancel={onDone}
    >
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
    </ActionForm>
  );
}

type WorkspaceRow = Schemas['WorkspaceListItem'];

/** The workspaces with their counts and usage. */
function WorkspacesTable({ workspaces }: { workspaces: WorkspaceRow[] }) {
  return (
    <DataTable
      caption="Workspaces"
      columns={[
        { header: 'Name', cell: (workspace) => <Link to={`/workspaces/${workspace.id}`}>{workspace.name}</Link> },
        { header: 'Team', cell: (workspace) => workspace.team },
        { header: 'Status', cell: (workspace) => <Badge status={workspace.status} /> },
        { header: 'Model', cell: (workspace) => workspace.model },
        { header: 'Connections', num: true, cell: (workspace) => count(workspace.connection_count) },
        { header: 'Tools', num: true, cell: (workspace) => count(workspace.tool_count) },
        { header: 'Knowledge', num: true, cell: (workspace) => count(workspace.knowledge_count) },
        { header: 'Queries today', num: true, cell: (workspace) => count(workspace.queries_today) },
        { header: 'Cost this month', num: true, cell: (workspace) => money(workspace.cost_mtd) },
        { header: 'Created', cell: (workspace) => dateTime(workspace.created_at) },
      ]}
      rows={workspaces}
      rowKey={(workspace) => workspace.id}
    />
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
      <ModelKeyNotice />
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
