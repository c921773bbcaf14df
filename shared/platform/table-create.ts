import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  ScanCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { backOffBeforeRetry } from './table-batch.js';
import { TABLE_KEY_SCHEMA } from './table.js';

/** How long `ensureTable` waits for a table another store answers CREATING for. */
const ACTIVE_WITHIN_MS = 60_000;

/** The table's status, or undefined when there is no such table. */
async function statusOf(client: DynamoDBClient, name: string): Promise<string | undefined> {
  try {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: name }));
    return table?.TableStatus ?? 'CREATING';
  } catch (error) {
    if (error instanceof Error && error.name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

/** Waits until the table, now `status`, answers ACTIVE (a store other than the embedded one may take a while). */
async function untilActive(client: DynamoDBClient, name: string, status: string | undefined): Promise<void> {
  const deadline = Date.now() + ACTIVE_WITHIN_MS;
  while (status !== 'ACTIVE') {
    if (Date.now() > deadline) throw new Error(`the table ${name} was not ACTIVE within ${ACTIVE_WITHIN_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await statusOf(client, name);
  }
}

/** The table's index definitions (`TABLE_KEY_SCHEMA`), as CreateTable takes them. */
function indexDefinitions(): GlobalSecondaryIndex[] {
  return TABLE_KEY_SCHEMA.indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection:
      index.projection.type === 'INCLUDE'
        ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] }
        : { ProjectionType: index.projection.type },
  }));
}

async function createTable(client: DynamoDBClient, name: string): Promise<void> {
  const attribute = (AttributeName: string) => ({ AttributeName, AttributeType: 'S' as const });
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        attribute(TABLE_KEY_SCHEMA.partitionKey),
        attribute(TABLE_KEY_SCHEMA.sortKey),
        ...TABLE_KEY_SCHEMA.indexes.flatMap((index) => [attribute(index.partitionKey), attribute(index.sortKey)]),
      ],
      KeySchema: [
        { AttributeName: TABLE_KEY_SCHEMA.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEY_SCHEMA.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexDefinitions(),
    }),
  );
  // The embedded store creates tables at once; another store (DynamoDB Local, a dynalite of its
  // own) may answer CREATING for a while.
  await untilActive(client, name, await statusOf(client, name));
}

/** Whether the table has every index of this version, each with its projection. */
async function hasIndexes(client: DynamoDBClient, name: string): Promise<boolean> {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const found = new Map((table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  return indexDefinitions().every((wanted) => {
    const index = found.get(wanted.IndexName);
    const projection = index?.Projection;
    return (
      projection?.ProjectionType === wanted.Projection?.ProjectionType &&
      [...(projection?.NonKeyAttributes ?? [])].sort().join() === [...(wanted.Projection?.NonKeyAttributes ?? [])].sort().join()
    );
  });
}

/** Copies every item of `from` into `to` (puts: a copy repeated after a stop writes the same items). */
async function copyItems(client: DynamoDBClient, from: string, to: string): Promise<number> {
  let copied = 0;
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ExclusiveStartKey: startKey }));
    const items = page.Items ?? [];
    for (let at = 0; at < items.length; at += 25) {
      let requests: WriteRequest[] = items.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; requests.length; attempt += 1) {
        await backOffBeforeRetry(attempt, requests.length, 'write');
        const result = await client.send(new BatchWriteItemCommand({ RequestItems: { [to]: requests } }));
        requests = result.UnprocessedItems?.[to] ?? [];
      }
    }
    copied += items.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return copied;
}

async function deleteTable(client: DynamoDBClient, name: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: name }));
  const deadline = Date.now() + ACTIVE_WITHIN_MS;
  while ((await statusOf(client, name)) !== undefined) {
    if (Date.now() > deadline) throw new Error(`the table ${name} was not deleted within ${ACTIVE_WITHIN_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates the table with its indexes unless it exists (local runtime and tests). A table of an
 * earlier version that lacks an index, or has one with another projection, is rebuilt: the
 * embedded store cannot add an index to a table (on AWS the deploy adds it, lib/data.ts). Its items
 * are copied to `<name>.rebuild`, the table is created anew and the items copied back. Each step
 * is repeated safely, so a rebuild stopped half-way is finished at the next start: while
 * `<name>.rebuild` exists, it holds every item.
 */
export async function ensureTable(client: DynamoDBClient, name: string, log?: (message: string) => void): Promise<void> {
  const rebuild = `${name}.rebuild`;
  const status = await statusOf(client, name);
  // Created by another process a moment ago: still CREATING.
  if (status !== undefined) await untilActive(client, name, status);
  if (status !== undefined && !(await hasIndexes(client, name))) {
    log?.(`rebuilding the table ${name} with the indexes of this version`);
    if ((await statusOf(client, rebuild)) === undefined) await createTable(client, rebuild);
    await copyItems(client, name, rebuild);
    await deleteTable(client, name);
  }
  if ((await statusOf(client, name)) === undefined) await createTable(client, name);
  if ((await statusOf(client, rebuild)) !== undefined) {
    const copied = await copyItems(client, rebuild, name);
    await deleteTable(client, rebuild);
    log?.(`table ${name} rebuilt: ${copied} items`);
  }
}
