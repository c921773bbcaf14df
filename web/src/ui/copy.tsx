import { useState } from 'react';

/** A button that copies `value` to the clipboard and says so; `what` names it for screen readers ("the base URL") where the button's row does not. */
export function CopyButton({ value, what }: { value: string; what?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      {what && <span className="visually-hidden"> {what}</span>}
    </button>
  );
}
