import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Config } from './config.js';
import { ATTR, inSpan, SpanKind, tracingOn } from './tracing.js';

/** Attempts per call (the first and two retries): the SDK's standard retry mode. */
const MAX_ATTEMPTS = 3;
/** An attempt not answered within this long fails with `TimeoutError` (the standard retry mode sends it again). */
const REQUEST_TIMEOUT_MS = 5_000;
/** Kept-alive sockets per client (the SDK's own default, said here with the keep-alive it relies on). */
const MAX_SOCKETS = 50;

/** What a local store (dynalite, DynamoDB Local) is signed with: it does not check the signature. */
const PLACEHOLDER_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The AWS SDK's DynamoDB client, configured once for every runtime: the standard retry mode with
 * three attempts, keep-alive agents, a time limit per attempt, the region of the configuration.
 * The endpoint is the SDK's own choice (the region's, or `AWS_ENDPOINT_URL_DYNAMODB`) unless one
 * is given: `DYNAMODB_ENDPOINT` or the embedded store on loopback, signed then with placeholder
 * credentials (a local store does not check them); otherwise the SDK's default credential chain.
 * With tracing on, every call is a client span (`storeSpan`).
 */
export function createDynamoClient(
  config: Pick<Config, 'awsRegion'>,
  endpoint?: string,
  options: DynamoClientOptions = {},
): DynamoDBClient {
  const region = config.awsRegion;
  const timeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const client = new DynamoDBClient({
    region,
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'standard',
    requestHandler: {
      // The whole exchange within the limit, or a `TimeoutError` (which the standard mode retries).
      requestTimeout: timeout,
      throwOnRequestTimeout: true,
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
    ...(endpoint ? { endpoint, credentials: PLACEHOLDER_CREDENTIALS } : {}),
  });
  if (tracingOn()) {
    client.middlewareStack.add(
      (next, context) => (args) => storeSpan(region, operationOf(context.commandName), args.input as object, () => next(args)),
      { step: 'initialize', name: 'storeSpan' },
    );
  }
  return client;
}

/** What tests may change of the client: the time limit per attempt. */
export interface DynamoClientOptions {
  requestTimeoutMs?: number;
}

/** `GetItemCommand` → `GetItem`: the operation's name, as DynamoDB and the traces name it. */
function operationOf(commandName: string | undefined): string {
  return (commandName ?? 'Unknown').replace(/Command$/, '');
}

/**
 * One client span per store call (`DynamoDB.Query`, …) with the attributes of OpenTelemetry's AWS
 * SDK instrumentation (`rpc.*`, `db.*`, `aws.dynamodb.table_names`), made by a middleware of the
 * client rather than by that instrumentation: it patches the SDK's modules as Node loads them,
 * which an esbuild bundle (every Lambda function) never does, so it would see no call there.
 */
function storeSpan<T>(region: string, operation: string, request: object, send: () => Promise<T>): Promise<T> {
  const input = request as { TableName?: unknown; RequestItems?: Record<string, unknown> };
  const tables = typeof input.TableName === 'string' ? [input.TableName] : Object.keys(input.RequestItems ?? {});
  const attributes = {
    [ATTR.rpcSystem]: 'aws-api',
    [ATTR.rpcService]: 'DynamoDB',
    [ATTR.rpcMethod]: operation,
    [ATTR.dbSystem]: 'dynamodb',
    [ATTR.dbOperation]: operation,
    [ATTR.cloudRegion]: region,
    ...(tables.length ? { [ATTR.dynamoTables]: tables } : {}),
  };
  return inSpan(`DynamoDB.${operation}`, { kind: SpanKind.CLIENT, attributes: () => attributes }, send);
}
