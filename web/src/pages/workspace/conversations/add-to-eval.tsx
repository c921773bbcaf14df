import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { $api, api, fieldError } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';
import { Loading } from '../../../ui/states';
import { type CaseInput, type EvalCase, evalPath, expectOf, useRefreshEvals } from '../evals/shared';

/** What an answer of a transcript gives a new case: the question it answered, the messages before it, the tools it called. */
export interface AnswerSource {
  question: string;
  history: NonNullable<EvalCase['history']>;
  tools: string[];
}

interface Added {
  evalId: string;
  name: string;
  caseId: string;
}

const NEW = 'new';

/**
 * The API's messages about the new case (`cases.<index>.…`, the index it was sent at) renamed
 * `case.…`, so they show under this form's fields whichever evaluation it went to.
 */
function aboutTheCase(error: unknown, index: number): unknown {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return error;
  const at = `cases.${index}`;
  const details = (error.details as { path: string; message: string }[]).map((detail) =>
    detail.path === at || detail.path.startsWith(`${at}.`) ? { ...detail, path: `case${detail.path.slice(at.length)}` } : detail,
  );
  return { ...error, details };
}

/** Adds the case: a new evaluation of it (POST), or the chosen one's cases with it at the end (read, then PUT). */
function useAddCase(workspaceId: string, onAdded: (added: Added) => void) {
  const refresh = useRefreshEvals();
  return useMutation({
    mutationFn: async ({ evalId, name, input }: { evalId: string; name: string; input: CaseInput }): Promise<Added> => {
      if (evalId === NEW) {
        const created = await api.POST('/api/workspaces/{id}/evals', {
          params: { path: { id: workspaceId } },
          body: { name, cases: [input] },
        });
        if (created.error) throw aboutTheCase(created.error, 0);
        return { evalId: created.data.eval.id, name: created.data.eval.name, caseId: created.data.eval.cases.at(-1)?.id ?? '' };
      }
      const path = { id: workspaceId, eval_id: evalId };
      const current = await api.GET('/api/workspaces/{id}/evals/{eval_id}', { params: { path } });
      if (current.error) throw current.error;
      const cases = current.data.eval.cases;
      const saved = await api.PUT('/api/workspaces/{id}/evals/{eval_id}', { params: { path }, body: { cases: [...cases, input] } });
      if (saved.error) throw aboutTheCase(saved.error, cases.length);
      return { evalId, name: saved.data.eval.name, caseId: saved.data.eval.cases.at(-1)?.id ?? '' };
    },
    onSuccess: async (added) => {
      await refresh();
      onAdded(added);
    },
  });
}

function caseOf(values: Record<string, string>, history: AnswerSource['history']): CaseInput {
  return {
    question: values['case.question'] ?? '',
    ...(history.length ? { history } : {}),
    expect: expectOf({
      tools: values['case.expect.tools'] ?? '',
      tools_not: '',
      contains: values['case.expect.contains'] ?? '',
      not_contains: '',
      judge: '',
    }),
  };
}

interface FormProps {
  workspaceId: string;
  source: AnswerSource;
  onDone: (added?: Added) => void;
}

/** Which evaluation (or a new one, by name), and the case: the question and the tools prefilled, texts to expect if you like. */
function AddCaseForm({ workspaceId, source, onDone }: FormProps) {
  const evals = $api.useQuery('get', '/api/workspaces/{id}/evals', { params: { path: { id: workspaceId } } });
  const [choice, setChoice] = useState<string>();
  const add = useAddCase(workspaceId, onDone);
  if (evals.isPending) return <Loading label="Loading the evaluations" />;
  const list = evals.data?.evals ?? [];
  const chosen = choice ?? list[0]?.id ?? NEW;
  // The history has no field of its own: its messages (too long, too many) show under the question.
  const historyError = fieldError(add.error, 'case.history');
  return (
    <ActionForm
      className="card form eval-add-form"
      label="Add this answer to an evaluation"
      heading={3}
      error={add.error ?? evals.error}
      onSubmit={(values) => add.mutate({ evalId: chosen, name: values.name ?? '', input: caseOf(values, source.history) })}
      submit="Add case"
      pending={add.isPending}
      busy="Adding"
      onCancel={() => onDone()}
    >
      <Field label="Evaluation" name="eval_id" error={add.error}>
        <select value={chosen} onChange={(event) => setChoice(event.target.value)}>
          {list.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name} ({item.case_count} {item.case_count === 1 ? 'case' : 'cases'})
            </option>
          ))}
          <option value={NEW}>A new evaluation</option>
        </select>
      </Field>
      {chosen === NEW && (
        <Field label="Name of the new evaluation" name="name" error={add.error}>
          <input autoComplete="off" />
        </Field>
      )}
      <Field
        label="Question"
        name="case.question"
        error={add.error}
        hint={source.history.length ? `Asked after ${source.history.length} earlier messages, which go with the case.` : undefined}
      >
        <textarea rows={2} defaultValue={source.question} />
      </Field>
      {historyError && <p className="field-error">The earlier messages: {historyError}</p>}
      <Field
        label="Tools it must call"
        name="case.expect.tools"
        error={add.error}
        hint="The tools this answer called; separated by commas or lines."
      >
        <textarea rows={1} defaultValue={source.tools.join(', ')} spellCheck={false} />
      </Field>
      <Field
        label="Texts the answer must contain"
        name="case.expect.contains"
        error={add.error}
        hint="Optional: one a line; case does not matter."
      >
        <textarea rows={2} />
      </Field>
    </ActionForm>
  );
}

/** "Add to evaluation" on an answer (admins): a case of its question, expecting the tools it called. */
export function AddToEval({ workspaceId, source, answerLabel }: { workspaceId: string; source: AnswerSource; answerLabel: string }) {
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<Added>();
  return (
    <div className="eval-add">
      {open ? (
        <AddCaseForm
          workspaceId={workspaceId}
          source={source}
          onDone={(result) => {
            setOpen(false);
            if (result) setAdded(result);
          }}
        />
      ) : (
        <button
          type="button"
          className="button secondary small"
          onClick={() => {
            setAdded(undefined);
            setOpen(true);
          }}
        >
          Add to evaluation<span className="visually-hidden"> {answerLabel}</span>
        </button>
      )}
      <div role="status">
        {added && (
          <p className="result">
            Added case <code>{added.caseId}</code> to <Link to={evalPath(workspaceId, added.evalId)}>{added.name}</Link>.
          </p>
        )}
      </div>
    </div>
  );
}
