import type { ReactNode } from 'react';

/** A table that scrolls sideways on a narrow screen; the scroll area is focusable so the keyboard can scroll it. */
export function DataTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="table-scroll" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </section>
  );
}
