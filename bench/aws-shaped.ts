import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { startDelayedStore } from './latency-proxy.js';
import { modelReply, naiveQuery, startEverything } from './query-blackbox.js';
import { percentile, type Row } from './report.js';

/**
 * The query as a user on AWS waits for it (issue 34): the black-box query of `query-blackbox.ts`
 * (`npm start` in its own process, server-everything over streamable HTTP, two model calls and one
 * tool call per query) with the store 5 ms away (dynalite in memory behind the latency proxy of
 * `latency-proxy.ts`, `DYNAMODB_ENDPOINT` at the proxy) and each model call answered after 300 ms,
 * next to the naive SDK loop that stores nothing, alternating in the same run. CPU per query: the
 * service process's user + system time (/proc/<pid>/stat) over the measured queries, divided by
 * their number (what the queries started in the background included).
 */

const QUERIES = Number(process.env.BENCH_AWS_QUERIES ?? 100);
const WARM_UP = 5;
const STORE_MS = 5;
const MODEL_MS = 300;

/** User + system CPU of a process so far, in ms. */
async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / clockTicks();
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  return ticksPerSecond;
}

async function setUp() {
  const store = await startDelayedStore(STORE_MS);
  const model = await startFakeModel();
  model.handle((request) => ({ ...modelReply(request), delayMs: MODEL_MS }));
  const everything = await startEverything();
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-aws-shaped-'));
  const service = startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'bench',
    QUERY_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const stop = async () => {
    await service.stop();
    everything.child.kill('SIGTERM');
    await model.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { store, model, everything, service, stop };
}

export async function benchAwsShaped(): Promise<Row[]> {
  const { store, model, everything, service, stop } = await setUp();
  try {
    const url = await service.url;
    const pid = service.child.pid ?? 0;
    const cookie = await signUpOver(url, 'aws-shaped@example.com');
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const workspace = String((await post('/api/workspaces', { name: 'AWS shaped' })).id);
    await post('/api/connectors/mcp', { workspace_id: workspace, name: 'everything', transport: 'http', url: everything.url });
    const serviceMs: number[] = [];
    const naiveMs: number[] = [];
    const differenceMs: number[] = [];
    let cpuBefore = 0;
    let callsBefore = 0;
    for (let run = 0; run < WARM_UP + QUERIES; run += 1) {
      if (run === WARM_UP) {
        cpuBefore = await cpuMsOf(pid);
        callsBefore = store.calls;
      }
      const started = performance.now();
      const json = await post(`/api/workspaces/${workspace}/query`, { query: 'Say hello' });
      const took = performance.now() - started;
      if (json.error) throw new Error(`query failed: ${JSON.stringify(json.error)}`);
      const naive = await naiveQuery(model.url, everything.url);
      if (run < WARM_UP) continue;
      serviceMs.push(took);
      naiveMs.push(naive);
      differenceMs.push(took - naive);
    }
    await store.settle(100);
    const cpuMs = (await cpuMsOf(pid)) - cpuBefore;
    const p50 = (samples: number[]) => percentile(samples, 50);
    const p99 = (samples: number[]) => percentile(samples, 99);
    return [
      {
        setup: `store ${STORE_MS} ms away, model ${MODEL_MS} ms a call, ${QUERIES} queries`,
        query_p50_ms: p50(serviceMs),
        query_p99_ms: p99(serviceMs),
        naive_p50_ms: p50(naiveMs),
        naive_p99_ms: p99(naiveMs),
        added_p50_ms: Math.round((p50(serviceMs) - p50(naiveMs)) * 100) / 100,
        added_p99_ms: Math.round((p99(serviceMs) - p99(naiveMs)) * 100) / 100,
        paired_added_p50_ms: p50(differenceMs),
        cpu_ms_per_query: Math.round((cpuMs / QUERIES) * 100) / 100,
        store_calls_per_query: Math.round(((store.calls - callsBefore) / QUERIES) * 100) / 100,
      },
    ];
  } finally {
    await stop();
  }
}
