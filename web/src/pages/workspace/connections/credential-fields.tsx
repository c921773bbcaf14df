import { Field } from '../../../ui/form';
import { exactError } from './shared';

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let nextKey = 0;
/** A new row (its key keeps React's inputs apart as rows come and go). */
export const headerRow = (name = '', value = ''): HeaderRow => ({ key: nextKey++, name, value });

/** The rows as the API's `headers` object; rows left wholly empty are dropped. */
export function headersOf(rows: HeaderRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.name.trim() || row.value).map((row) => [row.name.trim(), row.value]));
}

interface HeaderRowsProps {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error: unknown;
  hint: string;
}

/**
 * Headers as name/value rows. The API names a header's problem `headers.<name>`, so each row's
 * message shows under its name; one about all of them (`headers`) under the legend.
 */
export function HeaderRows({ rows, onChange, error, hint }: HeaderRowsProps) {
  const update = (key: number, change: Partial<HeaderRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const whole = exactError(error, 'headers');
  return (
    <fieldset className="wc-fieldset">
      <legend>Headers</legend>
      <p className="hint">{hint}</p>
      {whole && <p className="field-error">{whole}</p>}
      {rows.map((row, index) => (
        <div className="wc-pair" key={row.key}>
          <Field label={`Name of header ${index + 1}`} name={`headers.${row.name.trim()}`} error={error}>
            <input
              value={row.name}
              autoComplete="off"
              spellCheck={false}
              placeholder="Authorization"
              onChange={(event) => update(row.key, { name: event.target.value })}
            />
          </Field>
          <Field label={`Value of header ${index + 1}`} name={`header-value-${row.key}`}>
            <input
              type="password"
              value={row.value}
              autoComplete="off"
              onChange={(event) => update(row.key, { value: event.target.value })}
            />
          </Field>
          <button type="button" className="button secondary small" onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
            Remove<span className="visually-hidden"> header {row.name.trim() || index + 1}</span>
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="button secondary small" onClick={() => onChange([...rows, headerRow()])}>
          Add a header
        </button>
      </div>
    </fieldset>
  );
}

interface EnvFieldsProps {
  names: string[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  error: unknown;
  /** Names that have a value saved already (edit): said in the hint, never shown. */
  saved?: string[];
  /** Editing: what is saved replaces every variable, so each must be typed again. */
  replacing?: boolean;
}

/** One secret input per variable the catalogue entry declares; the API names a problem `env.<NAME>`. */
export function EnvFields({ names, values, onChange, error, saved = [], replacing = false }: EnvFieldsProps) {
  const whole = exactError(error, 'env');
  return (
    <fieldset className="wc-fieldset">
      <legend>Environment variables</legend>
      {names.length === 0 ? (
        <p className="hint">This server takes no environment variables.</p>
      ) : (
        <p className="hint">
          {replacing
            ? 'Saved values are never shown: type each value again. What you save replaces all the variables; one left blank is unset.'
            : 'Secrets: stored encrypted and never shown again. Leave one blank to leave it unset.'}
        </p>
      )}
      {whole && <p className="field-error">{whole}</p>}
      {names.map((name) => (
        <Field
          key={name}
          label={name}
          name={`env.${name}`}
          error={error}
          hint={saved.includes(name) ? 'Has a saved value: type it again to keep it.' : undefined}
        >
          <input
            type="password"
            autoComplete="off"
            value={values[name] ?? ''}
            onChange={(event) => onChange({ ...values, [name]: event.target.value })}
          />
        </Field>
      ))}
    </fieldset>
  );
}

/** The non-empty variables as the API's `env` object. */
export function envOf(names: string[], values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(names.filter((name) => values[name]).map((name) => [name, values[name] ?? '']));
}
