import { cloneElement, useId, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
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
    <div className={`field${message ? ' field-invalid' : ''}`} data-field={name}>
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

/** The `details` of an error body (the API's messages by field), or none. */
function detailsOf(error: unknown): { path: string }[] {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return [];
  return error.details as { path: string }[];
}

/** The names of the `Field`s in the form around `element` (none outside a form). */
function fieldNamesAround(element: Element | null): string {
  const form = element?.closest('form');
  if (!form) return '';
  return [...form.querySelectorAll<HTMLElement>('[data-field]')].map((field) => field.dataset.field ?? '').join('\n');
}

/**
 * The form-level message of a failed submission. When every one of the API's messages shows under
 * a field of the same form, it says nothing more: "invalid request body" above "must not be empty"
 * would say the same thing twice, the first time in the API's words.
 */
export function FormError({ error }: { error: unknown }) {
  const anchor = useRef<HTMLSpanElement>(null);
  const [fieldNames, setFieldNames] = useState('');
  // Read after each render, before paint: the fields are the form's own, rendered alongside.
  useLayoutEffect(() => {
    const names = fieldNamesAround(anchor.current);
    if (names !== fieldNames) setFieldNames(names);
  });
  const fields = fieldNames ? fieldNames.split('\n') : [];
  const details = detailsOf(error);
  const shownUnderFields =
    details.length > 0 && details.every((detail) => fields.some((field) => detail.path === field || detail.path.startsWith(`${field}.`)));
  return (
    <>
      <span ref={anchor} hidden />
      {error && !shownUnderFields ? (
        <p className="form-error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
    </>
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
