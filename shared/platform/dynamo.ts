import type { Config } from './config.js';
import { DynamoClient, type StoreTransport } from './store-http.js';
import { ATTR, inSpan, SpanKind, tracingOn } from './tracing.js';

/**
 * The DynamoDB client: on AWS the default credential chain and the region's endpoint; given an
 * endpoint (`DYNAMODB_ENDPOINT`, dynalite's server in tests), that one with placeholder
 * credentials, which it does not check; given a transport, the embedded store in this process
 * (`bin/embedded-store.ts`). With tracing on, every call is a client span.
 */
export function createDynamoClient(config: Pick<Config, 'awsRegion'>, store?: string | StoreTransport): DynamoClient {
  const region = config.awsRegion;
  return new DynamoClient({
    region,
    ...(typeof store === 'function' ? { transport: store } : { endpoint: store }),
    around: tracingOn() ? (operation, input, send) => storeSpan(region, operation, input, send) : undefined,
  });
}

/**
 * One client span per store call (`DynamoDB.Query`, …) with the attributes of OpenTelemetry's AWS
 * SDK instrumentation (`rpc.*`, `db.*`, `aws.dynamodb.table_names`), made by the client itself
 * rather than by that instrumentation: it patches the SDK's modules as Node loads them,
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
