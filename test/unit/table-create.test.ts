import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ListTablesCommand,
  QueryCommand,
  ScanCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { TABLE_KEY_SCHEMA } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';
import { withStore, type StoreClient } from '../support/embedded-store.js';

/**
 * `ensureTable` on a table of an earlier version (the local runtime's DATA_DIR after an upgrade):
 * the embedded store cannot add an index, so the table is rebuilt with every index of this version
 * and keeps every item; a rebuild stopped half-way is finished by the next start.
 */

type Client = StoreClient;
const NAME = 'rebuild-test';

/** The table as version 3 made it: gsi1–gsi3, all projecting whole items. */
async function createOldTable(client: Client, name: string): Promise<void> {
  const old = TABLE_KEY_SCHEMA.indexes.filter((index) => ['gsi1', 'gsi2', 'gsi3'].includes(index.name));
  const attribute = (AttributeName: string) => ({ AttributeName, AttributeType: 'S' as const });
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        attribute('pk'),
        attribute('sk'),
        ...old.flatMap((index) => [attribute(index.partitionKey), attribute(index.sortKey)]),
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: old.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
}

/** 61 items (three pages of batches): two conversations with due-index attributes (gsi4's, gsi5's) and a long title. */
function items(): Record<string, AttributeValue>[] {
  const plain = Array.from({ length: 59 }, (_, n) => ({ pk: { S: `P#${n % 3}` }, sk: { S: `item-${n}` }, n: { N: String(n) } }));
  const lazy = {
    pk: { S: 'CONV#org_a#ws-a#c2' },
    sk: { S: 'STATE' },
    id: { S: 'c2' },
    title: { S: 'y'.repeat(500) },
    due_at: { S: '2026-11-27T10:40:00.000Z' },
    gsi5pk: { S: 'DUE#open#3' },
    gsi5sk: { S: '2026-11-27T10:35:00.000Z' },
  };
  const conversation = {
    pk: { S: 'CONV#org_a#ws-a#c1' },
    sk: { S: 'STATE' },
    org_id: { S: 'org_a' },
    workspace_id: { S: 'ws-a' },
    id: { S: 'c1' },
    title: { S: 'x'.repeat(500) },
    last_activity_at: { S: '2026-11-27T10:00:00.000Z' },
    due_at: { S: '2026-11-27T10:30:00.000Z' },
    gsi4pk: { S: 'DUE#open#7' },
    gsi4sk: { S: '2026-11-27T10:30:00.000Z#org_a#ws-a#c1' },
  };
  return [...plain, conversation, lazy];
}

async function putAll(client: Client, name: string, all: Record<string, AttributeValue>[]): Promise<void> {
  for (let at = 0; at < all.length; at += 25) {
    await client.send(
      new BatchWriteItemCommand({ RequestItems: { [name]: all.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } })) } }),
    );
  }
}

async function scanAll(client: Client, name: string): Promise<Record<string, AttributeValue>[]> {
  const found: Record<string, AttributeValue>[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: name, ExclusiveStartKey: startKey, Limit: 7 }));
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
}

const byKey = (list: Record<string, AttributeValue>[]) =>
  [...list].sort((a, b) => `${a.pk?.S}${a.sk?.S}`.localeCompare(`${b.pk?.S}${b.sk?.S}`));

async function expectRebuilt(client: Client): Promise<void> {
  const { Table: table } = await client.send(new DescribeTableCommand({ TableName: NAME }));
  const projections = Object.fromEntries((table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.Projection]));
  expect(projections).toEqual({
    gsi1: { ProjectionType: 'ALL' },
    gsi2: { ProjectionType: 'ALL' },
    gsi3: { ProjectionType: 'ALL' },
    gsi4: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['org_id', 'workspace_id', 'id', 'last_activity_at', 'due_at'] },
    gsi5: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['org_id'] },
  });
  expect(byKey(await scanAll(client, NAME))).toEqual(byKey(items()));
  // The conversation is in the new index, with only what it projects.
  const due = await client.send(
    new QueryCommand({
      TableName: NAME,
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: 'DUE#open#7' } },
    }),
  );
  expect(due.Items).toEqual([
    {
      pk: { S: 'CONV#org_a#ws-a#c1' },
      sk: { S: 'STATE' },
      gsi4pk: { S: 'DUE#open#7' },
      gsi4sk: { S: '2026-11-27T10:30:00.000Z#org_a#ws-a#c1' },
      org_id: { S: 'org_a' },
      workspace_id: { S: 'ws-a' },
      id: { S: 'c1' },
      last_activity_at: { S: '2026-11-27T10:00:00.000Z' },
      due_at: { S: '2026-11-27T10:30:00.000Z' },
    },
  ]);
  // gsi5 carries the keys and the organisation (none here).
  const lazy = await client.send(
    new QueryCommand({
      TableName: NAME,
      IndexName: 'gsi5',
      KeyConditionExpression: 'gsi5pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: 'DUE#open#3' } },
    }),
  );
  expect(lazy.Items).toEqual([
    { pk: { S: 'CONV#org_a#ws-a#c2' }, sk: { S: 'STATE' }, gsi5pk: { S: 'DUE#open#3' }, gsi5sk: { S: '2026-11-27T10:35:00.000Z' } },
  ]);
  expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([NAME]);
}

describe('ensureTable on a table of an earlier version', () => {
  it('rebuilds it with the indexes of this version and keeps every item, on disk across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'table-rebuild-'));
    try {
      await withStore(dir, async (client) => {
        await createOldTable(client, NAME);
        await putAll(client, NAME, items());
      });
      const logged: string[] = [];
      await withStore(dir, async (client) => {
        await ensureTable(client, NAME, (message) => logged.push(message));
        await expectRebuilt(client);
      });
      expect(logged).toEqual([`rebuilding the table ${NAME} with the indexes of this version`, `table ${NAME} rebuilt: 61 items`]);
      // Reopened: the rebuilt table is there as it was left, and is not rebuilt again.
      const again: string[] = [];
      await withStore(dir, async (client) => {
        await ensureTable(client, NAME, (message) => again.push(message));
        await expectRebuilt(client);
      });
      expect(again).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finishes a rebuild stopped after the old table was deleted: the copy holds every item', async () => {
    await withStore(null, async (client) => {
      // Stopped after copying and deleting: only `<name>.rebuild` is left.
      await ensureTable(client, `${NAME}.rebuild`);
      await putAll(client, `${NAME}.rebuild`, items());
      await ensureTable(client, NAME);
      await expectRebuilt(client);
    });
  });

  it('finishes a rebuild stopped half-way through the first copy', async () => {
    await withStore(null, async (client) => {
      await createOldTable(client, NAME);
      await putAll(client, NAME, items());
      await ensureTable(client, `${NAME}.rebuild`);
      await putAll(client, `${NAME}.rebuild`, items().slice(0, 10));
      await ensureTable(client, NAME);
      await expectRebuilt(client);
    });
  });
});
