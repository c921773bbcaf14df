import { useRef, type ReactNode } from 'react';

interface ConfirmButtonProps {
  /** The button's text ("Drain"). */
  children: ReactNode;
  /** The question in the dialog. */
  title: string;
  /** What will happen, said plainly. */
  description: ReactNode;
  /** The confirming button's text (defaults to the button's). */
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
}

/** A button that asks first, in a modal dialog (focus trapped, Escape cancels). */
export function ConfirmButton({ children, title, description, confirmLabel, onConfirm, disabled, danger = true }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className={`button ${danger ? 'danger' : 'secondary'}`}
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {children}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={title}>
        <form
          method="dialog"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') onConfirm();
          }}
        >
          <h2>{title}</h2>
          <div>{description}</div>
          <div className="actions">
            <button type="submit" value="cancel" className="button secondary">
              Cancel
            </button>
            <button type="submit" value="confirm" className={`button ${danger ? 'danger' : ''}`}>
              {confirmLabel ?? children}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
