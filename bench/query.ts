import { startLocalRuntime, type LocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startHttpMcpServer } from '../test/support/mcp-servers.js';
import { signUpOver } from '../test/support/signup.js';
import { QUIET_LOGGER, benchEnv, percentileOf, type Row } from './report.js';

interface Sample {
  overheadMs: number;
  totalMs: number;
  roundTrips: number;
  sessionsOpened: number;
  toolLists: number;
}

function timingOf(header: string | null, name: string): number {
  return Number(new RegExp(`${name};dur=([\\d.]+)`).exec(header ?? '')?.[1] ?? Number.NaN);
}

async function post(runtime: LocalRuntime, path: string, cookie: string, body: unknown) {
  const response = await fetch(`${runtime.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return { json, headers: response.headers };
}

/**
 * The query hot path on the local runtime, against a zero-latency fake model on loopback and MCP
 * servers in the same process. Each query is two model calls and one tool call; the overhead is
 * the service's own time (Server-Timing: total minus model and tool time).
 */
export async function benchQuery(): Promise<Row[]> {
  const model = await startFakeModel();
  // Call the first connection's tool, then answer once its result is back.
  model.handle((request: ModelRequestRecord) => {
    const last = request.body.messages.at(-1)?.content;
    const hasResult = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
    return hasResult ? textReply('Here is what I found.') : toolUseReply([{ name: 'search_0', input: { query: 'reset' } }]);
  });
  const servers = await Promise.all(
    Array.from({ length: 5 }, (_, index) =>
      startHttpMcpServer({
        name: `bench-${index}`,
        tools: [{ name: `search_${index}`, annotations: { readOnlyHint: true }, run: (args) => `results for ${String(args.query)}` }],
      }),
    ),
  );
  const config = parseConfig(benchEnv(model.url), 'local');
  const runtime = await startLocalRuntime(config, { logger: QUIET_LOGGER });
  const rows: Row[] = [];
  try {
    const cookie = await signUpOver(runtime.url, 'bench-query@example.com');

    const workspaceWith = async (count: number) => {
      const { json } = await post(runtime, '/api/workspaces', cookie, { name: `Bench ${count} connections` });
      const workspaceId = String(json.id);
      const connectionIds: string[] = [];
      for (let index = 0; index < count; index += 1) {
        const saved = await post(runtime, '/api/connectors/mcp', cookie, {
          workspace_id: workspaceId,
          name: `tools-${index}`,
          url: servers[index]?.url,
        });
        connectionIds.push(String(saved.json.id));
      }
      return { workspaceId, connectionIds };
    };

    const measure = async (workspaceId: string, count: number, before?: () => Promise<void>): Promise<Sample[]> => {
      const samples: Sample[] = [];
      for (let index = 0; index < count; index += 1) {
        await before?.();
        const trips = runtime.deps.table.roundTrips;
        const { sessionsOpened, toolLists } = runtime.deps.mcp.stats;
        const { json, headers } = await post(runtime, `/api/workspaces/${workspaceId}/query`, cookie, {
          query: `How do I reset my password? (${index})`,
        });
        if (json.error) throw new Error(`query failed: ${String(json.error)}`);
        const timing = headers.get('server-timing');
        samples.push({
          overheadMs: timingOf(timing, 'overhead'),
          totalMs: timingOf(timing, 'total'),
          roundTrips: runtime.deps.table.roundTrips - trips,
          sessionsOpened: runtime.deps.mcp.stats.sessionsOpened - sessionsOpened,
          toolLists: runtime.deps.mcp.stats.toolLists - toolLists,
        });
      }
      return samples;
    };

    const row = (label: string, samples: Sample[]): Row => ({
      benchmark: label,
      n: samples.length,
      overhead_p50_ms: percentileOf(samples, (s) => s.overheadMs, 50),
      overhead_p99_ms: percentileOf(samples, (s) => s.overheadMs, 99),
      total_p50_ms: percentileOf(samples, (s) => s.totalMs, 50),
      store_round_trips_p50: percentileOf(samples, (s) => s.roundTrips, 50),
      store_round_trips_max: Math.max(...samples.map((s) => s.roundTrips)),
      new_mcp_sessions: samples.reduce((sum, s) => sum + s.sessionsOpened, 0),
      tools_list_calls: samples.reduce((sum, s) => sum + s.toolLists, 0),
    });

    for (const connections of [1, 3, 5]) {
      const { workspaceId, connectionIds } = await workspaceWith(connections);
      await measure(workspaceId, 20); // warm up: sessions opened, JIT warm
      const warm = await measure(workspaceId, connections === 1 ? 400 : 150);
      rows.push(row(`warm query, ${connections} connection${connections === 1 ? '' : 's'}`, warm));
      // Cold: every live session dropped before each query, so each query connects to all servers.
      const cold = await measure(workspaceId, 30, async () => {
        await Promise.all(connectionIds.map((id) => runtime.deps.mcp.drop(id)));
      });
      rows.push(row(`cold query (connects), ${connections} connection${connections === 1 ? '' : 's'}`, cold));
    }
  } finally {
    await runtime.stop();
    await Promise.all([model.stop(), ...servers.map((server) => server.stop())]);
  }
  return rows;
}
