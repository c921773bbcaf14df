import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Rectangle, XAxis, YAxis, type BarShapeProps } from 'recharts';
import { count } from '../../../ui/format';
import { ANIMATE, COLOURS, ChartFigure, EmptyFigure, HiddenTable, TICK } from './figure';

/** One bar: its label (on the axis, so colour is never the only cue), its number, its colour. */
interface BarDatum {
  label: string;
  value: number;
  colour?: string;
}

interface BarFigureProps {
  caption: string;
  data: BarDatum[];
  /** What the numbers count ("conversations"), for the summary and the table's column. */
  unit: string;
  /** What the labels are ("Status", "Category"): the table's first column. */
  by: string;
  /** What to say when there is nothing to draw. */
  empty: ReactNode;
  note?: ReactNode;
}

/** Long labels (a category, a channel) are cut on the axis; the table and the summary keep them whole. */
const shortLabel = (label: string) => (label.length > 16 ? `${label.slice(0, 15)}…` : label);

/** Each bar in its own colour (recharts 3 replaces `Cell` with a shape that reads the datum). */
function ColouredBar(props: BarShapeProps) {
  const colour = (props.payload as BarDatum | undefined)?.colour ?? COLOURS.accent;
  return <Rectangle {...props} fill={colour} />;
}

/**
 * Counts by label as horizontal bars (labels stay readable at 390 px), each bar labelled with its
 * number. Nothing counted → an empty note instead of an empty chart.
 */
export function BarFigure({ caption, data, unit, by, empty, note }: BarFigureProps) {
  const total = data.reduce((sum, datum) => sum + datum.value, 0);
  if (total === 0) return <EmptyFigure caption={caption}>{empty}</EmptyFigure>;
  const summary = `${caption}, bar chart: ${data.map((datum) => `${datum.label} ${count(datum.value)}`).join(', ')} ${unit}.`;
  const height = Math.max(140, data.length * 40 + 40);
  return (
    <ChartFigure
      caption={caption}
      note={note}
      summary={summary}
      height={height}
      table={<HiddenTable caption={caption} columns={[by, unit]} rows={data.map((datum) => [datum.label, count(datum.value)])} />}
    >
      <BarChart data={data} layout="vertical" accessibilityLayer={false} margin={{ top: 4, right: 40, bottom: 4, left: 4 }}>
        <CartesianGrid horizontal={false} stroke={COLOURS.grid} />
        <XAxis type="number" allowDecimals={false} tick={TICK} stroke={COLOURS.axis} />
        <YAxis type="category" dataKey="label" width={116} tick={TICK} tickFormatter={shortLabel} stroke={COLOURS.axis} interval={0} />
        <Bar dataKey="value" name={unit} shape={ColouredBar} isAnimationActive={ANIMATE} maxBarSize={28}>
          <LabelList dataKey="value" position="right" fill={COLOURS.text} fontSize={12} />
        </Bar>
      </BarChart>
    </ChartFigure>
  );
}
