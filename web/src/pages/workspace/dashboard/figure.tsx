import type { ReactElement, ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';
import { Empty } from '../../../ui/states';

/** Colours of the charts: the console's own, each at least 3:1 against white (graphics need that much). */
export const COLOURS = {
  accent: '#0b57d0',
  good: '#116329',
  warn: '#8a5a00',
  bad: '#b42318',
  muted: '#57606a',
  cost: '#8250df',
  grid: '#d0d7de',
  axis: '#8c959f',
  text: '#1b1f24',
} as const;

/** Axis tick text: the console's muted text colour, which passes 4.5:1 on white. */
export const TICK = { fill: COLOURS.muted, fontSize: 12 };

/** Whether charts may animate: not for readers who asked for less motion. */
export const ANIMATE = typeof window === 'undefined' || !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

interface ChartFigureProps {
  /** What the chart shows (the figure's caption, seen by everyone). */
  caption: string;
  /** The chart's numbers in one sentence: the accessible name of the picture. */
  summary: string;
  /** The same numbers as a table only screen readers reach (the picture itself is one image to them). */
  table: ReactNode;
  /** A line under the caption (a rate, an average). */
  note?: ReactNode;
  height: number;
  /** One recharts chart. */
  children: ReactElement;
}

/**
 * A chart in a figure: the picture is `role="img"` named by its summary, so assistive technology
 * reads one sentence instead of the SVG's fragments, and the table beside it holds every number.
 */
export function ChartFigure({ caption, summary, table, note, height, children }: ChartFigureProps) {
  return (
    <figure className="chart-figure">
      <figcaption>{caption}</figcaption>
      {note && <div className="chart-note">{note}</div>}
      <div className="chart-canvas" role="img" aria-label={summary} style={{ height }}>
        {/* The SVG's own fragments (tick labels, bars) stay out of the accessibility tree: the label says it all. */}
        <div aria-hidden="true">
          <ResponsiveContainer width="100%" height={height}>
            {children}
          </ResponsiveContainer>
        </div>
      </div>
      {table}
    </figure>
  );
}

/** A figure whose data is empty: its caption and what the emptiness means, no blank chart. */
export function EmptyFigure({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <figure className="chart-figure">
      <figcaption>{caption}</figcaption>
      <Empty>{children}</Empty>
    </figure>
  );
}

/** The numbers of a chart as a table that is read, not seen. */
export function HiddenTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: (string | number)[][] }) {
  // The wrapper hides it: a table box ignores the 1px width of `visually-hidden` and would widen the page.
  return (
    <div className="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([head, ...cells]) => (
            <tr key={String(head)}>
              <th scope="row">{head}</th>
              {cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their position is their identity.
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
