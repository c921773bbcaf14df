import { DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { ensureTable } from '../../shared/platform/table-create.js';
import { recordJob } from '../../shared/jobs/ledger.js';
import { inMemorySecrets } from '../../shared/platform/secrets.js';

/**
 * The Lambda entry points as AWS calls them: an API Gateway HTTP API v2 event through the API
 * handler, an SQS batch through the jobs handler, against dynalite (DYNAMODB_ENDPOINT) and a
 * mocked SQS client.
 */

let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
const sqsMock = mockClient(SQSClient);
const schedulerMock = mockClient(SchedulerClient);
const QUEUE = (name: string) => `https://sqs.eu-west-1.amazonaws.com/123456789012/${name}`;

beforeAll(async () => {
  store = await startEmbeddedStore(null);
  const env: Record<string, string> = {
    TABLE_NAME: 'lambda-test',
    DYNAMODB_ENDPOINT: store.endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    SESSION_SECRET: 'lambda-test-session-secret-of-32-chars-or-more',
    SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/test',
    LIFECYCLE_QUEUE_URL: QUEUE('lifecycle'),
    COLD_MESSAGES_QUEUE_URL: QUEUE('cold-messages'),
    STATS_QUEUE_URL: QUEUE('conversation-stats'),
    KNOWLEDGE_QUEUE_URL: QUEUE('knowledge'),
    ROUTINES_QUEUE_URL: QUEUE('routines'),
    KNOWLEDGE_BUCKET: 'lambda-test-knowledge',
    LIFECYCLE_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
    SCHEDULER_GROUP_NAME: 'test-group',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
    LOG_LEVEL: 'SILENT',
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const config = parseConfig(env, 'aws');
  const client = createDynamoClient(config, store.endpoint);
  await ensureTable(client, config.tableName);
  client.destroy();
  sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  schedulerMock.on(DeleteScheduleCommand).resolves({});
});
afterAll(async () => {
  vi.unstubAllEnvs();
  sqsMock.restore();
  schedulerMock.restore();
  await store.close();
});

function httpEvent(method: string, path: string, options: { body?: unknown; cookies?: string[] } = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    cookies: options.cookies,
    headers: {
      accept: 'application/json',
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'user-agent': 'vitest',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'https',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
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

interface LambdaHttpResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

describe('functions/api/handler.ts', () => {
  it('signs up through an API Gateway v2 event: 201, JSON body, security headers and the session cookie', async () => {
    const { handler } = await import('../../functions/api/handler.js');
    const invoke = handler as unknown as (event: unknown, context: unknown) => Promise<LambdaHttpResult>;
    const signup = await invoke(
      httpEvent('POST', '/api/signup', { body: { name: 'Lambda', email: 'lambda@example.com', password: 'from the cloud' } }),
      {},
    );
    expect(signup.statusCode).toBe(201);
    expect(signup.headers['content-type']).toMatch(/^application\/json/);
    expect(signup.headers['x-content-type-options']).toBe('nosniff');
    expect(signup.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(signup.body).user).toMatchObject({ name: 'Lambda', email: 'lambda@example.com', org_role: 'admin' });
    const cookie = signup.cookies?.[0] ?? '';
    expect(cookie).toMatch(/^service_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    // Production cookies are Secure.
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('HttpOnly');

    const session = cookie.split(';')[0] ?? '';
    const org = await invoke(httpEvent('GET', '/api/org', { cookies: [session] }), {});
    expect(org.statusCode).toBe(200);
    expect(JSON.parse(org.body).org.name).toBe("Lambda's organisation");
    const refused = await invoke(httpEvent('GET', '/api/org'), {});
    expect(refused.statusCode).toBe(401);

    // The agent routes are not served here: API Gateway sends them to the agent function.
    const query = await invoke(httpEvent('POST', '/api/workspaces/ws-x/query', { body: { query: 'hi' }, cookies: [session] }), {});
    expect(query.statusCode).toBe(404);

    // Closing a conversation sends its statistics job to the SQS queue and cancels its schedules.
    const workspace = await invoke(httpEvent('POST', '/api/workspaces', { body: { name: 'Lambda workspace' }, cookies: [session] }), {});
    const workspaceId = JSON.parse(workspace.body).id as string;
    const orgId = JSON.parse(signup.body).org.id as string;
    const { createDynamoClient: dynamo } = await import('../../shared/platform/dynamo.js');
    const { Table } = await import('../../shared/platform/table.js');
    const { systemClock } = await import('../../shared/platform/clock.js');
    const client = dynamo(parseConfig(process.env, 'aws'), store.endpoint);
    await new Table(client, 'lambda-test', systemClock).put({
      pk: `CONV#${orgId}#${workspaceId}#c-lambda`,
      sk: 'STATE',
      id: 'c-lambda',
      workspace_id: workspaceId,
      org_id: orgId,
      status: 'open',
      last_activity_at: '2026-11-22T10:00:00.000Z',
    });
    client.destroy();
    sqsMock.resetHistory();
    schedulerMock.resetHistory();
    const closed = await invoke(
      httpEvent('POST', `/api/workspaces/${workspaceId}/conversations/c-lambda/close`, { cookies: [session] }),
      {},
    );
    expect(closed.statusCode).toBe(200);
    const sent = sqsMock.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.QueueUrl).toBe(QUEUE('conversation-stats'));
    expect(JSON.parse(sent[0]?.MessageBody ?? '{}')).toMatchObject({
      queue: 'conversation-stats',
      orgId,
      data: { workspaceId, conversationId: 'c-lambda' },
    });
    expect(schedulerMock.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input.GroupName)).toEqual([
      'test-group',
      'test-group',
    ]);
  });
});

describe('functions/jobs/handler.ts', () => {
  it('reports only the record that must be retried in batchItemFailures', async () => {
    const { handler } = await import('../../functions/jobs/handler.js');
    const { createDeps } = await import('../../shared/wiring/deps.js');
    const { Table } = await import('../../shared/platform/table.js');
    const { systemClock } = await import('../../shared/platform/clock.js');
    const config = parseConfig(process.env, 'aws');
    const client = createDynamoClient(config, store.endpoint);
    const deps = createDeps({
      config,
      table: new Table(client, config.tableName, systemClock),
      secrets: inMemorySecrets(),
      clock: systemClock,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      jobs: { enqueue: async () => true, redeliver: async () => undefined, cancel: () => undefined },
      scheduler: { schedule: async () => undefined, cancel: async () => undefined },
    });
    // A lifecycle job for a conversation that does not exist: its move is a no-op, so it completes.
    const done = {
      jobId: 'job-done',
      queue: 'lifecycle' as const,
      orgId: 'org_1',
      data: { workspaceId: 'ws-none', conversationId: 'c-1', move: 'close', lastActivityAt: '2026-11-22T10:00:00.000Z' },
    };
    await recordJob(deps, done);
    const sqsRecord = (messageId: string, body: string) => ({
      messageId,
      receiptHandle: `receipt-${messageId}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
      awsRegion: 'eu-west-1',
    });
    // The store is unreachable for the second record's job: an infrastructure failure, to be retried.
    const realGet = Table.prototype.get;
    const spy = vi.spyOn(Table.prototype, 'get').mockImplementation(async function (this: InstanceType<typeof Table>, key, consistent) {
      if (key.pk === 'JOB#job-unreachable') throw new Error('store unreachable');
      return realGet.call(this, key, consistent);
    });
    try {
      const result = await handler({
        Records: [
          sqsRecord('m-done', JSON.stringify(done)),
          sqsRecord('m-bad', '{this is not json'),
          sqsRecord('m-unreachable', JSON.stringify({ ...done, jobId: 'job-unreachable' })),
        ],
      });
      expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-unreachable' }] });
    } finally {
      spy.mockRestore();
      client.destroy();
    }
    expect((await deps.table.get({ pk: 'JOB#job-done', sk: 'JOB' }))?.state).toBe('completed');
  });
});

describe('functions/migrate/handler.ts', () => {
  /** CloudFormation's side: a pre-signed URL that takes the custom resource's answer (a PUT). */
  async function responseUrl() {
    const { createServer } = await import('node:http');
    const answers: { contentType: string | undefined; body: Record<string, unknown> }[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        answers.push({ contentType: req.headers['content-type'], body: JSON.parse(text) });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}/answer?X-Amz-Signature=x`,
      answers,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }
  const event = (type: 'Create' | 'Update' | 'Delete', url: string) => ({
    RequestType: type,
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:migrate',
    ResponseURL: url,
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/s/1',
    RequestId: `request-${type}`,
    LogicalResourceId: 'Migration',
    ResourceType: 'Custom::Migration',
    ResourceProperties: { ServiceToken: 'x', SchemaVersion: 2 },
    ...(type === 'Create' ? {} : { PhysicalResourceId: 'migration-Migration' }),
  });

  it('migrates a table of the version before on create, answers CloudFormation, and does nothing on delete', async () => {
    const { handler } = await import('../../functions/migrate/handler.js');
    const { Table } = await import('../../shared/platform/table.js');
    const { systemClock } = await import('../../shared/platform/clock.js');
    const { workspaceKey } = await import('../../shared/workspaces/entities.js');
    const { conversationKey } = await import('../../shared/conversations/entities.js');
    const { SCHEMA_MARKER } = await import('../../shared/platform/migrations.js');
    const { SCHEMA_VERSION } = await import('../../migrations/index.js');
    const config = parseConfig({ TABLE_NAME: 'lambda-test', AWS_REGION: 'eu-west-1' }, 'aws');
    const client = createDynamoClient(config, store.endpoint);
    const table = new Table(client, 'lambda-test', systemClock);
    const cloudFormation = await responseUrl();
    try {
      // A workspace and its conversation as version 1 stored them (workspace ids global).
      await table.delete(SCHEMA_MARKER);
      await table.put({ pk: 'WS#ws-legacy', sk: 'META', id: 'ws-legacy', org_id: 'org_legacy', name: 'Legacy' });
      await table.put({ pk: 'CONV#ws-legacy#c1', sk: 'STATE', org_id: 'org_legacy', gsi1pk: 'WSCONV#ws-legacy', gsi1sk: 't#c1' });
      await handler(event('Create', cloudFormation.url) as never);
      expect(cloudFormation.answers[0]).toMatchObject({
        contentType: '',
        body: {
          Status: 'SUCCESS',
          RequestId: 'request-Create',
          LogicalResourceId: 'Migration',
          Data: { from: 1, to: SCHEMA_VERSION, moved: 2, left: 0 },
        },
      });
      expect(await table.get(workspaceKey('org_legacy', 'ws-legacy'))).toMatchObject({ name: 'Legacy' });
      expect(await table.get(conversationKey('org_legacy', 'ws-legacy', 'c1'))).toMatchObject({ gsi1pk: 'WSCONV#org_legacy#ws-legacy' });
      expect(await table.get({ pk: 'WS#ws-legacy', sk: 'META' })).toBeUndefined();
      expect(await table.get(SCHEMA_MARKER)).toMatchObject({ version: SCHEMA_VERSION });

      await handler(event('Update', cloudFormation.url) as never);
      expect(cloudFormation.answers[1]?.body).toMatchObject({ Status: 'SUCCESS', Data: { from: SCHEMA_VERSION, moved: 0 } });
      await handler(event('Delete', cloudFormation.url) as never);
      expect(cloudFormation.answers[2]?.body).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'migration-Migration' });
    } finally {
      await cloudFormation.close();
      client.destroy();
    }
  });
});
