import type { ReactNode } from 'react';
import { Empty } from './states';

/** One column of a `DataTable`: its name and what a row shows in it. */
export interface Column<Row> {
  /** The header's text, and on a phone the name each of the column's values is shown under. */
  header: string;
  /** The header is for screen readers only (a column of buttons). */
  hideHeader?: boolean;
  cell: (row: Row) => ReactNode;
  /** A column of numbers: the header and the values align right (`num`). */
  num?: boolean;
  /** More classes for the column's cells, the same for every row or a row's own. */
  className?: string | ((row: Row) => string);
}

interface DataTableProps<Row> {
  /** What the table lists: its caption and the name of its region. */
  caption: string;
  /** The first column names its row (`<th scope="row">`); `false` or `undefined` leaves one out (a column only admins see). */
  columns: (Column<Row> | false | undefined)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** What to show instead of a table without rows; without it such a table shows its header alone. */
  empty?: ReactNode;
  /** A class of the table's region, for a table that lays out its columns its own way (the audit log). */
  className?: string;
}

/** A cell's classes: `num` for a column of numbers, then the column's own. */
function classesOf<Row>(column: Column<Row>, row: Row): string | undefined {
  const own = typeof column.className === 'function' ? column.className(row) : column.className;
  return [column.num ? 'num' : '', own ?? ''].filter(Boolean).join(' ') || undefined;
}

/**
 * A table of rows by columns that wraps its text to fit a wide screen and becomes one card a row on
 * a phone, each value under its column's name (`data-label`; styles.css, `.table-scroll` at 640 px
 * and below), so no column is out of sight; a table still too wide scrolls sideways in a region the
 * keyboard can reach (it is focusable).
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, empty, className }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <Empty>{empty}</Empty>;
  const shown = columns.filter((column): column is Column<Row> => !!column);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className={className ? `table-scroll ${className}` : 'table-scroll'} aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {shown.map((column) => (
              <th key={column.header} scope="col" className={column.num ? 'num' : undefined}>
                {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {shown.map((column, index) => {
                const Cell = index === 0 ? 'th' : 'td';
                return (
                  <Cell
                    key={column.header}
                    scope={index === 0 ? 'row' : undefined}
                    className={classesOf(column, row)}
                    data-label={column.header}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
