import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/**
 * A Lambda function with OTEL_EXPORTER_OTLP_ENDPOINT in its environment: its entry point starts
 * the exporter, and an invocation's spans reach the OTLP receiver before the handler returns (a
 * frozen container would send them late, or never).
 */

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
let receiver: Server;
const spanNames: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) for (const span of scope.spans) spanNames.push(span.name);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  store = await startEmbeddedStore(null);
  const env: Record<string, string> = {
    TABLE_NAME: 'lambda-tracing',
    DYNAMODB_ENDPOINT: store.endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    SESSION_SECRET: 'lambda-test-session-secret-of-32-chars-or-more',
    SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/test',
    LIFECYCLE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/lifecycle',
    COLD_MESSAGES_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/cold-messages',
    STATS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/conversation-stats',
    KNOWLEDGE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/knowledge',
    KNOWLEDGE_BUCKET: 'tracing-test-knowledge',
    LIFECYCLE_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
    SCHEDULER_GROUP_NAME: 'test-group',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
    LOG_LEVEL: 'SILENT',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const client = createDynamoClient(parseConfig(env, 'aws'), store.endpoint);
  await ensureTable(client, env.TABLE_NAME as string);
  client.destroy();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await store?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('functions/api/handler.ts with tracing on', () => {
  it("has sent the invocation's spans (the request's and its store calls') by the time it returns", async () => {
    const { handler } = await import('../../functions/api/handler.js');
    const invoke = handler as unknown as (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/api/signup',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' },
      requestContext: {
        accountId: '123456789012',
        apiId: 'abc',
        domainName: 'abc.execute-api.eu-west-1.amazonaws.com',
        http: { method: 'POST', path: '/api/signup', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
        requestId: 'req-tracing',
        routeKey: '$default',
        stage: '$default',
        timeEpoch: 1795341600000,
      },
      body: JSON.stringify({ name: 'Traced', email: 'traced@example.com', password: 'traced all the way' }),
      isBase64Encoded: false,
    };
    const answer = await invoke(event, {});
    expect(answer.statusCode).toBe(201);
    // No waiting: flushed before the handler's promise settled.
    expect(spanNames).toContain('POST /api/signup');
    expect(spanNames.filter((name) => name.startsWith('DynamoDB.')).length).toBeGreaterThan(0);
  });
});
