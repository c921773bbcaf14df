import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { $api, type Schemas } from '../../../api/client';
import { Field, FormError, formValues, Submit } from '../../../ui/form';
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
      <FormError error={error} />
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
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const create = $api.useMutation('post', '/api/workspaces/{id}/evals', {
    onSuccess: async (data) => {
      await refresh();
      onDone();
      void navigate(evalPath(workspaceId, data.eval.id));
    },
  });
  const [drafts, setDrafts] = useDrafts(() => [caseDraft()], create.reset);
  return (
    <form
      ref={form}
      className="card form eval-form"
      aria-label="New evaluation"
      noValidate
      onSubmit={(event) => {
        const { name = '' } = formValues(event);
        create.mutate({ params: { path: { id: workspaceId } }, body: { name, cases: drafts.map(caseInputOf) } });
      }}
    >
      <h2>New evaluation</h2>
      <EvalFields error={create.error} drafts={drafts} onDrafts={setDrafts} />
      <div className="actions">
        <Submit pending={create.isPending} busy="Creating">
          Create evaluation
        </Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
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
    <form
      className="card form eval-form"
      aria-label={`Edit ${evaluation.name}`}
      noValidate
      onSubmit={(event) => {
        const { name = '' } = formValues(event);
        update.mutate({
          params: { path: { id: workspaceId, eval_id: evaluation.id } },
          body: { name, cases: drafts.map(caseInputOf) },
        });
      }}
    >
      <h2>Edit the evaluation</h2>
      <EvalFields error={update.error} name={evaluation.name} drafts={drafts} onDrafts={setDrafts} />
      <div className="actions">
        <Submit pending={update.isPending}>Save evaluation</Submit>
        <button type="button" className="button secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
