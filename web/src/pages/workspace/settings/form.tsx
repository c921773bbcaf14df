import { useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ActionForm } from '../../../ui/form';
import { OtherErrors } from '../consumers/other-errors';
import { changedBody } from './body';
import { ApprovalFields, GeneralFields, LimitFields, PrivacyFields, TimeoutFields, ToolSearchFields } from './fields';

type Summary = Schemas['WorkspaceSummary'];

/** The request fields the form has inputs for (the others' messages are listed at the top). */
const SHOWN = [
  'name',
  'model',
  'system_prompt',
  'cold_timeout_minutes',
  'close_timeout_minutes',
  'tool_timeout_seconds',
  'tool_budget_seconds',
  'max_tool_rounds',
  'max_tokens_per_query',
  'approval.mode',
  'approval.patterns',
  'approval.approvers',
  'approval.expires_minutes',
  'tool_search.mode',
  'tool_search.threshold',
  'tool_search.pinned',
  'conversations_visible_to',
];

/** The admin's form: sends only what changed, then re-reads every view of the workspace. */
export function SettingsForm({ workspace, models }: { workspace: Summary; models: Schemas['Model'][] | undefined }) {
  const refresh = useRefresh('/api/workspaces/{id}/summary', '/api/workspaces/{id}', '/api/workspaces');
  const [notice, setNotice] = useState('');
  const save = $api.useMutation('put', '/api/workspaces/{id}', {
    onSuccess: async () => {
      await refresh();
      setNotice('Settings saved.');
    },
  });
  return (
    <ActionForm
      // A new version of the workspace starts the form over from what was saved.
      key={JSON.stringify(workspace)}
      className="form access-settings"
      label="Workspace settings"
      error={save.error}
      onSubmit={(values) => {
        const body = changedBody(values, workspace);
        save.reset();
        if (Object.keys(body).length === 0) {
          setNotice('Nothing changed: there is nothing to save.');
          return;
        }
        setNotice('');
        save.mutate({ params: { path: { id: workspace.id } }, body });
      }}
      submit="Save settings"
      pending={save.isPending}
    >
      <OtherErrors error={save.error} shown={SHOWN} />
      {notice && (
        <p className="access-note" role="status">
          {notice}
        </p>
      )}
      <GeneralFields workspace={workspace} models={models} error={save.error} />
      <TimeoutFields workspace={workspace} error={save.error} />
      <LimitFields workspace={workspace} error={save.error} />
      <ApprovalFields approval={workspace.approval} error={save.error} />
      <ToolSearchFields toolSearch={workspace.tool_search} error={save.error} />
      <PrivacyFields workspace={workspace} error={save.error} />
    </ActionForm>
  );
}
