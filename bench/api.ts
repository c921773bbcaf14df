import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { activityEntryKey } from '../shared/workspaces/entities.js';
import type { Table } from '../shared/platform/table.js';
import { recordUsage } from '../shared/workspaces/counters.js';
import { signUpOver } from '../test/support/signup.js';
import { QUIET_LOGGER, percentile, type Row } from './report.js';

async function timeRequests(url: string, cookie: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function seedActivity(table: Table, orgId: string, workspaceId: string, count: number, start: number): Promise<void> {
  const items = Array.from({ length: count }, (_, index) => {
    const created = new Date(Date.UTC(2026, 0, 1) + (start + index) * 1000).toISOString();
    return {
      ...activityEntryKey(orgId, workspaceId, created, String(start + index)),
      id: `act_${start + index}`,
      user_name: 'Bench',
      query: 'How do I reset my password?',
      tools_called: ['search_docs'],
      connections_hit: ['docs'],
      tokens_input: 1200,
      tokens_output: 300,
      cost_usd: 0.0081,
      duration_ms: 900,
      created_at: created,
    };
  });
  for (let index = 0; index < items.length; index += 200) await table.batchPut(items.slice(index, index + 200));
}

/** API read latency on the local runtime (HTTP on loopback, dynalite in memory). */
export async function benchApi(): Promise<Row[]> {
  const config = parseConfig({ DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT' }, 'local');
  const runtime = await startLocalRuntime(config, { logger: QUIET_LOGGER });
  const rows: Row[] = [];
  try {
    const cookie = await signUpOver(runtime.url, 'bench@example.com');
    const { org } = (await (await fetch(`${runtime.url}/api/org`, { headers: { cookie } })).json()) as { org: { id: string } };
    const ids: string[] = [];
    for (let index = 0; index < 100; index += 1) {
      const response = await fetch(`${runtime.url}/api/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: `Workspace ${index}` }),
      });
      ids.push(((await response.json()) as { id: string }).id);
    }
    for (const id of ids) await recordUsage(runtime.deps, org.id, id, { queries: 3, cost_usd: 0.02, duration_ms: 2400 }, new Date());
    const measure = async (label: string, path: string, count = 300) => {
      await timeRequests(`${runtime.url}${path}`, cookie, 30);
      const before = runtime.deps.table.roundTrips;
      const samples = await timeRequests(`${runtime.url}${path}`, cookie, count);
      const trips = (runtime.deps.table.roundTrips - before) / count;
      rows.push({
        benchmark: label,
        n: count,
        p50_ms: percentile(samples, 50),
        p99_ms: percentile(samples, 99),
        store_round_trips: trips,
      });
    };
    await measure('GET /api/workspaces (100 workspaces)', '/api/workspaces');
    await measure('GET /api/workspaces/:id/summary', `/api/workspaces/${ids[0]}/summary`);
    await measure('GET /api/workspaces/:id (detail)', `/api/workspaces/${ids[0]}`);

    const target = ids[1] ?? '';
    await seedActivity(runtime.deps.table, org.id, target, 100, 0);
    await measure('GET activity?limit=50, 100 entries (1x)', `/api/workspaces/${target}/activity?limit=50`);
    await seedActivity(runtime.deps.table, org.id, target, 9_900, 100);
    await measure('GET activity?limit=50, 10 000 entries (100x)', `/api/workspaces/${target}/activity?limit=50`);
  } finally {
    await runtime.stop();
  }
  return rows;
}
