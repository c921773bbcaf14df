import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAMBDA_ENTRIES, LOAD_ENV, buildLambdaBundle } from '../lib/bundling.js';
import { cpuMsOf, startAwsShaped } from './aws-shaped-setup.js';
import { naiveQuery } from './query-blackbox.js';
import { percentile, type Row } from './report.js';

/**
 * The agent function at 512, 1 024 and 1 769 MB (issue 35, item 5). Lambda gives a function CPU in
 * proportion to its memory, one vCPU at 1 769 MB; here each size is a Linux CPU cgroup with that
 * share of one CPU (cfs quota), and in it:
 * - the cold start's module load: the agent bundle as deployed, imported in a fresh Node process
 *   (7 runs);
 * - a query's added time: the AWS-shaped query (`aws-shaped.ts`: `npm start` with the store 5 ms
 *   away and the model 300 ms a call) with the service process in the cgroup, next to the naive
 *   loop outside it, and the service's CPU per query.
 * Then the cost per million questions of the function at each size, at list prices (arm64:
 * $0.0000133334 per GB-second, $0.20 per million requests), for the measured query and for a
 * question that waits 5 s for its model.
 *
 * Needs a writable cgroup v1 CPU controller (`/sys/fs/cgroup/cpu`, root); without one it says so
 * and measures nothing.
 */

const SIZES_MB = [512, 1024, 1769];
const QUERIES = Number(process.env.BENCH_MEMORY_QUERIES ?? 40);
const WARM_UP = 5;
const CGROUP_ROOT = '/sys/fs/cgroup/cpu';
const GB_SECOND_USD = 0.0000133334;
const REQUEST_USD = 0.2 / 1e6;

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'node_modules', '.cache', 'memory-bench');

/** Whether this machine lets the benchmarks make CPU cgroups (cgroup v1, root). */
export function cpuCgroupsAvailable(): boolean {
  return (
    existsSync(join(CGROUP_ROOT, 'cgroup.procs')) &&
    spawnSync('sh', ['-c', `mkdir -p ${CGROUP_ROOT}/wap-bench-probe && rmdir ${CGROUP_ROOT}/wap-bench-probe`]).status === 0
  );
}

/** A CPU cgroup named `wap-bench-<name>` with `share` of one CPU (cfs quota); answers its directory. */
export function cpuCgroup(name: string, share: number): string {
  const dir = join(CGROUP_ROOT, `wap-bench-${name}`);
  if (!existsSync(dir)) mkdirSync(dir);
  writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
  writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(share * 100_000)));
  return dir;
}

/** The cgroup of a Lambda size: its share of one CPU. */
const cgroupFor = (memoryMb: number) => cpuCgroup(String(memoryMb), memoryMb / 1769);

/** The time to import the bundle in a fresh Node process inside the cgroup, in ms. */
function loadInCgroup(cgroup: string, file: string): number {
  const script = `globalThis.awslambda={streamifyResponse:(f)=>f,HttpResponseStream:{from:(s)=>s}};const t=performance.now();await import(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t));`;
  const result = spawnSync(
    'sh',
    ['-c', `echo $$ > ${cgroup}/cgroup.procs && exec "$0" --input-type=module -e "$1"`, process.execPath, script],
    {
      env: { PATH: process.env.PATH ?? '', ...LOAD_ENV },
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`loading ${file} failed: ${result.stderr.slice(0, 1000)}`);
  return Number(result.stdout);
}

async function measureQueries(cgroup: string) {
  const { model, everything, pid, ask, stop } = await startAwsShaped('memory', 'floor');
  try {
    writeFileSync(join(cgroup, 'cgroup.procs'), String(pid));
    const serviceMs: number[] = [];
    const differenceMs: number[] = [];
    let cpuBefore = 0;
    for (let run = 0; run < WARM_UP + QUERIES; run += 1) {
      if (run === WARM_UP) cpuBefore = await cpuMsOf(pid);
      const took = await ask();
      const naive = await naiveQuery(model.url, everything.url);
      if (run < WARM_UP) continue;
      serviceMs.push(took);
      differenceMs.push(took - naive);
    }
    return {
      queryP50: percentile(serviceMs, 50),
      addedP50: percentile(differenceMs, 50),
      cpuMs: ((await cpuMsOf(pid)) - cpuBefore) / QUERIES,
    };
  } finally {
    await stop();
  }
}

const usd = (value: number) => Math.round(value * 100) / 100;

export async function benchMemory(): Promise<Row[]> {
  if (!cpuCgroupsAvailable()) {
    return [{ size: 'not measured', reason: `no writable CPU cgroup at ${CGROUP_ROOT} (needs root and cgroup v1)` }];
  }
  mkdirSync(outdir, { recursive: true });
  const bundle = await buildLambdaBundle(join(root, LAMBDA_ENTRIES.agent), join(outdir, 'agent'));
  const rows: Row[] = [];
  for (const memoryMb of SIZES_MB) {
    const cgroup = cgroupFor(memoryMb);
    try {
      const loads = Array.from({ length: 7 }, () => loadInCgroup(cgroup, bundle.entry));
      const queries = await measureQueries(cgroup);
      const gb = memoryMb / 1024;
      const perQuestion = (seconds: number) => (gb * seconds * GB_SECOND_USD + REQUEST_USD) * 1e6;
      rows.push({
        size: `${memoryMb} MB (${Math.round((memoryMb / 1769) * 100)}% of a vCPU)`,
        cold_load_p50_ms: percentile(loads, 50),
        query_p50_ms: queries.queryP50,
        added_p50_ms: queries.addedP50,
        cpu_ms_per_query: Math.round(queries.cpuMs * 10) / 10,
        usd_per_million_measured: usd(perQuestion(queries.queryP50 / 1000)),
        usd_per_million_5s_model: usd(perQuestion(5 + queries.addedP50 / 1000)),
      });
    } finally {
      // Empty now: the processes in it have ended.
      try {
        rmdirSync(cgroup);
      } catch {
        // A process still winding down keeps it; the next run reuses it.
      }
    }
  }
  return rows;
}
