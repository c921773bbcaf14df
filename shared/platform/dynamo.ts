import type { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { dynamodb } from './aws-sdk.js';
import type { Config } from './config.js';
import { ATTR, inSpan, SpanKind, tracingOn } from './tracing.js';

const { DynamoDBClient } = dynamodb;

/**
 * The DynamoDB client: on AWS the default credential chain and region; locally (and in tests) the
 * embedded dynalite endpoint with placeholder credentials, which it does not check.
 */
export function createDynamoClient(config: Pick<Config, 'awsRegion'>, endpoint?: string): Client {
  const client = endpoint
    ? new DynamoDBClient({
        region: config.awsRegion,
        endpoint,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        // dynalite is on loopback: retries exist for the AWS case, keep them few and quick here.
        maxAttempts: 3,
      })
    : new DynamoDBClient({ region: config.awsRegion });
  // The client has no logger, yet this middleware copies every input and output through the
  // SDK's sensitive-field filter to hand them to it: about a tenth of the client's CPU per call.
  client.middlewareStack.remove('loggerMiddleware');
  if (!tracingOn()) return client;
  client.middlewareStack.add((next, context) => (args) => storeSpan(config.awsRegion, context.commandName, args.input, () => next(args)), {
    step: 'initialize',
    name: 'storeSpans',
  });
  return client;
}

/**
 * One client span per store call (`DynamoDB.Query`, …) with the attributes of OpenTelemetry's AWS
 * SDK instrumentation (`rpc.*`, `db.*`, `aws.dynamodb.table_names`), made by a middleware of the
 * client rather than by that instrumentation: it patches the SDK's modules as Node loads them,
 * which an esbuild bundle (every Lambda function) never does, so it would see no call there.
 */
function storeSpan<T>(region: string, commandName: string | undefined, request: object, send: () => Promise<T>): Promise<T> {
  const operation = String(commandName ?? 'Command').replace(/Command$/, '');
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
