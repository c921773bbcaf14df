import { rmdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cpuMsOf, startAwsShaped } from './aws-shaped-setup.js';
import { cpuCgroup, cpuCgroupsAvailable } from './memory.js';
import { modelReply } from './query-blackbox.js';
import { percentile, type Row } from './report.js';

/**
 * How many model waits one process holds (issue 35, item 5). The agent service on Fargate is the
 * app on a Node server, as `npm start` is: here `npm start` in the AWS-shaped setup (store 5 ms
 * away, server-everything over streamable HTTP, one tool call and two model calls per query), in a
 * CPU cgroup of one CPU (the default task's 1 vCPU) when the machine allows one, with the model
 * answering each call after 2 s. For each level N, queries arrive evenly for 12 s at the rate that
 * keeps N in flight (N / the duration of one query alone): how many were answered, their duration
 * once the process is full (against one query alone), the process's CPU per query and its resident
 * memory at the peak. `harness_busy`: the share of the wave the benchmark's own thread was
 * busy (the store, the latency proxy, the fake model and the clients all run on it): near 1, the
 * harness, not the service, sets the pace.
 */

const MODEL_MS = 2000;
const TARGETS = (process.env.BENCH_IN_FLIGHT ?? '50,100,200,300').split(',').map(Number);
/** How long each level sends queries, in s (then waits for the last to end). */
const RUN_S = Number(process.env.BENCH_IN_FLIGHT_SECONDS ?? 12);
const ALONE = 5;

/** The resident memory of a process now, in MB (/proc/<pid>/status). */
async function rssMbOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export async function benchInFlight(): Promise<Row[]> {
  const limits = {
    MAX_QUERIES_IN_FLIGHT: '5000',
    MAX_QUERIES_IN_FLIGHT_PER_ORG: '5000',
    ...JSON.parse(process.env.BENCH_IN_FLIGHT_ENV ?? '{}'),
  };
  const { model, pid, ask, stop } = await startAwsShaped('in-flight', 'floor', limits);
  const cgroup = cpuCgroupsAvailable() ? cpuCgroup('in-flight', 1) : undefined;
  try {
    if (cgroup) writeFileSync(join(cgroup, 'cgroup.procs'), String(pid));
    model.handle((request) => ({ ...modelReply(request), delayMs: MODEL_MS }));
    await ask(); // warm: the MCP session, the model client
    const alone: number[] = [];
    for (let run = 0; run < ALONE; run += 1) alone.push(await ask());
    const aloneP50 = percentile(alone, 50);
    const rows: Row[] = [
      {
        in_flight: 1,
        questions_per_s: '-',
        answered: `${ALONE}/${ALONE}`,
        p50_ms: aloneP50,
        p99_ms: Math.round(Math.max(...alone)),
        added_p50_ms: 0,
        cpu_ms_per_query: '-',
        rss_peak_mb: await rssMbOf(pid),
        cpu: cgroup ? '1 CPU (cgroup)' : 'unlimited (no cgroup)',
        harness_busy: '-',
      },
    ];
    for (const target of TARGETS) {
      // Arrivals spread evenly at the rate that keeps `target` queries in flight (Little's law).
      const perSecond = target / (aloneP50 / 1000);
      const count = Math.round(perSecond * RUN_S);
      const cpuBefore = await cpuMsOf(pid);
      const harnessBefore = process.cpuUsage();
      const started = performance.now();
      let peak = 0;
      let inFlight = 0;
      let mostInFlight = 0;
      const sampler = setInterval(() => {
        void rssMbOf(pid).then((mb) => {
          peak = Math.max(peak, mb);
        });
      }, 100);
      const asked: Promise<number>[] = [];
      for (let index = 0; index < count; index += 1) {
        const due = started + (index * 1000) / perSecond;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        asked.push(
          ask().finally(() => {
            inFlight -= 1;
          }),
        );
      }
      const results = await Promise.allSettled(asked);
      clearInterval(sampler);
      const harness = process.cpuUsage(harnessBefore);
      const wallMs = performance.now() - started;
      // The first query's worth of arrivals fills the process up: measured from then on.
      const filling = Math.round(perSecond * (aloneP50 / 1000));
      const steady = results.length > filling ? results.slice(filling) : results;
      const took = steady.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const answered = results.filter((result) => result.status === 'fulfilled').length;
      const p50 = took.length ? percentile(took, 50) : 0;
      rows.push({
        in_flight: `${target} (most ${mostInFlight})`,
        questions_per_s: Math.round(perSecond * 10) / 10,
        answered: `${answered}/${count}`,
        p50_ms: p50,
        p99_ms: took.length ? percentile(took, 99) : 0,
        added_p50_ms: Math.round(p50 - aloneP50),
        cpu_ms_per_query: Math.round(((await cpuMsOf(pid)) - cpuBefore) / count),
        rss_peak_mb: peak,
        cpu: cgroup ? '1 CPU (cgroup)' : 'unlimited (no cgroup)',
        harness_busy: Math.round(((harness.user + harness.system) / 1000 / wallMs) * 100) / 100,
      });
    }
    return rows;
  } finally {
    await stop();
    if (cgroup) {
      try {
        rmdirSync(cgroup);
      } catch {
        // Still in use for a moment after the process ended: left for the next run to reuse.
      }
    }
  }
}
