import { useState } from 'react';

/**
 * A form a page opens with a button (a create panel, an edit form): whether it is open, and what
 * the last one did. Opening forgets the last message; closing says what was done, or nothing when
 * it was cancelled.
 */
export function usePanel(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const [notice, setNotice] = useState('');
  return {
    open,
    notice,
    show: () => {
      setNotice('');
      setOpen(true);
    },
    done: (message?: string) => {
      setOpen(false);
      if (message) setNotice(message);
    },
    /** Says what another change on the page did, the form staying as it is. */
    say: setNotice,
  };
}

/** What the last change did, announced to screen readers as it appears. */
export function Notice({ message }: { message: string }) {
  return <div role="status">{message && <p className="result">{message}</p>}</div>;
}
