import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import {
  ATTR_AWS_DYNAMODB_TABLE_NAMES,
  ATTR_DB_SYSTEM,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_ROUTE,
  ATTR_MCP_METHOD_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_METHOD,
  ATTR_RPC_SERVICE,
  ATTR_RPC_SYSTEM,
  ATTR_SERVER_ADDRESS,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { captureContent } from '../../shared/platform/tracing.js';
import { registerTracing, type Tracing } from '../../shared/platform/tracing-sdk.js';
import { FAST_SCRYPT } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { RecordingLogger } from '../support/logger.js';
import { startHttpMcpServer, standardTools } from '../support/mcp-servers.js';
import { signUpOver } from '../support/signup.js';

/**
 * The spans of one query, recorded by the OpenTelemetry SDK into an in-memory exporter (the OTLP
 * export itself: tracing-otlp.test.ts). Expected attribute names are the constants of
 * `@opentelemetry/semantic-conventions`, so a name that drifts from the conventions fails here.
 */

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let model: FakeModel;
let docs: Awaited<ReturnType<typeof startHttpMcpServer>>;
let runtime: LocalRuntime;
let cookie: string;
let workspaceId: string;

beforeAll(async () => {
  tracing = registerTracing('workspace-agent-proxy-test', new SimpleSpanProcessor({ exporter }));
  model = await startFakeModel();
  docs = await startHttpMcpServer({ name: 'docs-server', tools: standardTools() });
  const config = parseConfig(
    {
      DATA_DIR: 'memory',
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-trace-secret-key',
      MCP_ALLOW_PRIVATE_URLS: 'true',
    },
    'local',
  );
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
  cookie = await signUpOver(runtime.url, 'tracer@example.com');
  const created = await call('POST', '/api/workspaces', { name: 'Traced' });
  workspaceId = created.id;
  const saved = await call('POST', '/api/connectors/mcp', { workspace_id: workspaceId, name: 'docs', transport: 'http', url: docs.url });
  expect(saved.status).toBe('saved');
});
afterAll(async () => {
  await runtime?.stop();
  await Promise.all([model?.stop(), docs?.stop()]);
  await tracing?.shutdown();
});
beforeEach(() => {
  exporter.reset();
  model.reset();
  captureContent(false);
});

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
}

async function askOnce(question: string) {
  model.reply(
    toolUseReply([{ name: 'search_docs', input: { query: 'reset password' } }], { input_tokens: 1000, output_tokens: 50 }),
    textReply('Go to Settings.', { input_tokens: 1200, output_tokens: 80 }),
  );
  const answer = await call('POST', `/api/workspaces/${workspaceId}/query`, { query: question });
  expect(answer.error).toBeNull();
  await tracing.flush();
  return { answer, spans: exporter.getFinishedSpans() };
}

