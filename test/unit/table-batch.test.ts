import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/platform/clock.js';
import { BatchIncompleteError, MAX_BATCH_RETRIES, Table } from '../../shared/platform/table.js';
import { clientOnFakeStore, type StoreCall } from '../support/fake-store.js';

/**
 * The table adapter's batch calls against a fake store on loopback that throttles them (leaves
 * items unprocessed), which dynalite never does.
 */
async function throttledTable(answer: (call: StoreCall) => unknown) {
  const store = await clientOnFakeStore((call) => ({ body: answer(call) }));
  return { table: new Table(store.client, 'tbl', systemClock), calls: store.calls };
}

describe('Table batch calls under sustained throttling', () => {
  it('retries the unprocessed items of a write a bounded number of times, with jitter, then fails naming what is left', async () => {
    const { table, calls } = await throttledTable((call) => ({ UnprocessedItems: call.input.RequestItems }));
    const items = [
      { pk: 'A', sk: '1' },
      { pk: 'A', sk: '2' },
    ];
    const failure = await table.batchPut(items).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchIncompleteError);
    expect((failure as Error).message).toBe(`the store left 2 items of a batch write unprocessed after ${MAX_BATCH_RETRIES} retries`);
    expect(calls).toHaveLength(MAX_BATCH_RETRIES + 1);
    // Each retry sends exactly what was left, in the store's typed form.
    expect(calls.every((call) => call.operation === 'BatchWriteItem')).toBe(true);
    expect(calls.at(-1)?.input).toEqual({
      RequestItems: { tbl: items.map((item) => ({ PutRequest: { Item: { pk: { S: item.pk }, sk: { S: item.sk } } } })) },
    });
  }, 30_000);

  it('retries unprocessed keys of a read and returns once they are processed', async () => {
    const { table, calls } = await throttledTable((call) => {
      if (calls.length < 3) return { Responses: { tbl: [] }, UnprocessedKeys: call.input.RequestItems };
      return { Responses: { tbl: [{ pk: { S: 'A' }, sk: { S: '1' }, value: { N: '7' } }] } };
    });
    expect(await table.batchGet([{ pk: 'A', sk: '1' }])).toEqual([{ pk: 'A', sk: '1', value: 7 }]);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.input).toEqual({ RequestItems: { tbl: { Keys: [{ pk: { S: 'A' }, sk: { S: '1' } }] } } });
  });
});
