import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startRuntimeProcess } from '../support/runtime-process.js';
import { signUpOver } from '../support/signup.js';

/**
 * `npm start` with OTEL_EXPORTER_OTLP_ENDPOINT: the spans of a query reach a real OTLP/HTTP
 * receiver on loopback (what Jaeger, Phoenix, Langfuse or Honeycomb accept), sent by the SDK that
 * bin/local.ts starts, and all of them before the process exits.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface OtlpRequest {
  resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

let receiver: Server;
let receiverUrl: string;
const received: { contentType: string | undefined; body: OtlpRequest }[] = [];
let model: FakeModel;
let dataDir: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        received.push({ contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  model = await startFakeModel();
  dataDir = await mkdtemp(join(tmpdir(), 'wap-otlp-'));
});
afterAll(async () => {
  await model?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

const value = (attribute: { value: Record<string, unknown> }) => Object.values(attribute.value)[0];
const attributesOf = (span: OtlpSpan) => Object.fromEntries(span.attributes.map((attribute) => [attribute.key, value(attribute)]));

/** The spans as an indented tree, each with its duration: what docs/observability.md shows. */
function treeOf(spans: OtlpSpan[]): string {
  const lines: string[] = [];
  const visit = (span: OtlpSpan, depth: number) => {
    const ms = (Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6).toFixed(1);
    lines.push(`${'  '.repeat(depth)}${span.name}  ${ms} ms`);
    const children = spans.filter((child) => child.parentSpanId === span.spanId);
    for (const child of children.sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1)))
      visit(child, depth + 1);
  };
  for (const root of spans.filter((span) => !span.parentSpanId || !spans.some((other) => other.spanId === span.parentSpanId)))
    visit(root, 0);
  return lines.join('\n');
}

describe('traces over OTLP/HTTP from npm start', () => {
  it('sends the spans of a query, as one trace, to the endpoint, by the time the process has stopped', async () => {
    const started = startRuntimeProcess({
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-otlp-test',
    });
    let workspace: { id: string };
    try {
      const url = await started.url;
      const cookie = await signUpOver(url, 'otlp@example.com');
      const post = async (path: string, body: unknown) =>
        (
          await fetch(`${url}${path}`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json();
      workspace = (await post('/api/workspaces', { name: 'Orders desk' })) as { id: string };
      const saved = await post('/api/connectors/mcp', {
        workspace_id: workspace.id,
        name: 'orders',
        transport: 'stdio',
        command: 'node',
        args: ['servers/orders-mcp-server.mjs'],
      });
      expect(saved).toMatchObject({ status: 'saved' });
      model.reply(toolUseReply([{ name: 'lookup_order', input: { order_id: '42' } }]), textReply('Order 42 has shipped.'));
      const answer = (await post(`/api/workspaces/${workspace.id}/query`, { query: 'Where is order 42?' })) as { error: string | null };
      expect(answer.error).toBeNull();
      started.child.kill('SIGTERM');
      expect(await started.exited, started.output()).toBe(0);
    } finally {
      await started.stop();
    }

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.contentType === 'application/json')).toBe(true);
    const resource = received[0]?.body.resourceSpans[0]?.resource.attributes ?? [];
    expect(Object.fromEntries(resource.map((attribute) => [attribute.key, value(attribute)]))).toMatchObject({
      'service.name': 'workspace-agent-proxy',
    });
    const spans = received.flatMap((request) =>
      request.body.resourceSpans.flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans)),
    );
    const query = spans.find((span) => span.name === 'POST /api/workspaces/:id/query');
    expect(query).toBeDefined();
    const inTrace = spans.filter((span) => span.traceId === query?.traceId);
    const names = inTrace.map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        `invoke_agent ${workspace.id}`,
        'initialize',
        'anthropic.messages.create',
        'execute_tool lookup_order',
        'tools/call lookup_order',
        'DynamoDB.Query',
      ]),
    );
    const call = inTrace.find((span) => span.name === 'tools/call lookup_order');
    expect(call && attributesOf(call)).toMatchObject({ 'mcp.method.name': 'tools/call', 'network.transport': 'pipe' });
    // The tree docs/observability.md shows, from this receiver's output.
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'trace-tree.txt'), `${treeOf(inTrace)}\n`);
  }, 60_000);
});
