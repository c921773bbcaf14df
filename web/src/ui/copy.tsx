import { useState } from 'react';

/** A button that copies `value` to the clipboard and says so; `what` names it for screen readers ("the base URL"). */
export function CopyButton({ value, what }: { value: string; what: string }) {
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
      <span className="visually-hidden"> {what}</span>
    </button>
  );
}
