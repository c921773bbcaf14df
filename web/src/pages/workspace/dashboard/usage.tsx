import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { Schemas } from '../../../api/client';
import { count, money } from '../../../ui/format';
import { ANIMATE, COLOURS, ChartFigure, EmptyFigure, HiddenTable, TICK } from './figure';
import { todayUtc } from './range';

type Day = Schemas['Dashboard']['usage']['by_day'][number];

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** A day of the usage series ("2026-05-12") as "12 May"; the days are UTC days. */
export const day = (date: string) => {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : dayFormat.format(parsed);
};

/** The days charted in words: "the last 30 days" when they end today (UTC), else "1 Aug to 7 Aug". */
export function spanOf(days: { date: string }[]): string {
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  return last === todayUtc() ? `the last ${days.length} days` : `${day(first)} to ${day(last)}`;
}

/** Cost ticks: enough decimals to tell fractions of a cent apart ($0.003), whole dollars past 10. */
const axisMoney = (value: number) => {
  if (value === 0) return '$0';
  if (value >= 10) return `$${Math.round(value)}`;
  return `$${Number(value.toPrecision(2))}`;
};

function summaryOf(days: Day[]): string {
  const queries = days.reduce((sum, entry) => sum + entry.queries, 0);
  const cost = days.reduce((sum, entry) => sum + entry.cost, 0);
  const busiest = days.reduce((top, entry) => (entry.queries > top.queries ? entry : top));
  return (
    `Queries and cost per day over ${spanOf(days)}, bar and line chart: ` +
    `${count(queries)} queries costing ${money(cost)} in all; the busiest day was ${day(busiest.date)} ` +
    `with ${count(busiest.queries)} queries costing ${money(busiest.cost)}.`
  );
}

/** The chart's key, in words and shapes (a bar, a line) besides colour; cheaper than recharts' Legend. */
function UsageKey() {
  return (
    <div className="chart-key">
      <span>
        <span className="key-bar" aria-hidden="true" /> Queries (bars, left axis)
      </span>
      <span>
        <span className="key-line" aria-hidden="true" /> Cost in USD (line, right axis)
      </span>
    </div>
  );
}

/** Queries per day as bars (left axis) and their cost as a line (right axis), with a legend naming both. */
export function UsageChart({ days }: { days: Day[] }) {
  const caption = `Queries and cost per day, ${spanOf(days)}`;
  if (!days.some((entry) => entry.queries > 0 || entry.cost > 0))
    return <EmptyFigure caption={caption}>No queries in {spanOf(days)}.</EmptyFigure>;
  return (
    <ChartFigure
      caption={caption}
      summary={summaryOf(days)}
      note={<UsageKey />}
      height={260}
      table={
        <HiddenTable
          caption={caption}
          columns={['Day', 'Queries', 'Cost']}
          rows={days.map((entry) => [day(entry.date), count(entry.queries), money(entry.cost)])}
        />
      }
    >
      <ComposedChart data={days} accessibilityLayer={false} margin={{ top: 8, right: 4, bottom: 4, left: 4 }}>
        <CartesianGrid vertical={false} stroke={COLOURS.grid} />
        <XAxis dataKey="date" tickFormatter={day} tick={TICK} stroke={COLOURS.axis} minTickGap={16} />
        <YAxis yAxisId="queries" allowDecimals={false} tick={TICK} stroke={COLOURS.axis} width={40} />
        <YAxis yAxisId="cost" orientation="right" tickFormatter={axisMoney} tick={TICK} stroke={COLOURS.axis} width={56} />
        <Tooltip
          labelFormatter={(label) => day(String(label))}
          formatter={(value, name) => [name === 'Cost (USD)' ? money(Number(value)) : count(Number(value)), name]}
        />
        <Bar yAxisId="queries" dataKey="queries" name="Queries" fill={COLOURS.accent} isAnimationActive={ANIMATE} maxBarSize={24} />
        <Line
          yAxisId="cost"
          dataKey="cost"
          name="Cost (USD)"
          type="monotone"
          stroke={COLOURS.cost}
          strokeWidth={2}
          dot={false}
          isAnimationActive={ANIMATE}
        />
      </ComposedChart>
    </ChartFigure>
  );
}
