import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/platform/clock.js';
import { BatchIncompleteError, MAX_BATCH_RETRIES, Table } from '../../shared/platform/table.js';

/**
 * The table adapter's own unit test: its document client is mocked to throttle batch calls (leave
 * items unprocessed), which dynalite never does.
 */
function throttledTable(answer: (input: { RequestItems: Record<string, unknown> }) => unknown) {
  const table = new Table(new DynamoDBClient({ region: 'local', endpoint: 'http://127.0.0.1:1' }), 't', systemClock);
  const doc = mockClient(table.doc);
  doc.onAnyCommand().callsFake(answer);
  return { table, doc };
}

describe('Table batch calls under sustained throttling', () => {
  it('retries the unprocessed items of a write a bounded number of times, with jitter, then fails naming what is left', async () => {
    const { table, doc } = throttledTable((input) => ({ UnprocessedItems: input.RequestItems }));
    const items = [
      { pk: 'A', sk: '1' },
      { pk: 'A', sk: '2' },
    ];
    const failure = await table.batchPut(items).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchIncompleteError);
    expect((failure as Error).message).toBe(`the store left 2 items of a batch write unprocessed after ${MAX_BATCH_RETRIES} retries`);
    expect(doc.calls()).toHaveLength(MAX_BATCH_RETRIES + 1);
  }, 30_000);

  it('retries unprocessed keys of a read and returns once they are processed', async () => {
    let calls = 0;
    const { table } = throttledTable((input) => {
      calls += 1;
      if (calls < 3) return { Responses: { t: [] }, UnprocessedKeys: input.RequestItems };
      return { Responses: { t: [{ pk: 'A', sk: '1', value: 7 }] } };
    });
    expect(await table.batchGet([{ pk: 'A', sk: '1' }])).toEqual([{ pk: 'A', sk: '1', value: 7 }]);
    expect(calls).toBe(3);
  });
});
