import { describe, expect, it } from 'vitest';
import { DynamoClient, StoreError } from '../../shared/platform/store-http.js';
import { clientOnFakeStore, type StoreAnswer, type StoreCall } from '../support/fake-store.js';

/** The store client against a fake DynamoDB endpoint on loopback: signing, errors, retries. */
function clientOf(answer: (call: StoreCall, index: number) => StoreAnswer, options: { credentials?: 'chain'; timeoutMs?: number } = {}) {
  return clientOnFakeStore(answer, { region: 'eu-west-1', ...options });
}

const conditionFailed = {
  status: 400,
  body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' },
};

describe('the store client', () => {
  it('sends the operation as DynamoDB JSON 1.0, signed with SigV4 for the region, and answers its output', async () => {
    const { client, calls } = await clientOf(() => ({ body: { Item: { pk: { S: 'A' } } } }));
    const output = await client.send('GetItem', { TableName: 'tbl', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
    expect(output).toEqual({ Item: { pk: { S: 'A' } } });
    const [call] = calls;
    expect(call?.operation).toBe('GetItem');
    expect(call?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(call?.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(call?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=amz-sdk-request;[a-z0-9;-]*host[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(call?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(call?.input).toEqual({ TableName: 'tbl', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
  });

  it("signs with the AWS SDK's credential chain on AWS: the environment's key and session token (as on Lambda)", async () => {
    // The chain is loaded once per process and keeps what it found: this is the only test that uses it.
    const variables = {
      AWS_ACCESS_KEY_ID: 'AKIATESTCHAIN',
      AWS_SECRET_ACCESS_KEY: 'chain-secret',
      AWS_SESSION_TOKEN: 'chain-session-token',
    };
    const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
    Object.assign(process.env, variables);
    try {
      const { client, calls } = await clientOf(() => ({ body: {} }), { credentials: 'chain' });
      await client.send('GetItem', { TableName: 'tbl', Key: {} });
      expect(calls[0]?.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIATESTCHAIN\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, /,
      );
      expect(calls[0]?.headers['x-amz-security-token']).toBe('chain-session-token');
      expect(calls[0]?.headers.authorization).toContain('x-amz-security-token');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("names the store's error by its type and does not retry a refusal", async () => {
    const { client, calls } = await clientOf(() => conditionFailed);
    const error = await client.send('PutItem', { TableName: 'tbl', Item: {} }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      status: 400,
      retryable: false,
    });
    expect(calls).toHaveLength(1);
  });

  it('retries throttling, server errors and dropped connections, then answers', async () => {
    const answers: StoreAnswer[] = [
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' } },
      { body: { Count: 1 } },
      { status: 500, body: 'upstream broke' },
      'reset',
      { body: { Count: 2 } },
    ];
    const { client, calls } = await clientOf((_call, index) => answers[index] ?? { status: 500, body: {} });
    expect(await client.send('Query', { TableName: 'tbl' })).toEqual({ Count: 1 });
    expect(await client.send('Query', { TableName: 'tbl' })).toEqual({ Count: 2 });
    expect(calls.map((call) => call.headers['amz-sdk-request'])).toEqual([
      'attempt=1; max=3',
      'attempt=2; max=3',
      'attempt=1; max=3',
      'attempt=2; max=3',
      'attempt=3; max=3',
    ]);
  });

  it('gives up after three attempts with the last error', async () => {
    const { client, calls } = await clientOf(() => ({ status: 503, body: '<html>unavailable</html>' }));
    const error = await client.send('Query', { TableName: 'tbl' }).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'InternalServerError', message: 'the store answered HTTP 503', retryable: true });
    expect(calls).toHaveLength(3);
  });

  it('sends a read that stalled again, but fails a write that stalled (it may have been applied)', async () => {
    const { client, calls } = await clientOf(
      (call, index) => (call.operation === 'GetItem' && index > 0 ? { body: { Item: {} } } : 'silence'),
      {
        timeoutMs: 150,
      },
    );
    expect(await client.send('GetItem', { TableName: 'tbl', Key: {} })).toEqual({ Item: {} });
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'GetItem']);
    const error = await client.send('UpdateItem', { TableName: 'tbl', Key: {} }).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'the store sent nothing for 150 ms' });
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'GetItem', 'UpdateItem']);
  });

  it('fails a call that a store in this process never answers as a stalled request', async () => {
    let calls = 0;
    const silent = new DynamoClient({
      region: 'local',
      timeoutMs: 30,
      transport: () => {
        calls += 1;
        return new Promise(() => {});
      },
    });
    const key = { pk: { S: 'P' }, sk: { S: 'x' } };
    await expect(silent.send('PutItem', { TableName: 'tbl', Item: key })).rejects.toMatchObject({ name: 'TimeoutError' });
    // A write that stalled may have been applied: not sent again; a read is.
    expect(calls).toBe(1);
    await expect(silent.send('GetItem', { TableName: 'tbl', Key: key })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(calls).toBe(4);
  });
});
