import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { systemClock } from '../../shared/platform/clock.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { Table } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/** Items through `Table` (the SDK's document client) to a real store (dynalite on loopback) and back. */
let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
let client: DynamoDBClient;
let table: Table;

beforeAll(async () => {
  store = await startEmbeddedStore(null);
  client = createDynamoClient({ awsRegion: 'local' }, store.endpoint);
  await ensureTable(client, 'items-test');
  table = new Table(client, 'items-test', systemClock);
});

afterAll(async () => {
  client.destroy();
  await store.close();
});

class Point {
  constructor(
    readonly pk: string,
    readonly sk: string,
    readonly x: number,
  ) {}
}

describe('items through the table', () => {
  it('round-trips strings, numbers, sets, lists, maps, nulls and bytes through the store', async () => {
    const item = {
      pk: 'ITEMS',
      sk: 'ITEM',
      text: 'héllo ✓',
      count: 42,
      ratio: 0.125,
      flag: true,
      nothing: null,
      tags: new Set(['a', 'b']),
      numbers: new Set([1, 2]),
      list: [1, 'two', { three: 3 }],
      map: { inner: { deeper: 'yes' } },
      bytes: new Uint8Array([0, 255, 10]),
      byteSet: new Set([new Uint8Array([7]), new Uint8Array([8, 9])]),
    };
    await table.put(item);
    expect(await table.get({ pk: 'ITEMS', sk: 'ITEM' }, true)).toEqual(item);
    expect(await table.batchGet([{ pk: 'ITEMS', sk: 'ITEM' }])).toEqual([item]);
    const page = await table.query({ pk: 'ITEMS' });
    expect(page.items).toEqual([item]);
  });

  it('leaves attributes whose value is undefined out, at any depth', async () => {
    await table.put({ pk: 'ITEMS', sk: 'UNDEFINED', gone: undefined, nested: { kept: 1, gone: undefined } });
    expect(await table.get({ pk: 'ITEMS', sk: 'UNDEFINED' }, true)).toEqual({ pk: 'ITEMS', sk: 'UNDEFINED', nested: { kept: 1 } });
  });

  it('takes an item attribute by attribute, but refuses a class instance inside one', async () => {
    await table.put(new Point('ITEMS', 'POINT', 3));
    expect(await table.get({ pk: 'ITEMS', sk: 'POINT' }, true)).toEqual({ pk: 'ITEMS', sk: 'POINT', x: 3 });
    await expect(table.put({ pk: 'ITEMS', sk: 'NESTED', point: new Point('P', 'Q', 3) })).rejects.toThrow();
  });

  it('answers a page key as plain values, and takes it back to go on', async () => {
    await table.batchPut(['A', 'B', 'C'].map((sk) => ({ pk: 'PAGES', sk })));
    const first = await table.query({ pk: 'PAGES', limit: 2 });
    expect(first.items.map((item) => item.sk)).toEqual(['A', 'B']);
    expect(first.lastKey).toEqual({ pk: 'PAGES', sk: 'B' });
    const second = await table.query({ pk: 'PAGES', startKey: first.lastKey });
    expect(second.items.map((item) => item.sk)).toEqual(['C']);
    expect(await table.count({ pk: 'PAGES' })).toBe(3);
  });
});
