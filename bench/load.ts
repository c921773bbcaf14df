import { startChild, type BenchChild } from './child.js';
import { signUpOver } from '../test/support/signup.js';
import { benchEnv, percentile, type Row } from './report.js';

const CLIENTS = 64;
const RUN_MS = 30_000;
/** Runs of RUN_MS; `BENCH_LOAD_RUNS` asks for more (a longer look at memory). */
const RUNS = Math.max(1, Math.floor(Number(process.env.BENCH_LOAD_RUNS) || 3));
const WARMUP_MS = 5_000;
/** Each route alone, after the mixed runs: what one request of it costs the service in CPU. */
const ALONE_MS = 10_000;
const WORKSPACES = 20;
const REQUEST_TIMEOUT_MS = 10_000;
const ERRORS_SHOWN = 5;

type Route = 'list' | 'detail' | 'query';
const ROUTES: { route: Route; label: string; share: number }[] = [
  { route: 'list', label: 'GET /api/workspaces', share: 0.4 },
  { route: 'detail', label: 'GET /api/workspaces/:id', share: 0.3 },
  { route: 'query', label: 'POST /api/workspaces/:id/query', share: 0.3 },
];

interface RunResult {
  latencies: Record<Route, number[]>;
  errors: Record<Route, number>;
  elapsedMs: number;
}

interface ErrorSample {
  route: Route;
  status: string;
  body: string;
}

function pickRoute(only?: Route): Route {
  if (only) return only;
  const roll = Math.random();
  let sum = 0;
  for (const { route, share } of ROUTES) {
    sum += share;
    if (roll < sum) return route;
  }
  return 'query';
}

/**
 * Load on the local runtime: 64 concurrent clients on loopback for three consecutive 30 s runs, on a
 * mix of workspace list (40%), workspace detail (30%) and queries through the agent loop (30%:
 * zero-latency fake model, one tool call to an MCP server). Three processes: the service (the local
 * runtime, measured), its dependencies (store, fake model, MCP server) and this one (the clients).
 */
