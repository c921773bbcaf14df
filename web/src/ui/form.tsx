import {
  cloneElement,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
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

/** A form's values by input name, as they are now (a Test button reads them without submitting). */
export function valuesOf(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') values[key] = value;
  return values;
}

/** The form's values by input name, for `onSubmit` handlers. */
export function formValues(event: React.FormEvent<HTMLFormElement>): Record<string, string> {
  event.preventDefault();
  return valuesOf(event.currentTarget);
}

interface FormActionsProps {
  /** The submit button's text. */
  submit: ReactNode;
  /** While the request runs the button is disabled and says `busy…` ("Creating…"; "Saving…" unless said). */
  pending: boolean;
  busy?: string;
  /**
   * A Cancel button after Submit, when given. A form that can be cancelled was opened by a button
   * it takes the place of: its first field has the focus as it opens.
   */
  onCancel?: () => void;
  /** What the row holds before Submit (a Test button) and after Cancel (a Test button, a status line). */
  actionsBefore?: ReactNode;
  actionsAfter?: ReactNode;
}

/** A form's row of buttons: Submit, saying what it is doing while the request runs, and Cancel. */
function FormActions({ submit, pending, busy, onCancel, actionsBefore, actionsAfter }: FormActionsProps) {
  return (
    <div className="actions">
      {actionsBefore}
      <Submit pending={pending} busy={busy}>
        {submit}
      </Submit>
      {onCancel && (
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
      {actionsAfter}
    </div>
  );
}

interface ActionFormProps extends FormActionsProps {
  /** The form's name for assistive technology ("New team"). */
  label?: string;
  /** A heading of this level at the top, saying `title` (the label unless given). */
  heading?: 2 | 3 | 4;
  title?: ReactNode;
  /** The form's classes: `form` unless said (`""` for none, as in a dialog). */
  className?: string;
  /** What comes between the heading and the request's error (a hint about the whole form). */
  intro?: ReactNode;
  /** The error of the last submission (a mutation's `error`), above the fields unless they show it all. */
  error: unknown;
  /** The fields. */
  children: ReactNode;
  /** What comes after the buttons (a result announced as a status). */
  footer?: ReactNode;
  /** The form's values by input name, and the form (to reset it once the request is done). */
  onSubmit: (values: Record<string, string>, form: HTMLFormElement) => void;
  formRef?: RefObject<HTMLFormElement | null>;
}

/**
 * A form that sends one request: its heading, the request's error, the fields, and Submit (busy
 * while the request runs) with Cancel. The browser's own validation is off (`noValidate`): the
 * API's messages show under the fields.
 */
export function ActionForm({
  label,
  heading,
  title = label,
  className = 'form',
  intro,
  error,
  children,
  footer,
  onSubmit,
  formRef,
  ...actions
}: ActionFormProps) {
  const ownRef = useRef<HTMLFormElement>(null);
  const form = formRef ?? ownRef;
  // Opened by a button that is gone now (or far from it): the focus would be left on the page's body.
  const opened = actions.onCancel !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening only; the ref is stable.
  useEffect(() => {
    if (opened) form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  const Heading = heading ? (`h${heading}` as const) : undefined;
  return (
    <form
      ref={form}
      className={className || undefined}
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        const element = event.currentTarget;
        onSubmit(formValues(event), element);
      }}
    >
      {Heading && <Heading>{title}</Heading>}
      {intro}
      <FormError error={error} />
      {children}
      <FormActions {...actions} />
      {footer}
    </form>
  );
}
