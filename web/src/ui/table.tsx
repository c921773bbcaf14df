import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * Each body cell's column name as `data-label`, from the table's header row: on a phone a row is
 * shown as a card, each value under its column's name (styles.css, `.table-scroll` at 640 px and
 * below), so no column is out of sight. Read from the header row, so pages write a plain table.
 */
function labelCells(table: HTMLTableElement) {
  const header = table.tHead?.rows[table.tHead.rows.length - 1];
  if (!header) return;
  const names = [...header.cells].flatMap((cell) => Array<string>(cell.colSpan).fill(cell.textContent?.trim() ?? ''));
  for (const body of table.tBodies)
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const name = names[column] ?? '';
        if (cell.dataset.label !== name) cell.dataset.label = name;
        column += cell.colSpan;
      }
    }
}

/**
 * A table that wraps its text to fit a wide screen and becomes one card a row on a phone; a table
 * still too wide scrolls sideways in a region the keyboard can reach (it is focusable).
 */
export function DataTable({ caption, children }: { caption: string; children: ReactNode }) {
  const table = useRef<HTMLTableElement>(null);
  // Now and whenever rows or cells come and go (the rows are the page's, and change with its data).
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return;
    labelCells(element);
    const observer = new MutationObserver(() => labelCells(element));
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="table-scroll" aria-label={caption} tabIndex={0}>
      <table ref={table}>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </section>
  );
}
