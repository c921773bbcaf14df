import { Writable } from 'node:stream';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { ensureTable } from '../../shared/platform/table-create.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * functions/stream/handler.ts as Lambda runs it behind a function URL with response streaming:
 * `awslambda.streamifyResponse` and `awslambda.HttpResponseStream` as the Node.js runtime provides
 * them, a response stream that records what is written, function-URL events (payload format 2.0),
 * dynalite for the table and a fake model API on loopback.
 */

interface ResponseMetadata {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
}

/** Lambda's response stream, recording the metadata (status, headers) and the bytes of the body. */
class RecordingResponseStream extends Writable {
  metadata: ResponseMetadata | undefined;
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    callback();
  }

  get body(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * A response stream whose client hangs up after the first chunk: every later write fails, as
 * Lambda's does once the connection is gone. Hono's adapter then ends the stream and returns.
 */
class HangingUpResponseStream extends RecordingResponseStream {
  private writes = 0;

  constructor() {
    super();
    // What fails after the client left is only logged; the test reads the store instead.
    this.on('error', () => undefined);
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writes += 1;
    if (this.writes > 1) callback(new Error('the client went away'));
    else super._write(chunk, encoding, callback);
  }
}

type StreamingHandler = (event: unknown, responseStream: Writable, context: unknown) => Promise<void>;

// What the Lambda Node.js runtime puts in the global scope for response streaming: the runtime
// calls the streamified function with the response stream; `from` attaches status and headers.
Object.assign(globalThis, {
  awslambda: {
    streamifyResponse: (handler: StreamingHandler): StreamingHandler => handler,
    HttpResponseStream: {
      from(stream: RecordingResponseStream, metadata: ResponseMetadata): RecordingResponseStream {
        stream.metadata = metadata;
        return stream;
      },
    },
  },
});

const URL_ID = 'abcdefghijklmnopqrstuvwxyz012345';
const URL_DOMAIN = `${URL_ID}.lambda-url.eu-west-1.on.aws`;

/** A function URL's event (payload format 2.0): the same shape as an HTTP API's, with the URL's own domain. */
function urlEvent(method: string, path: string, options: { body?: unknown; cookies?: string[]; headers?: Record<string, string> } = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    cookies: options.cookies,
    headers: {
      host: URL_DOMAIN,
      'user-agent': 'vitest',
      'x-forwarded-for': '198.51.100.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-port': '443',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    requestContext: {
      accountId: 'anonymous',
      apiId: URL_ID,
      domainName: URL_DOMAIN,
      domainPrefix: URL_ID,
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.9', userAgent: 'vitest' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: '$default',
      stage: '$default',
      time: '22/Nov/2026:10:00:00 +0000',
      timeEpoch: 1795341600000,
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
    isBase64Encoded: false,
  };
}

/** An API Gateway event for the API function, which sets up the organisation and workspace. */
function apiEvent(method: string, path: string, options: { body?: unknown; cookies?: string[] } = {}) {
  const event = urlEvent(method, path, options);
  const domainName = 'abc123.execute-api.eu-west-1.amazonaws.com';
  return {
    ...event,
    headers: { ...event.headers, host: domainName },
    requestContext: { ...event.requestContext, apiId: 'abc123', domainName },
  };
}

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
let model: FakeModel;
const sqsMock = mockClient(SQSClient);
const schedulerMock = mockClient(SchedulerClient);
let streamHandler: StreamingHandler;
let api: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string; cookies?: string[] }>;
let session: string;
let workspaceId: string;
let messaging: { id: string; key: string };

async function invoke(event: unknown) {
  const stream = new RecordingResponseStream();
  await streamHandler(event, stream, {});
  return { status: stream.metadata?.statusCode, headers: stream.metadata?.headers ?? {}, body: stream.body };
}

beforeAll(async () => {
  store = await startEmbeddedStore(null);
  model = await startFakeModel();
  const env: Record<string, string> = {
    TABLE_NAME: 'stream-test',
    DYNAMODB_ENDPOINT: store.endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    SESSION_SECRET: 'stream-test-session-secret-of-32-chars-or-more',
    SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/test',
    LIFECYCLE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/lifecycle',
    COLD_MESSAGES_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/cold-messages',
    STATS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/conversation-stats',
    KNOWLEDGE_BUCKET: 'wap-knowledge-test',
    LIFECYCLE_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
    SCHEDULER_GROUP_NAME: 'test-group',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
    // The organisation has no model key of its own: the service's, on the fake model API.
    ANTHROPIC_API_KEY: 'sk-stream-test',
    ANTHROPIC_BASE_URL: model.url,
    ALLOW_SERVICE_MODEL_KEY: 'true',
    LOG_LEVEL: 'SILENT',
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const config = parseConfig(env, 'aws');
  const client = createDynamoClient(config, store.endpoint);
  await ensureTable(client, config.tableName);
  client.destroy();
  sqsMock.onAnyCommand().resolves({ MessageId: 'm-1' });
  schedulerMock.onAnyCommand().resolves({});

  // The organisation, its admin's session and a workspace, through the API function.
  const { handler: apiHandler } = await import('../../functions/api/handler.js');
  api = apiHandler as unknown as typeof api;
  const signup = await api(
    apiEvent('POST', '/api/signup', { body: { name: 'Streamer', email: 'stream@example.com', password: 'streamed answers' } }),
    {},
  );
  expect(signup.statusCode).toBe(201);
  session = signup.cookies?.[0]?.split(';')[0] ?? '';
  const workspace = await api(apiEvent('POST', '/api/workspaces', { body: { name: 'Streaming' }, cookies: [session] }), {});
  expect(workspace.statusCode).toBe(201);
  workspaceId = JSON.parse(workspace.body).id as string;
  // A messaging consumer and its key, through the agent function (which serves the connectors).
  const { handler: agentHandler } = await import('../../functions/agent/handler.js');
  const agent = agentHandler as unknown as typeof api;
  const consumer = await agent(
    apiEvent('POST', '/api/connectors/consumer', {
      body: { type: 'messaging', workspace_id: workspaceId, credentials: {} },
      cookies: [session],
    }),
    {},
  );
  expect(consumer.statusCode, consumer.body).toBe(201);
  messaging = { id: JSON.parse(consumer.body).id as string, key: JSON.parse(consumer.body).api_key as string };

  ({ handler: streamHandler } = (await import('../../functions/stream/handler.js')) as unknown as { handler: StreamingHandler });
}, 60_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  sqsMock.restore();
  schedulerMock.restore();
  await model?.stop();
  await store?.close();
});

describe('functions/stream/handler.ts', () => {
  it('answers a JSON query with 200 application/json and the answer, with the security headers', async () => {
    model.reply(textReply('Streams run for up to fifteen minutes.'));
    const response = await invoke(
      urlEvent('POST', `/api/workspaces/${workspaceId}/query`, { body: { query: 'How long?' }, cookies: [session] }),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ answer: 'Streams run for up to fifteen minutes.', error: null });
    expect(body.conversation_id).toEqual(expect.any(String));
  });

  it("answers the messaging webhook with the consumer's Bearer key", async () => {
    model.reply(textReply('Webhook answer.'));
    const response = await invoke(
      urlEvent('POST', `/api/consumers/${messaging.id}/messages`, {
        body: { user: 'Lin', text: 'Hello from the webhook', thread_id: 'thread-1' },
        headers: { authorization: `Bearer ${messaging.key}` },
      }),
    );
    expect(response.status, response.body).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ answer: 'Webhook answer.', thread_id: 'thread-1', error: null });
  });

  it('is no second door to the rest of the API: other routes, even served elsewhere and signed in, are 404 JSON', async () => {
    for (const [method, path] of [
      ['GET', '/api/org'],
      ['POST', '/api/connectors/mcp'],
      ['GET', `/api/workspaces/${workspaceId}/query`],
      ['GET', '/api/no-such-route'],
      ['GET', '/health'],
    ] as const) {
      const response = await invoke(urlEvent(method, path, { cookies: [session], ...(method === 'POST' ? { body: {} } : {}) }));
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(response.body)).toEqual({ error: `no route for ${method} ${path}` });
    }
  });

  it('authenticates as everywhere: no session and no key is 401, before the model is asked', async () => {
    const asked = model.requests.length;
    const response = await invoke(urlEvent('POST', `/api/workspaces/${workspaceId}/query`, { body: { query: 'Who am I?' } }));
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toEqual({ error: expect.any(String) });
    const forged = await invoke(
      urlEvent('POST', '/api/consumers/c-unknown/messages', {
        body: { user: 'u', text: 'hi', thread_id: 't-1' },
        headers: { authorization: 'Bearer not-a-key' },
      }),
    );
    expect(forged.status).toBe(401);
    expect(model.requests.length).toBe(asked);
  });

  it('streams a query asked for as text/event-stream: start first, done last with the answer', async () => {
    model.reply(textReply('A streamed answer, in pieces.'));
    const response = await invoke(
      urlEvent('POST', `/api/workspaces/${workspaceId}/query`, {
        body: { query: 'Stream it' },
        cookies: [session],
        headers: { accept: 'text/event-stream' },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(response.body);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(JSON.parse(events[0]?.data ?? '{}')).toMatchObject({ conversation_id: expect.any(String), session_id: expect.any(String) });
    const done = JSON.parse(events.at(-1)?.data ?? '{}');
    expect(done).toMatchObject({ answer: 'A streamed answer, in pieces.', error: null });
    const deltas = events.filter((event) => event.event === 'text').map((event) => (JSON.parse(event.data) as { delta: string }).delta);
    expect(deltas.join('')).toBe('A streamed answer, in pieces.');
  });

  it('returns only once a query whose client hung up is finished and stored (Lambda freezes what is left running)', async () => {
    const answer = 'An answer that takes a while to arrive, long after the client has gone away.';
    // 4 characters every 20 ms: about 400 ms of answer after the `start` event.
    model.reply({ ...textReply(answer), chunkChars: 4, chunkDelayMs: 20 });
    const question = `Still there? ${Math.random().toString(36).slice(2)}`;
    const stream = new HangingUpResponseStream();
    // Hono's adapter logs the failed write; expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await streamHandler(
        urlEvent('POST', `/api/workspaces/${workspaceId}/query`, {
          body: { query: question },
          cookies: [session],
          headers: { accept: 'text/event-stream' },
        }),
        stream,
        {},
      );
    } finally {
      logged.mockRestore();
    }
    // The one chunk the client got: the `start` event, naming the conversation.
    const events: EventSourceMessage[] = [];
    createParser({ onEvent: (event) => events.push(event) }).feed(stream.body);
    expect(events.map((event) => event.event)).toEqual(['start']);
    const { conversation_id: conversationId } = JSON.parse(events[0]?.data ?? '{}') as { conversation_id: string };

    // Read at once, without waiting: what is not stored by now would be frozen with the container.
    const detail = await api(apiEvent('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookies: [session] }), {});
    expect(detail.statusCode, detail.body).toBe(200);
    const { messages } = JSON.parse(detail.body) as { messages: { role: string; content: string }[] };
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ['user', question],
      ['assistant', answer],
    ]);
    const activity = await api(apiEvent('GET', `/api/workspaces/${workspaceId}/activity`, { cookies: [session] }), {});
    expect(activity.statusCode, activity.body).toBe(200);
    const entries = (JSON.parse(activity.body) as { activity: { query: string; error: string | null }[] }).activity;
    expect(entries.filter((entry) => entry.query === question)).toEqual([expect.objectContaining({ error: null })]);
  });
});