const named = (spans: ReadableSpan[], prefix: string) => spans.filter((span) => span.name.startsWith(prefix));
function one(spans: ReadableSpan[], prefix: string): ReadableSpan {
  const found = named(spans, prefix);
  expect(found.map((span) => span.name)).toHaveLength(1);
  return found[0] as ReadableSpan;
}
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('the spans of a query', () => {
  it('form one trace: the HTTP request, the query, its model calls, its tool call and the store calls', async () => {
    const { answer, spans } = await askOnce('How do I reset my password?');
    const request = one(spans, 'POST /api/workspaces/:id/query');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes[ATTR_HTTP_REQUEST_METHOD]).toBe('POST');
    expect(request.attributes[ATTR_HTTP_ROUTE]).toBe('/api/workspaces/:id/query');

    const query = one(spans, 'invoke_agent ');
    expect(parentOf(query)).toBe(idOf(request));
    expect(query.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent',
      [ATTR_GEN_AI_AGENT_ID]: workspaceId,
      [ATTR_GEN_AI_CONVERSATION_ID]: answer.conversation_id,
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 2200,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 130,
    });

    // The model calls: spanned by Anthropic's SDK, children of the query.
    const chats = spans.filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'chat');
    expect(chats.map((chat) => chat.name)).toEqual(['anthropic.messages.create', 'anthropic.messages.create']);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(chat)).toBe(idOf(query));
      expect(chat.attributes[ATTR_GEN_AI_PROVIDER_NAME]).toBe('anthropic');
      expect(String(chat.attributes[ATTR_GEN_AI_REQUEST_MODEL])).toMatch(/^claude/);
    }
    expect(chats.map((chat) => chat.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]).sort()).toEqual([1000, 1200]);

    const tool = one(spans, 'execute_tool ');
    expect(parentOf(tool)).toBe(idOf(query));
    expect(tool.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'search_docs',
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
    });
    expect(String(tool.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toMatch(/^toolu_/);

    const mcp = one(spans, 'tools/call ');
    expect(mcp.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(mcp)).toBe(idOf(tool));
    expect(mcp.attributes).toMatchObject({
      [ATTR_MCP_METHOD_NAME]: 'tools/call',
      [ATTR_GEN_AI_TOOL_NAME]: 'search_docs',
      [ATTR_NETWORK_TRANSPORT]: 'tcp',
      [ATTR_SERVER_ADDRESS]: '127.0.0.1',
    });

    const store = named(spans, 'DynamoDB.');
    expect(store.length).toBeGreaterThan(3);
    for (const span of store) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes).toMatchObject({ [ATTR_RPC_SYSTEM]: 'aws-api', [ATTR_RPC_SERVICE]: 'DynamoDB', [ATTR_DB_SYSTEM]: 'dynamodb' });
      expect(span.attributes[ATTR_RPC_METHOD]).toBe(span.name.slice('DynamoDB.'.length));
      expect(span.attributes[ATTR_AWS_DYNAMODB_TABLE_NAMES]).toEqual(expect.arrayContaining([expect.any(String)]));
    }
    // The reads and writes of the query are its children (directly or under a tool call).
    expect(store.filter((span) => parentOf(span) === idOf(query)).length).toBeGreaterThan(2);
    const trace = request.spanContext().traceId;
    for (const span of [query, ...chats, tool, mcp, ...store]) expect(span.spanContext().traceId).toBe(trace);
  });

  it('carries no content unless OTEL_CAPTURE_CONTENT: no question, answer, tool arguments or results', async () => {
    const { spans } = await askOnce('What is my secret question?');
    const text = JSON.stringify(spans.map((span) => span.attributes));
    expect(text).not.toContain('secret question');
    expect(text).not.toContain('reset password');
    expect(text).not.toContain('Go to Settings');
    for (const span of spans) {
      expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBeUndefined();
      expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBeUndefined();
      expect(span.attributes[ATTR_GEN_AI_INPUT_MESSAGES]).toBeUndefined();
    }
  });

  it('carries the question and the tool call when content is captured', async () => {
    captureContent(true);
    const { spans } = await askOnce('What is my secret question?');
    const query = one(spans, 'invoke_agent ');
    expect(String(query.attributes[ATTR_GEN_AI_INPUT_MESSAGES])).toContain('What is my secret question?');
    const tool = one(spans, 'execute_tool ');
    expect(JSON.parse(String(tool.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]))).toEqual({ query: 'reset password' });
    expect(tool.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe('results for reset password');
  });

  it('marks a failed tool call, and never records a secret: not the model key, not a query string', async () => {
    model.reply(toolUseReply([{ name: 'fail_tool', input: {} }]), textReply('It failed.'));
    await call('POST', `/api/workspaces/${workspaceId}/query`, { query: 'Try the failing tool' });
    await fetch(`${runtime.url}/api/connectors/mcp/oauth/callback?code=oauth-code-secret&state=state-secret`);
    // One-time tokens of links travel in the path: an invitation's, a chat account link's.
    await fetch(`${runtime.url}/api/invitations/invitation-token-secret`);
    await fetch(`${runtime.url}/api/chat/link-requests/link-token-secret`);
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const failed = one(spans, 'execute_tool fail_tool');
    expect(failed.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
    const callback = one(spans, 'GET /api/connectors/mcp/oauth/callback');
    expect(String(callback.attributes[ATTR_URL_FULL])).toMatch(/\/api\/connectors\/mcp\/oauth\/callback$/);
    const text = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })));
    const invitation = one(spans, 'GET /api/invitations/:token');
    expect(String(invitation.attributes[ATTR_URL_FULL])).toMatch(/\/api\/invitations\/\{token\}$/);
    for (const secret of [
      'sk-trace-secret-key',
      'oauth-code-secret',
      'state-secret',
      'a long enough password',
      'invitation-token-secret',
      'link-token-secret',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
