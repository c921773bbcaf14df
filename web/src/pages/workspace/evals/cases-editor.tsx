import { fieldError } from '../../../api/client';
import { Field } from '../../../ui/form';
import { type CaseInput, type EvalCase, expectOf } from './shared';

/** A case as the editor holds it: the expectations as the text of their fields. */
export interface CaseDraft {
  key: number;
  /** The case's id as typed: a run matches cases by it; empty, the API names the case `case-<n>`. */
  id: string;
  /** Kept as it was: the editor does not change a case's earlier messages. */
  history?: EvalCase['history'];
  question: string;
  tools: string;
  tools_not: string;
  contains: string;
  not_contains: string;
  judge: string;
}

type TextField = Exclude<keyof CaseDraft, 'key' | 'history'>;

let nextKey = 0;
/** A draft of a case (its key keeps React's inputs apart as cases come and go); empty without one. */
export function caseDraft(from?: Partial<EvalCase>): CaseDraft {
  const expect = from?.expect ?? {};
  return {
    key: nextKey++,
    id: from?.id ?? '',
    history: from?.history,
    question: from?.question ?? '',
    tools: (expect.tools ?? []).join(', '),
    tools_not: (expect.tools_not ?? []).join(', '),
    contains: (expect.contains ?? []).join('\n'),
    not_contains: (expect.not_contains ?? []).join('\n'),
    judge: expect.judge ?? '',
  };
}

/** The case as the API takes it: only what was filled in. */
export function caseInputOf(draft: CaseDraft): CaseInput {
  return {
    ...(draft.id.trim() ? { id: draft.id.trim() } : {}),
    question: draft.question,
    ...(draft.history?.length ? { history: draft.history } : {}),
    expect: expectOf(draft),
  };
}

/** The API's messages about a case as a whole (its history, its expectations' shape). */
function caseError(error: unknown, at: string): string | undefined {
  const messages = [
    fieldError(error, at, { exact: true }),
    fieldError(error, `${at}.history`),
    fieldError(error, `${at}.expect`, { exact: true }),
  ].filter(Boolean);
  return messages.length ? messages.join('; ') : undefined;
}

const FIELDS: { field: TextField; label: string; path: string; hint: string; rows: number }[] = [
  {
    field: 'id',
    label: 'Id',
    path: 'id',
    hint: 'Optional: letters, digits, _ . and - (64 at most), once in the evaluation. A run compares each case with the one of the same id in the run before, wherever it stands; a case without one is case-<n>, compared by its place.',
    rows: 1,
  },
  { field: 'question', label: 'Question', path: 'question', hint: 'What a user asks.', rows: 2 },
  { field: 'tools', label: 'Tools it must call', path: 'expect.tools', hint: 'Tool names, separated by commas or lines.', rows: 1 },
  {
    field: 'tools_not',
    label: 'Tools it must not call',
    path: 'expect.tools_not',
    hint: 'Tool names, separated by commas or lines.',
    rows: 1,
  },
  {
    field: 'contains',
    label: 'Texts the answer must contain',
    path: 'expect.contains',
    hint: 'One a line (a text may hold commas); case does not matter.',
    rows: 2,
  },
  { field: 'not_contains', label: 'Texts the answer must not contain', path: 'expect.not_contains', hint: 'One a line.', rows: 2 },
  {
    field: 'judge',
    label: 'Rubric',
    path: 'expect.judge',
    hint: 'Optional: the model grades the answer against it (one more model call per case).',
    rows: 3,
  },
];

interface CaseFieldsProps {
  draft: CaseDraft;
  index: number;
  error: unknown;
  onChange: (draft: CaseDraft) => void;
  onRemove: () => void;
}

/** One case: its question and expectations, the API's messages under each (`cases.<index>.…`). */
function CaseFields({ draft, index, error, onChange, onRemove }: CaseFieldsProps) {
  const at = `cases.${index}`;
  const whole = caseError(error, at);
  return (
    <fieldset className="wc-fieldset eval-case-fields">
      <legend>Case {index + 1}</legend>
      {whole && <p className="field-error">{whole}</p>}
      {draft.history?.length ? <p className="hint">Asked after {draft.history.length} earlier messages, kept as they are.</p> : null}
      {FIELDS.map(({ field, label, path, hint, rows }) => (
        <Field key={field} label={label} name={`${at}.${path}`} error={error} hint={hint}>
          {field === 'id' ? (
            <input
              value={draft.id}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => onChange({ ...draft, id: event.target.value })}
            />
          ) : (
            <textarea
              rows={rows}
              value={draft[field]}
              spellCheck={field === 'question' || field === 'judge'}
              onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
            />
          )}
        </Field>
      ))}
      <div>
        <button type="button" className="button secondary small" onClick={onRemove}>
          Remove<span className="visually-hidden"> case {index + 1}</span>
        </button>
      </div>
    </fieldset>
  );
}

interface CasesEditorProps {
  drafts: CaseDraft[];
  onChange: (drafts: CaseDraft[]) => void;
  /** The error of the last save: `cases.<index>.<field>` shows under its field. */
  error: unknown;
}

/** The cases of an evaluation: add, edit and remove them (saved with the form). */
export function CasesEditor({ drafts, onChange, error }: CasesEditorProps) {
  const whole = fieldError(error, 'cases', { exact: true });
  return (
    <fieldset className="wc-fieldset">
      <legend>Cases</legend>
      <p className="hint">
        Each case is a question and what a good answer does. A case passes when every expectation holds; one without any passes unless the
        query ends in an error.
      </p>
      {whole && <p className="field-error">{whole}</p>}
      {drafts.map((draft, index) => (
        <CaseFields
          key={draft.key}
          draft={draft}
          index={index}
          error={error}
          onChange={(changed) => onChange(drafts.map((other) => (other.key === draft.key ? changed : other)))}
          onRemove={() => onChange(drafts.filter((other) => other.key !== draft.key))}
        />
      ))}
      <div>
        <button type="button" className="button secondary small" onClick={() => onChange([...drafts, caseDraft()])}>
          Add a case
        </button>
      </div>
    </fieldset>
  );
}
