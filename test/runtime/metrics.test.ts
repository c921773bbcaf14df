import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { FAST_SCRYPT } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { RecordingLogger } from '../support/logger.js';
import { signUpOver } from '../support/signup.js';

const TOKEN = 'metrics-token-of-the-operator-0123456789';

let model: FakeModel;
let runtime: LocalRuntime;
let withoutToken: LocalRuntime;

function startRuntime(env: Record<string, string>): Promise<LocalRuntime> {
  const config = parseConfig(
    { DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT', ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', ...env },
    'local',
  );
  return startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
}

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('Order 42 has shipped.', { input_tokens: 1200, output_tokens: 64 }));
  [runtime, withoutToken] = await Promise.all([startRuntime({ METRICS_TOKEN: TOKEN }), startRuntime({})]);
});
afterAll(async () => {
  await Promise.all([runtime?.stop(), withoutToken?.stop()]);
  await model.stop();
});

function scrape(target: LocalRuntime, authorization?: string) {
  return fetch(`${target.url}/metrics`, { headers: authorization ? { authorization } : {} });
}

/** The value of one sample line (`name{labels} value`) of the exposition, if it is there. */
function sampleOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The `workspace` label of a workspace: `<organisation id>/<workspace id>`. */
async function workspaceLabelOf(cookie: string, workspaceId: string): Promise<string> {
  const { org } = (await (await fetch(`${runtime.url}/api/org`, { headers: { cookie } })).json()) as { org: { id: string } };
  expect(org.id).toMatch(/^org_/);
  return `${org.id}/${workspaceId}`;
}