export async function benchLoad(): Promise<Row[]> {
  const children: BenchChild[] = [];
  const rows: Row[] = [];
  const errorSamples: ErrorSample[] = [];
  try {
    const fixtures = await startChild('bench/load-fixtures.ts', {});
    children.push(fixtures);
    const { store, model, mcp } = fixtures.ready as { store: string; model: string; mcp: string };
    // Diagnostics: BENCH_CPU_PROFILE=<dir> profiles the service process (written when it stops);
    // BENCH_HEAP_SNAPSHOTS=1 writes a heap snapshot of it at each memory reading.
    const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
    const service = await startChild('bench/load-service.ts', benchEnv(model, { DYNAMODB_ENDPOINT: store }), profile);
    children.push(service);
    const base = String(service.ready.url);

    const cookie = await signUpOver(base, 'bench-load@example.com');
    const ids: string[] = [];
    for (let index = 0; index < WORKSPACES; index += 1) {
      const response = await fetch(`${base}/api/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: `Load ${index}` }),
      });
      const json = (await response.json()) as { id?: string };
      if (response.status !== 201 || !json.id) throw new Error(`create workspace answered ${response.status}: ${JSON.stringify(json)}`);
      ids.push(json.id);
    }
    const queried = ids[0] ?? '';
    const connect = await fetch(`${base}/api/connectors/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ workspace_id: queried, name: 'docs', url: mcp }),
    });
    if (connect.status >= 300) throw new Error(`connect MCP server answered ${connect.status}: ${await connect.text()}`);
    await connect.arrayBuffer();

    let sequence = 0;
    // Each query starts a new conversation (no session_id): a reused one would grow its history,
    // and with it each query's work, from run to run.
    const request = async (route: Route): Promise<void> => {
      sequence += 1;
      const n = sequence;
      let url: string;
      let init: RequestInit;
      if (route === 'list') {
        url = `${base}/api/workspaces`;
        init = { headers: { cookie } };
      } else if (route === 'detail') {
        url = `${base}/api/workspaces/${ids[Math.floor(Math.random() * ids.length)]}`;
        init = { headers: { cookie } };
      } else {
        url = `${base}/api/workspaces/${queried}/query`;
        init = {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ query: `How do I reset my password? (${n})` }),
        };
      }
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const body = await response.text();
      if (response.status !== 200) throw Object.assign(new Error(body), { status: String(response.status) });
      if (route === 'query') {
        const json = JSON.parse(body) as { error?: string | null };
        if (json.error !== null) throw Object.assign(new Error(body), { status: '200 (error in answer)' });
      }
    };

    /** 64 clients, each looping until the deadline; a request in flight at the deadline is still counted. */
    const run = async (durationMs: number, only?: Route): Promise<RunResult> => {
      const result: RunResult = { latencies: { list: [], detail: [], query: [] }, errors: { list: 0, detail: 0, query: 0 }, elapsedMs: 0 };
      const started = performance.now();
      const deadline = started + durationMs;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (performance.now() < deadline) {
            const route = pickRoute(only);
            const begun = performance.now();
            try {
              await request(route);
              result.latencies[route].push(performance.now() - begun);
            } catch (error) {
              result.errors[route] += 1;
              if (errorSamples.length < ERRORS_SHOWN) {
                const status =
                  (error as { status?: string }).status ??
                  (error instanceof Error ? `${error.name}${'cause' in error && error.cause ? ` (${String(error.cause)})` : ''}` : 'error');
                errorSamples.push({ route, status, body: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
              }
            }
          }
        }),
      );
      result.elapsedMs = performance.now() - started;
      return result;
    };

    /** The service process's memory after a forced full GC there. */
    const memory = async () => {
      const reply = await service.ask('memory');
      if (process.env.BENCH_HEAP_SNAPSHOTS) console.log('heap snapshot:', (await service.ask('snapshot')).file);
      return { heap_mb: Number(reply.heap_mb), rss_mb: Number(reply.rss_mb) };
    };
    const blank = { requests: '', req_per_s: '', p50_ms: '', p99_ms: '', errors: '', cpu_ms_per_req: '', req_per_cpu_s: '' };
    /** The service's CPU time (user + system, all its threads) spent on `work`, in ms. */
    const cpuOf = async <T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> => {
      const before = Number((await service.ask('cpu')).cpu_ms);
      const result = await work();
      return { result, cpuMs: Number((await service.ask('cpu')).cpu_ms) - before };
    };
    /** A row of figures for `samples` (latencies) and `errors` over `seconds`, with the CPU they cost. */
    const figures = (samples: number[], errors: number, seconds: number, cpuMs?: number) => ({
      requests: samples.length + errors,
      req_per_s: (samples.length + errors) / seconds,
      p50_ms: percentile(samples, 50),
      p99_ms: percentile(samples, 99),
      errors,
      cpu_ms_per_req: cpuMs === undefined ? '' : cpuMs / Math.max(1, samples.length + errors),
      req_per_cpu_s: cpuMs === undefined ? '' : ((samples.length + errors) * 1000) / Math.max(1, cpuMs),
    });

    rows.push({ run: 'setup', route: 'after setup (no load yet)', ...blank, ...(await memory()) });
    const warmup = await run(WARMUP_MS);
    const warmupErrors = Object.values(warmup.errors).reduce((sum, count) => sum + count, 0);
    rows.push({ run: 'warm-up', route: `${WARMUP_MS / 1000} s, before run 1`, ...blank, errors: warmupErrors, ...(await memory()) });

    for (let index = 1; index <= RUNS; index += 1) {
      const { result, cpuMs } = await cpuOf(() => run(RUN_MS));
      const seconds = result.elapsedMs / 1000;
      for (const { route, label } of ROUTES) {
        rows.push({
          run: index,
          route: label,
          ...figures(result.latencies[route], result.errors[route], seconds),
          heap_mb: '',
          rss_mb: '',
        });
      }
      const all = ROUTES.flatMap(({ route }) => result.latencies[route]);
      const errors = ROUTES.reduce((sum, { route }) => sum + result.errors[route], 0);
      rows.push({
        run: index,
        route: `all (${CLIENTS} clients, ${Math.round(seconds)} s)`,
        ...figures(all, errors, seconds, cpuMs),
        ...(await memory()),
      });
    }
    for (const { route, label } of ROUTES) {
      const { result, cpuMs } = await cpuOf(() => run(ALONE_MS, route));
      const seconds = result.elapsedMs / 1000;
      rows.push({
        run: 'alone',
        route: label,
        ...figures(result.latencies[route], result.errors[route], seconds, cpuMs),
        heap_mb: '',
        rss_mb: '',
      });
    }
  } finally {
    // The service first: it stops its MCP sessions and store client before their servers go.
    for (const child of children.reverse()) await child.stop();
  }
  if (errorSamples.length) {
    console.log(`\nfirst ${errorSamples.length} error(s) under load:`);
    for (const sample of errorSamples) console.log(`  ${sample.route}: ${sample.status}: ${sample.body}`);
  }
  return rows;
}
