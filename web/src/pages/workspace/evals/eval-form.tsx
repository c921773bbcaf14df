import { useState } from 'react';
import { useNavigate } from 'react-router';
import { $api, type Schemas } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { type CaseDraft, CasesEditor, caseDraft, caseInputOf } from './cases-editor';
import { evalPath, useRefreshEvals } from './shared';

interface FieldsProps {
  error: unknown;
  name?: string;
  drafts: CaseDraft[];
  onDrafts: (drafts: CaseDraft[]) => void;
}

function EvalFields({ error, name = '', drafts, onDrafts }: FieldsProps) {
  return (
    <>
      <Field label="Name" name="name" error={error} hint="What the cases check, in a few words (at most 100 characters).">
        <input defaultValue={name} autoComplete="off" />
      </Field>
      <CasesEditor drafts={drafts} onChange={onDrafts} error={error} />
    </>
  );
}

/**
 * The cases as the form holds them. A case added or removed moves the ones after it: the last
 * save's messages (`cases.<index>.…`) would then sit under the wrong case, so they go.
 */
function useDrafts(initial: () => CaseDraft[], reset: () => void) {
  const [drafts, setDrafts] = useState(initial);
  const change = (next: CaseDraft[]) => {
    if (next.length !== drafts.length) reset();
    setDrafts(next);
  };
  return [drafts, change] as const;
}

/** An admin adds an evaluation: its name and cases; it opens once added. */
export function NewEval({ workspaceId, onDone }: { workspaceId: string; onDone: () => void }) {
  const navigate = useNavigate();
  const refresh = useRefreshEvals();
  const create = $api.useMutation('post', '/api/workspaces/{id}/evals', {
    onSuccess: async (data) => {
      await refresh();
      onDone();
      void navigate(evalPath(workspaceId, data.eval.id));
    },
  });
  const [drafts, setDrafts] = useDrafts(() => [caseDraft()], create.reset);
  return (
    <ActionForm
      className="card form eval-form"
      label="New evaluation"
      heading={2}
      error={create.error}
      onSubmit={({ name = '' }) => create.mutate({ params: { path: { id: workspaceId } }, body: { name, cases: drafts.map(caseInputOf) } })}
      submit="Create evaluation"
      pending={create.isPending}
      busy="Creating"
      onCancel={onDone}
    >
      <EvalFields error={create.error} drafts={drafts} onDrafts={setDrafts} />
    </ActionForm>
  );
}

interface EditEvalProps {
  workspaceId: string;
  evaluation: Schemas['Eval'];
  onDone: (message?: string) => void;
}

/** An admin renames an evaluation and adds, changes and removes its cases; a run under way keeps the cases it started with. */
export function EditEval({ workspaceId, evaluation, onDone }: EditEvalProps) {
  const refresh = useRefreshEvals();
  const update = $api.useMutation('put', '/api/workspaces/{id}/evals/{eval_id}', {
    onSuccess: async (data) => {
      await refresh();
      onDone(`Saved ${data.eval.name}: ${data.eval.cases.length} ${data.eval.cases.length === 1 ? 'case' : 'cases'}.`);
    },
  });
  const [drafts, setDrafts] = useDrafts(() => evaluation.cases.map((item) => caseDraft(item)), update.reset);
  return (
    <ActionForm
      className="card form eval-form"
      label={`Edit ${evaluation.name}`}
      heading={2}
      title="Edit the evaluation"
      error={update.error}
      onSubmit={({ name = '' }) =>
        update.mutate({
          params: { path: { id: workspaceId, eval_id: evaluation.id } },
          body: { name, cases: drafts.map(caseInputOf) },
        })
      }
      submit="Save evaluation"
      pending={update.isPending}
      onCancel={() => onDone()}
    >
      <EvalFields error={update.error} name={evaluation.name} drafts={drafts} onDrafts={setDrafts} />
    </ActionForm>
  );
}
