import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { errorText, fieldError } from '../api/client';

interface FieldProps {
  label: string;
  /** The request field this input fills: the API's message for it shows under the input. */
  name: string;
  /** The error of the last submission (a mutation's `error`). */
  error?: unknown;
  hint?: ReactNode;
  /** One input, select or textarea: gets the id, name, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
}

/** A labelled input with its hint and the API's message for its field, tied together for screen readers. */
export function Field({ label, name, error, hint, children }: FieldProps) {
  const id = useId();
  const message = fieldError(error, name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${message ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, name, 'aria-invalid': message ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {message && (
        <p className="field-error" id={errorId}>
          {message}
        </p>
      )}
    </div>
  );
}

/** The form-level message of a failed submission (field messages show next to their fields). */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {errorText(error)}
    </p>
  );
}

/** A submit button that says what it is doing while the request runs. */
export function Submit({ pending, children, busy = 'Saving' }: { pending: boolean; children: ReactNode; busy?: string }) {
  return (
    <button type="submit" className="button" disabled={pending} aria-busy={pending || undefined}>
      {pending ? `${busy}…` : children}
    </button>
  );
}

/** The form's values by input name, for `onSubmit` handlers. */
export function formValues(event: React.FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(event.currentTarget)) if (typeof value === 'string') values[key] = value;
  return values;
}
