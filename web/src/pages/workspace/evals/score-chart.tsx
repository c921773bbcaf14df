import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { count, percent } from '../../../ui/format';
import { ANIMATE, COLOURS, ChartFigure, EmptyFigure, HiddenTable, TICK } from '../dashboard/figure';
import { type RunSummary, runTime } from './shared';

/** Runs charted at most: the newest ones. */
const MAX_RUNS = 30;

type Scored = RunSummary & { score: number };

const tickFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

const casesPassed = (run: Scored) => `${count(run.passed)} of ${count(run.passed + run.failed)} cases passed`;

function summaryOf(runs: Scored[]): string {
  const latest = runs.at(-1) as Scored;
  const head = `Score of the last ${runs.length === 1 ? 'finished run' : `${runs.length} finished runs`}, line chart: `;
  const last = `${runs.length === 1 ? '' : 'latest '}${percent(latest.score)} (${casesPassed(latest)}) on ${runTime(latest)}`;
  if (runs.length === 1) return `${head}${last}.`;
  const best = runs.reduce((top, run) => (run.score > top.score ? run : top));
  const worst = runs.reduce((low, run) => (run.score < low.score ? run : low));
  return `${head}${last}; highest ${percent(best.score)} on ${runTime(best)}, lowest ${percent(worst.score)} on ${runTime(worst)}.`;
}

/** The score of each finished run, oldest to newest, as a line over 0–100 %; named with its numbers, its table hidden. */
export function ScoreChart({ runs }: { runs: RunSummary[] }) {
  const scored = runs
    .filter((run): run is Scored => run.score !== null)
    .slice(0, MAX_RUNS)
    .reverse();
  const caption = 'Score of each finished run';
  if (scored.length === 0)
    return <EmptyFigure caption={caption}>No finished runs yet: a run’s score shows here once it is done.</EmptyFigure>;
  const labels = new Map(scored.map((run) => [run.id, run.started_at ? tickFormat.format(new Date(run.started_at)) : run.id]));
  const data = scored.map((run) => ({ id: run.id, score: Math.round(run.score * 1000) / 10 }));
  return (
    <ChartFigure
      caption={caption}
      summary={summaryOf(scored)}
      note="Share of the cases that passed, per run (a line, oldest run on the left)"
      height={220}
      table={
        <HiddenTable
          caption={caption}
          columns={['Run', 'Score', 'Passed', 'Failed', 'Regressions']}
          rows={scored.map((run) => [
            runTime(run),
            percent(run.score),
            count(run.passed),
            count(run.failed),
            count(run.regressions.length),
          ])}
        />
      }
    >
      <LineChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
        <CartesianGrid vertical={false} stroke={COLOURS.grid} />
        <XAxis dataKey="id" tickFormatter={(id: string) => labels.get(id) ?? id} tick={TICK} stroke={COLOURS.axis} minTickGap={16} />
        <YAxis
          domain={[0, 100]}
          ticks={[0, 25, 50, 75, 100]}
          tickFormatter={(value: number) => `${value}%`}
          tick={TICK}
          stroke={COLOURS.axis}
          width={44}
        />
        <Tooltip labelFormatter={(id) => labels.get(String(id)) ?? String(id)} formatter={(value) => [`${Number(value)}%`, 'Score']} />
        <Line
          dataKey="score"
          name="Score"
          type="monotone"
          stroke={COLOURS.accent}
          strokeWidth={2}
          dot={{ r: 4 }}
          isAnimationActive={ANIMATE}
        />
      </LineChart>
    </ChartFigure>
  );
}
