import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { systemClock } from '../../shared/platform/clock.js';
import { DynamoClient } from '../../shared/platform/store-http.js';
import { Table } from '../../shared/platform/table.js';
import { fromStore, toStore } from '../../shared/platform/table-codec.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/** Items to and from the store's typed JSON, and through a real store (dynalite on loopback). */
let store: Awaited<ReturnType<typeof startEmbeddedStore>>;
let client: DynamoClient;
let table: Table;

beforeAll(async () => {
  store = await startEmbeddedStore(null);
  client = new DynamoClient({ region: 'local', endpoint: store.endpoint });
  await ensureTable(client, 'codec-test');
  table = new Table(client, 'codec-test', systemClock);
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

describe('the table codec', () => {
  it('writes bytes as base64 in the JSON, at any depth, and leaves attributes whose value is undefined out', () => {
    const stored = toStore({ pk: 'A', sk: 'B', blob: Buffer.from('hi'), nested: { list: [new Uint8Array([1, 2])] }, gone: undefined });
    expect(stored).toEqual({
      pk: { S: 'A' },
      sk: { S: 'B' },
      blob: { B: 'aGk=' },
      nested: { M: { list: { L: [{ B: 'AQI=' }] } } },
    });
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    expect(fromStore(JSON.parse(JSON.stringify(stored)))).toEqual({
      pk: 'A',
      sk: 'B',
      blob: new Uint8Array(Buffer.from('hi')),
      nested: { list: [new Uint8Array([1, 2])] },
    });
  });

  it('takes an item attribute by attribute, as the document client did, but refuses a class instance inside one', () => {
    expect(toStore(new Point('P', 'Q', 3))).toEqual({ pk: { S: 'P' }, sk: { S: 'Q' }, x: { N: '3' } });
    expect(() => toStore({ pk: 'P', sk: 'Q', point: new Point('P', 'Q', 3) })).toThrow();
  });

  it('round-trips strings, numbers, sets, lists, maps, nulls and bytes through the store', async () => {
    const item = {
      pk: 'CODEC',
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
    expect(await table.get({ pk: 'CODEC', sk: 'ITEM' }, true)).toEqual(item);
    expect(await table.batchGet([{ pk: 'CODEC', sk: 'ITEM' }])).toEqual([item]);
    const page = await table.query({ pk: 'CODEC' });
    expect(page.items).toEqual([item]);
  });
});
