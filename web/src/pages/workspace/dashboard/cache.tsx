import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { Schemas } from '../../../api/client';
import { count, percent } from '../../../ui/format';
import { Stats } from '../../../ui/stats';
import { ANIMATE, COLOURS, ChartFigure, EmptyFigure, HiddenTable, TICK } from './figure';
import { day, spanOf } from './usage';

type Dashboard = Schemas['Dashboard'];
type Day = Dashboard['usage']['by_day'][number];
type Rated = Day & { cache_hit_rate: number };

const hasRate = (entry: Day): entry is Rated => entry.cache_hit_rate !== null;

function summaryOf(days: Day[], overall: number | null): string {
  const rated = days.filter(hasRate);
  const best = rated.reduce((top, entry) => (entry.cache_hit_rate > top.cache_hit_rate ? entry : top));
  const worst = rated.reduce((low, entry) => (entry.cache_hit_rate < low.cache_hit_rate ? entry : low));
  const without = days.length - rated.length;
  return (
    `Prompt cache hit rate per day over ${spanOf(days)}, line chart: ${percent(overall)} of input read from the cache ` +
    `over the ${days.length} days; highest ${percent(best.cache_hit_rate)} on ${day(best.date)}, lowest ${percent(worst.cache_hit_rate)} ` +
    `on ${day(worst.date)}` +
    (without ? `; ${count(without)} ${without === 1 ? 'day' : 'days'} without model input.` : '.')
  );
}

/** Each day's share of input read from the prompt cache, as a line over 0–100 % (days without input leave a gap). */
function CacheChart({ days, overall }: { days: Day[]; overall: number | null }) {
  const caption = `Prompt cache hit rate per day, ${spanOf(days)}`;
  if (!days.some(hasRate)) return <EmptyFigure caption={caption}>No model input in {spanOf(days)}.</EmptyFigure>;
  const data = days.map((entry) => ({ date: entry.date, rate: entry.cache_hit_rate === null ? null : entry.cache_hit_rate * 100 }));
  return (
    <ChartFigure
      caption={caption}
      summary={summaryOf(days, overall)}
      note="Share of each day's input tokens read from the cache (a line; no point on days without input)"
      height={220}
      table={
        <HiddenTable
          caption={caption}
          columns={['Day', 'Hit rate']}
          rows={days.map((entry) => [day(entry.date), entry.cache_hit_rate === null ? 'no input' : percent(entry.cache_hit_rate)])}
        />
      }
    >
      <LineChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
        <CartesianGrid vertical={false} stroke={COLOURS.grid} />
        <XAxis dataKey="date" tickFormatter={day} tick={TICK} stroke={COLOURS.axis} minTickGap={16} />
        <YAxis
          domain={[0, 100]}
          ticks={[0, 25, 50, 75, 100]}
          tickFormatter={(value: number) => `${value}%`}
          tick={TICK}
          stroke={COLOURS.axis}
          width={44}
        />
        <Tooltip
          labelFormatter={(label) => day(String(label))}
          formatter={(value) => [`${Math.round(Number(value))}%`, 'Cache hit rate']}
        />
        <Line
          dataKey="rate"
          name="Cache hit rate"
          type="monotone"
          stroke={COLOURS.good}
          strokeWidth={2}
          dot={{ r: 3 }}
          connectNulls={false}
          isAnimationActive={ANIMATE}
        />
      </LineChart>
    </ChartFigure>
  );
}

/**
 * The prompt cache over the days charted: the hit rate (input read from the cache over all
 * input), the tokens read, written and uncached, and the rate day by day.
 */
export function CacheFigures({ cache, days }: { cache: Dashboard['cache']; days: Day[] }) {
  return (
    <>
      <Stats
        label={`Prompt cache, ${spanOf(days)}`}
        items={[
          ['Cache hit rate', percent(cache.hit_rate)],
          ['Input read from cache', `${count(cache.read_tokens)} tokens`],
          ['Input written to cache', `${count(cache.write_tokens)} tokens`],
          ['Uncached input', `${count(cache.input_tokens)} tokens`],
        ]}
      />
      <CacheChart days={days} overall={cache.hit_rate} />
    </>
  );
}
