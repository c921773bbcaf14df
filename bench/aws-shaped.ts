import { cpuMsOf, startAwsShaped } from './aws-shaped-setup.js';
import type { DelayMode } from './latency-proxy.js';
import { naiveQuery } from './query-blackbox.js';
import { percentile, type Row } from './report.js';

/**
 * The query as a user on AWS waits for it (issue 34): the black-box query of `query-blackbox.ts`
 * (`npm start` in its own process, server-everything over streamable HTTP, two model calls and one
 * tool call per query) with the store 5 ms away (dynalite in memory behind the latency proxy of
 * `latency-proxy.ts`, `DYNAMODB_ENDPOINT` at the proxy) and each model call answered after 300 ms,
 * next to the naive SDK loop that stores nothing, alternating in the same run. The store is 5 ms
 * away in both of the proxy's modes, alternating query by query: `floor` (each call takes 5 ms,
 * dynalite's own time inside, as DynamoDB's latency holds its own work and it serves a round's
 * calls side by side) is the goal's setup; `request` (5 ms added before dynalite, which serves a
 * round's calls one after the other, about 1 ms each) shows what the fake store adds. CPU per
 * query: the service process's user + system time (/proc/<pid>/stat) over the measured queries,
 * divided by their number (what the queries started in the background included).
 */

const QUERIES = Number(process.env.BENCH_AWS_QUERIES ?? 100);
const WARM_UP = 5;

export async function benchAwsShaped(): Promise<Row[]> {
  const { store, model, everything, pid, ask, stop, settings } = await startAwsShaped('aws-shaped');
  const { STORE_MS, MODEL_MS } = settings;
  try {
    const modes: DelayMode[] = ['floor', 'request'];
    const samples = new Map(
      modes.map((mode) => [mode, { serviceMs: [] as number[], naiveMs: [] as number[], differenceMs: [] as number[] }]),
    );
    let cpuBefore = 0;
    let callsBefore = 0;
    for (let run = 0; run < WARM_UP + QUERIES; run += 1) {
      if (run === WARM_UP) {
        cpuBefore = await cpuMsOf(pid);
        callsBefore = store.calls;
      }
      // Each run asks once with the store as each mode models it, the same question, alternately first.
      for (const mode of run % 2 === 0 ? modes : [...modes].reverse()) {
        store.mode = mode;
        const took = await ask();
        const naive = await naiveQuery(model.url, everything.url);
        const sample = samples.get(mode);
        if (run < WARM_UP || !sample) continue;
        sample.serviceMs.push(took);
        sample.naiveMs.push(naive);
        sample.differenceMs.push(took - naive);
      }
    }
    await store.settle(100);
    const queries = QUERIES * modes.length;
    const cpuMs = (await cpuMsOf(pid)) - cpuBefore;
    const p50 = (values: number[]) => percentile(values, 50);
    const p99 = (values: number[]) => percentile(values, 99);
    const round = (value: number) => Math.round(value * 100) / 100;
    return modes.map((mode) => {
      const { serviceMs, naiveMs, differenceMs } = samples.get(mode) ?? { serviceMs: [], naiveMs: [], differenceMs: [] };
      return {
        setup:
          mode === 'floor'
            ? `store: each call ${STORE_MS} ms (its own time inside); model ${MODEL_MS} ms a call; ${QUERIES} queries`
            : `store: ${STORE_MS} ms added to each call (dynalite serves a round's calls one by one); ${QUERIES} queries`,
        query_p50_ms: p50(serviceMs),
        query_p99_ms: p99(serviceMs),
        naive_p50_ms: p50(naiveMs),
        naive_p99_ms: p99(naiveMs),
        added_p50_ms: round(p50(serviceMs) - p50(naiveMs)),
        added_p99_ms: round(p99(serviceMs) - p99(naiveMs)),
        paired_added_p50_ms: p50(differenceMs),
        // Over both modes: the same queries, so the same CPU.
        cpu_ms_per_query: round(cpuMs / queries),
        store_calls_per_query: round((store.calls - callsBefore) / queries),
      };
    });
  } finally {
    await stop();
  }
}
