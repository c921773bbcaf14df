import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpMcpServer, type TestTool } from '../test/support/mcp-servers.js';
import { consentThroughApi, MemoryOAuthClient } from '../test/support/mcp-oauth.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { startDelayedStore } from './latency-proxy.js';
import { percentile, type Row } from './report.js';
import { LIMITS_OUT_OF_THE_WAY, poster } from './service-client.js';

/*
 * The MCP gateway as an MCP client meets it (issue 48), AWS-shaped: `npm start` in its own process,
 * its store 5 ms away (dynalite behind the latency proxy, each call 5 ms with dynalite's own time
 * inside), the upstream tool server answering each call after 50 ms. A person signed in through
 * the gateway's OAuth flow (the MCP SDK's own client) calls the upstream's tool through the
 * gateway, alternating with the same call made to the upstream directly: what the gateway adds,
 * p50 and p99 (paired), and the store calls made before the upstream saw the call. Then a
 * workspace of 300 tools: how many tools/list answers once tool search applies.
 */

const CALLS = Number(process.env.BENCH_GATEWAY_CALLS ?? 200);
const WARM_UP = 10;
const STORE_MS = 5;
const UPSTREAM_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connect(url: string, authProvider?: MemoryOAuthClient): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), authProvider ? { authProvider } : {}));
  return client;
}

/** A person of `base` signed in to the workspace's MCP endpoint: the SDK client's OAuth flow, consent through the console's API. */
async function signedIn(base: string, cookie: string, mcpUrl: string): Promise<MemoryOAuthClient> {
  const client = new MemoryOAuthClient('http://127.0.0.1:33418/callback', 'Bench client');
  if ((await auth(client, { serverUrl: mcpUrl })) !== 'REDIRECT') throw new Error('expected to be sent to sign in');
  const callback = await consentThroughApi(base, client.authorizationUrl as URL, cookie);
  await auth(client, { serverUrl: mcpUrl, authorizationCode: callback.searchParams.get('code') ?? '' });
  return client;
}

function manyTools(count: number): TestTool[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${String(index).padStart(3, '0')}`,
    description: `Tool number ${index}: looks up record kind ${index % 17} in system ${index % 23}`,
    annotations: { readOnlyHint: true },
    run: () => `tool ${index}`,
  }));
}

export async function benchGateway(): Promise<Row[]> {
  const store = await startDelayedStore(STORE_MS, 'floor');
  let storeCallsAtUpstream = 0;
  const upstream = await startHttpMcpServer({
    name: 'upstream',
    tools: [
      {
        name: 'lookup',
        description: 'Looks a record up',
        annotations: { readOnlyHint: true },
        run: async () => {
          storeCallsAtUpstream = store.calls;
          await sleep(UPSTREAM_MS);
          return 'found';
        },
      },
    ],
  });
  const large = await startHttpMcpServer({ name: 'large', tools: manyTools(300) });
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-gateway-'));
  const service = startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    ANTHROPIC_API_KEY: 'bench',
    ...LIMITS_OUT_OF_THE_WAY,
  });
  const clients: Client[] = [];
  try {
    const base = await service.url;
    const cookie = await signUpOver(base, 'gateway@example.com');
    const post = poster(base, cookie);
    const workspace = String((await post('/api/workspaces', { name: 'Gateway' })).json.id);
    await post('/api/connectors/mcp', { workspace_id: workspace, name: 'upstream', transport: 'http', url: upstream.url });
    const mcpUrl = `${base}/api/workspaces/${workspace}/mcp`;
    const gateway = await connect(mcpUrl, await signedIn(base, cookie, mcpUrl));
    const direct = await connect(upstream.url);
    clients.push(gateway, direct);

    const viaGateway: number[] = [];
    const viaDirect: number[] = [];
    const added: number[] = [];
    const storeCallsBefore: number[] = [];
    for (let run = 0; run < WARM_UP + CALLS; run += 1) {
      await store.settle(20);
      const callsAtStart = store.calls;
      let started = performance.now();
      await gateway.callTool({ name: 'lookup', arguments: {} });
      const gatewayMs = performance.now() - started;
      const before = storeCallsAtUpstream - callsAtStart;
      started = performance.now();
      await direct.callTool({ name: 'lookup', arguments: {} });
      const directMs = performance.now() - started;
      if (run < WARM_UP) continue;
      viaGateway.push(gatewayMs);
      viaDirect.push(directMs);
      added.push(gatewayMs - directMs);
      storeCallsBefore.push(before);
    }

    const largeWorkspace = String((await post('/api/workspaces', { name: 'Gateway large' })).json.id);
    await post('/api/connectors/mcp', { workspace_id: largeWorkspace, name: 'large', transport: 'http', url: large.url });
    const largeUrl = `${base}/api/workspaces/${largeWorkspace}/mcp`;
    const listing = await connect(largeUrl, await signedIn(base, cookie, largeUrl));
    clients.push(listing);
    const listed = (await listing.listTools()).tools.map((tool) => tool.name);

    const round = (value: number) => Math.round(value * 100) / 100;
    return [
      {
        setup: `store: each call ${STORE_MS} ms; upstream ${UPSTREAM_MS} ms a call; ${CALLS} calls each way, alternating`,
        gateway_p50_ms: round(percentile(viaGateway, 50)),
        gateway_p99_ms: round(percentile(viaGateway, 99)),
        direct_p50_ms: round(percentile(viaDirect, 50)),
        direct_p99_ms: round(percentile(viaDirect, 99)),
        added_p50_ms: round(percentile(added, 50)),
        added_p99_ms: round(percentile(added, 99)),
        store_calls_before_upstream_p50: percentile(storeCallsBefore, 50),
        store_calls_before_upstream_max: Math.max(...storeCallsBefore),
        tools_listed_of_300: listed.length,
        listed: listed.join(' '),
      },
    ];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await service.stop();
    await upstream.stop();
    await large.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