describe('GET /metrics on the local runtime', () => {
  it('shows a workspace’s queries, tokens, cost and duration after a query, JSON and streamed, to the bearer of METRICS_TOKEN', async () => {
    const cookie = await signUpOver(runtime.url, 'metrics-admin@example.com', 'Metrics admin');
    const created = await fetch(`${runtime.url}/api/workspaces`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Metered' }),
    });
    const workspace = ((await created.json()) as { id: string }).id;
    const asked = await fetch(`${runtime.url}/api/workspaces/${workspace}/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Where is order 42?' }),
    });
    expect(asked.status).toBe(200);
    const answer = (await asked.json()) as {
      tokens: { input: number; output: number; cache_read: number; cache_write: number };
      cost_usd: number;
      error: string | null;
    };
    expect(answer.error).toBeNull();
    expect(answer.tokens).toEqual({ input: 1200, output: 64, cache_read: 0, cache_write: 0 });

    const scraped = await scrape(runtime, `Bearer ${TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(scraped.headers.get('cache-control')).toBe('no-store');
    const text = await scraped.text();
    // The label names the organisation too: workspace ids are unique within one only.
    const label = await workspaceLabelOf(cookie, workspace);
    const labels = `{workspace="${label}"}`;
    expect(text).toContain('# TYPE wap_queries_total counter');
    expect(sampleOf(text, `wap_queries_total${labels}`)).toBe(1);
    expect(sampleOf(text, `wap_query_errors_total${labels}`)).toBe(0);
    expect(sampleOf(text, `wap_input_tokens_total${labels}`)).toBe(1200);
    // The reply reported no prompt cache use: its cache counters are there, at 0.
    expect(sampleOf(text, `wap_cache_read_tokens_total${labels}`)).toBe(0);
    expect(sampleOf(text, `wap_cache_write_tokens_total${labels}`)).toBe(0);
    expect(sampleOf(text, `wap_output_tokens_total${labels}`)).toBe(64);
    expect(sampleOf(text, `wap_cost_usd_total${labels}`)).toBeCloseTo(answer.cost_usd, 10);
    expect(answer.cost_usd).toBeGreaterThan(0);
    expect(sampleOf(text, `wap_tool_calls_total${labels}`)).toBe(0);
    expect(sampleOf(text, `wap_query_duration_seconds_count${labels}`)).toBe(1);

    // The same question streamed (SSE) is counted the same way.
    const streamed = await fetch(`${runtime.url}/api/workspaces/${workspace}/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'And order 43?' }),
    });
    expect(await streamed.text()).toContain('event: done');
    await vi.waitFor(
      async () => {
        const again = await (await scrape(runtime, `Bearer ${TOKEN}`)).text();
        expect(sampleOf(again, `wap_queries_total${labels}`)).toBe(2);
        expect(sampleOf(again, `wap_input_tokens_total${labels}`)).toBe(2400);
        expect(sampleOf(again, `wap_query_duration_seconds_count${labels}`)).toBe(2);
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('counts approvals requested and decided, and the paused query once, with its tool calls when it ends', async () => {
    const cookie = await signUpOver(runtime.url, 'metrics-approver@example.com', 'Metrics approver');
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${runtime.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const workspace = String((await call('POST', '/api/workspaces', { name: 'Refunds' })).body.id);
    const connected = await call('POST', '/api/connectors/mcp', {
      workspace_id: workspace,
      name: 'orders',
      transport: 'stdio',
      command: 'node',
      args: ['servers/orders-mcp-server.mjs'],
    });
    expect(connected.status).toBe(201);
    const approval = { mode: 'patterns', patterns: ['refund_order'], approvers: 'admins', expires_minutes: 60 };
    expect((await call('PUT', `/api/workspaces/${workspace}`, { approval })).status).toBe(200);

    model.reply(
      toolUseReply([
        { name: 'lookup_order', input: { order_id: '42' } },
        { name: 'refund_order', input: { order_id: '42' } },
      ]),
      textReply('I did not refund order 42.'),
    );
    const asked = await call('POST', `/api/workspaces/${workspace}/query`, { query: 'Refund order 42' });
    expect(asked.body.pending_approval).toMatchObject({ tool: 'refund_order' });
    // The label names the organisation too: workspace ids are unique within one only.
    const label = await workspaceLabelOf(cookie, workspace);
    const labels = `{workspace="${label}"}`;
    const paused = await (await scrape(runtime, `Bearer ${TOKEN}`)).text();
    expect(sampleOf(paused, `wap_approvals_total{workspace="${label}",outcome="requested"}`)).toBe(1);
    expect(sampleOf(paused, `wap_queries_total${labels}`)).toBe(1);
    // Not ended yet: its duration and tool calls come when it does.
    expect(sampleOf(paused, `wap_query_duration_seconds_count${labels}`)).toBeUndefined();

    const denied = await call('POST', `/api/workspaces/${workspace}/approvals/${asked.body.pending_approval.id}`, {
      decision: 'deny',
      reason: 'not today',
    });
    expect(denied.status).toBe(200);
    const ended = await (await scrape(runtime, `Bearer ${TOKEN}`)).text();
    expect(sampleOf(ended, `wap_approvals_total{workspace="${label}",outcome="denied"}`)).toBe(1);
    expect(sampleOf(ended, `wap_queries_total${labels}`)).toBe(1);
    expect(sampleOf(ended, `wap_tool_calls_total${labels}`)).toBe(1); // the lookup; the refund did not run
    expect(sampleOf(ended, `wap_query_duration_seconds_count${labels}`)).toBe(1);
    expect(sampleOf(ended, `wap_input_tokens_total${labels}`)).toBe(200); // both model calls, 100 each
  });

  it('answers 401 without the token, with a wrong one, or with another scheme; a session is not enough', async () => {
    const cookie = await signUpOver(runtime.url, 'metrics-tenant@example.com', 'A tenant admin');
    for (const authorization of [undefined, 'Bearer not-the-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const response = await scrape(runtime, authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await response.json()).toEqual({ error: 'a valid metrics token is required' });
    }
    // An admin of an organisation is a tenant, not the operator.
    const asTenant = await fetch(`${runtime.url}/metrics`, { headers: { cookie } });
    expect(asTenant.status).toBe(401);
    await asTenant.arrayBuffer();
  });

  it('does not exist without METRICS_TOKEN: 404, whatever is sent (and never the console)', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await scrape(withoutToken, authorization);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      await response.arrayBuffer();
    }
    expect((await fetch(`${withoutToken.url}/metrics?x=1`)).status).toBe(404);
  });
});
