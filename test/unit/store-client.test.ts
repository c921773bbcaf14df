import { GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { clientOnFakeStore, startFakeStore, type StoreAnswer, type StoreCall } from '../support/fake-store.js';

/**
 * The store client (the AWS SDK's DynamoDB client as `createDynamoClient` configures it) against a
 * fake DynamoDB endpoint on loopback: the endpoint it reaches, signing, error names, retries.
 */
function clientOf(answer: (call: StoreCall, index: number) => StoreAnswer, options: { requestTimeoutMs?: number } = {}) {
  return clientOnFakeStore(answer, { region: 'eu-west-1', ...options });
}

const conditionFailed = {
  status: 400,
  body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' },
};

const throttled = (type: string) => ({ status: 400, body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: 'slow down' } });

/** Sets environment variables for one test. */
function withEnv(variables: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  onTestFinished(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

describe('the store client', () => {
  it('sends the operation as DynamoDB JSON 1.0, signed with SigV4 for the region, and answers its output', async () => {
    const { client, calls } = await clientOf(() => ({ body: { Item: { pk: { S: 'A' } } } }));
    const output = await client.send(new GetItemCommand({ TableName: 'tbl', Key: { pk: { S: 'A' }, sk: { S: 'B' } } }));
    expect(output.Item).toEqual({ pk: { S: 'A' } });
    const [call] = calls;
    expect(call?.operation).toBe('GetItem');
    expect(call?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(call?.headers['content-type']).toBe('application/x-amz-json-1.0');
    // A local endpoint is signed with placeholder credentials (the store does not check them).
    expect(call?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, /);
    expect(call?.headers['amz-sdk-request']).toBe('attempt=1; max=3');
    expect(call?.input).toEqual({ TableName: 'tbl', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
  });

  it("reaches the endpoint of AWS_ENDPOINT_URL_DYNAMODB when none is configured, signed by the SDK's credential chain", async () => {
    const store = await startFakeStore(() => ({ body: {} }));
    onTestFinished(() => store.stop());
    withEnv({
      AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIATESTCHAIN',
      AWS_SECRET_ACCESS_KEY: 'chain-secret',
      AWS_SESSION_TOKEN: 'chain-session-token',
    });
    const client = createDynamoClient({ awsRegion: 'eu-west-1' });
    onTestFinished(() => client.destroy());
    await client.send(new GetItemCommand({ TableName: 'tbl', Key: { pk: { S: 'A' } } }));
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIATESTCHAIN\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, /,
    );
    expect(store.calls[0]?.headers['x-amz-security-token']).toBe('chain-session-token');
  });

  it("names the store's error by its type and does not retry a refusal", async () => {
    const { client, calls } = await clientOf(() => conditionFailed);
    const error = await client.send(new PutItemCommand({ TableName: 'tbl', Item: {} })).catch((failure: unknown) => failure);
    expect(error).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      $metadata: { httpStatusCode: 400, attempts: 1 },
    });
    expect(calls).toHaveLength(1);
  });

  it('retries a throttled call (ThrottlingException, then success), as the standard retry mode does', async () => {
    const answers: StoreAnswer[] = [throttled('ThrottlingException'), { body: { Count: 1 } }];
    const { client, calls } = await clientOf((_call, index) => answers[index] ?? { status: 500, body: {} });
    const output = await client.send(new QueryCommand({ TableName: 'tbl' }));
    expect(output.Count).toBe(1);
    expect(output.$metadata.attempts).toBe(2);
    expect(calls.map((call) => call.headers['amz-sdk-request'])).toEqual(['attempt=1; max=3', 'attempt=2; max=3']);
  });

  it('retries throughput limits, server errors and dropped connections, then answers', async () => {
    const answers: StoreAnswer[] = [
      throttled('ProvisionedThroughputExceededException'),
      { body: { Count: 1 } },
      { status: 500, body: 'upstream broke' },
      'reset',
      { body: { Count: 2 } },
    ];
    const { client, calls } = await clientOf((_call, index) => answers[index] ?? { status: 500, body: {} });
    expect((await client.send(new QueryCommand({ TableName: 'tbl' }))).Count).toBe(1);
    expect((await client.send(new QueryCommand({ TableName: 'tbl' }))).Count).toBe(2);
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
    const error = await client.send(new QueryCommand({ TableName: 'tbl' })).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ $metadata: { httpStatusCode: 503, attempts: 3 } });
    expect(calls).toHaveLength(3);
  });

  it('fails an attempt the store sends nothing back for within the time limit, and sends it again', async () => {
    const { client, calls } = await clientOf((_call, index) => (index === 0 ? 'silence' : { body: { Item: { pk: { S: 'A' } } } }), {
      requestTimeoutMs: 150,
    });
    const output = await client.send(new GetItemCommand({ TableName: 'tbl', Key: { pk: { S: 'A' } } }));
    expect(output.Item).toEqual({ pk: { S: 'A' } });
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'GetItem']);
  });
});
