import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

/** Creates the table with its indexes unless it exists (local runtime and tests). */
export async function ensureTable(client: DynamoDBClient, name: string): Promise<void> {
  const status = await statusOf(client, name);
  // Created by another process a moment ago: still CREATING.
  if (status !== undefined) {
    await untilActive(client, name, status);
    return;
  }
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
      GlobalSecondaryIndexes: TABLE_KEY_SCHEMA.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  // The embedded store creates tables at once; another store (DynamoDB Local, a dynalite of its
  // own) may answer CREATING for a while.
  await untilActive(client, name, await statusOf(client, name));
}
