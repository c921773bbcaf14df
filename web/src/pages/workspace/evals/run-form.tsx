import { $api } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { Loading } from '../../../ui/states';
import { modelLabel } from '../settings/fields';
import { type Overrides, useRefreshEvals } from './shared';

/** Starting a run of an evaluation (`POST …/runs`); the page's runs are read again so its polling starts. */
export function useStartRun(workspaceId: string, evalId: string, onStarted: (runId: string) => void) {
  const refresh = useRefreshEvals();
  const start = $api.useMutation('post', '/api/workspaces/{id}/evals/{eval_id}/runs', {
    onSuccess: async (data) => {
      // Watched from the start: the page says how it ends even when it ends before the list is read again.
      onStarted(data.run.id);
      await refresh();
    },
  });
  return {
    start,
    run: (overrides?: Overrides) =>
      start.mutate({ params: { path: { id: workspaceId, eval_id: evalId } }, body: overrides ? { overrides } : {} }),
  };
}

/** The overrides from the form: a prompt only when it differs from the workspace's, a model only when one is chosen. */
function overridesOf(values: Record<string, string>, currentPrompt: string): Overrides {
  const overrides: Overrides = {};
  const prompt = values['overrides.system_prompt'] ?? '';
  if (prompt !== currentPrompt) overrides.system_prompt = prompt;
  const model = values['overrides.model'];
  // Any tier the catalogue lists; the API names one it does not take under the field.
  if (model) overrides.model = model as Overrides['model'];
  return overrides;
}

interface TrySettingsProps {
  workspaceId: string;
  evalId: string;
  onStarted: (runId: string) => void;
  onCancel: () => void;
}

/** Another system prompt or model, tried in one run only: the workspace's settings do not change. */
export function TrySettings({ workspaceId, evalId, onStarted, onCancel }: TrySettingsProps) {
  const { start, run } = useStartRun(workspaceId, evalId, onStarted);
  const summary = $api.useQuery('get', '/api/workspaces/{id}/summary', { params: { path: { id: workspaceId } } });
  const models = $api.useQuery('get', '/api/models');
  // The fields start from the workspace's settings (a textarea and a select keep their first value).
  if (summary.isPending || models.isPending) return <Loading label="Loading the workspace’s settings" />;
  const workspace = summary.data?.workspace;
  const prompt = workspace?.system_prompt ?? '';
  return (
    <ActionForm
      className="card form"
      label="Try these settings"
      heading={2}
      intro={
        <p className="hint">
          Used by this run only: the workspace’s settings do not change. Save them on the Settings page once they do better.
        </p>
      }
      error={start.error}
      onSubmit={(values) => run(overridesOf(values, prompt))}
      submit="Run with these settings"
      pending={start.isPending}
      busy="Starting"
      onCancel={onCancel}
    >
      <Field label="System prompt" name="overrides.system_prompt" error={start.error} hint="Starts as the workspace’s own.">
        <textarea rows={5} defaultValue={prompt} />
      </Field>
      <Field label="Model" name="overrides.model" error={start.error} hint="Prices are in US dollars per million tokens.">
        <select defaultValue="">
          <option value="">The workspace’s model ({workspace?.model ?? 'unknown'})</option>
          {models.data?.models.map((model) => (
            <option key={model.id} value={model.id}>
              {modelLabel(model)}
            </option>
          ))}
        </select>
      </Field>
    </ActionForm>
  );
}
