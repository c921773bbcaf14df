import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { systemClock } from '../../shared/platform/clock.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { ValidationError } from '../../shared/platform/errors.js';
import { listShardOf, shardKey, shardKeys } from '../../shared/platform/list-shards.js';
import { readShardedPage } from '../../shared/platform/sharded-pages.js';
import { Table, type Item } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/**
 * A list written across shards and read merged (platform/sharded-pages.ts), on an embedded store:
 * conversations of one workspace in the gsi1 shards of `WSCONV#o#w`, by their last activity, many
 * at the same instant (an index's sort keys need not be unique).
 */

let embedded: Awaited<ReturnType<typeof startEmbeddedStore>>;
let client: DynamoDBClient;
let table: Table;

const BASE = 'WSCONV#o#w';
/** 60 conversations: every third one shares its instant with the one before; every fourth is `cold`. */
const conversations = Array.from({ length: 60 }, (_, n) => {
  const id = `c${String(n).padStart(3, '0')}`;
  const at = new Date(Date.UTC(2026, 10, 1, 0, 0, n - (n % 3 === 2 ? 1 : 0))).toISOString();
  return { id, at, status: n % 4 === 0 ? 'cold' : 'open' };
});
const inputs = (filter?: boolean) =>
  shardKeys(BASE).map((pk) => ({
    index: 'listings' as const,
    pk,
    newestFirst: true,
    ...(filter ? { filter: '#status = :cold', names: { '#status': 'status' }, values: { ':cold': 'cold' } } : {}),
  }));
/** The merged order: newest first; among equal instants, any order, so compared as sets per instant. */
const byInstant = (items: { at: string; id: string }[]) => {
  const groups = new Map<string, string[]>();
  for (const item of items) groups.set(item.at, [...(groups.get(item.at) ?? []), item.id].sort());
  return [...groups.entries()];
};
const expected = (only?: (c: (typeof conversations)[number]) => boolean) =>
  byInstant([...conversations.filter(only ?? (() => true))].sort((a, b) => b.at.localeCompare(a.at)));

async function pageThrough(limit: number, filter = false, maxRead?: number) {
  const seen: { id: string; at: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await readShardedPage<Item>(table, inputs(filter), { limit, cursor }, { maxRead });
    seen.push(...page.items.map((item) => ({ id: String(item.id), at: String(item.gsi1sk) })));
    cursor = page.nextCursor ?? undefined;
    pages += 1;
    expect(pages).toBeLessThan(200);
  } while (cursor);
  return { seen, pages };
}

beforeAll(async () => {
  embedded = await startEmbeddedStore(null);
  client = createDynamoClient({ awsRegion: 'local' }, embedded.endpoint);
  await ensureTable(client, 'sharded');
  table = new Table(client, 'sharded', systemClock);
  await table.batchPut(
    conversations.map(({ id, at, status }) => ({
      pk: `CONV#o#w#${id}`,
      sk: 'STATE',
      id,
      status,
      gsi1pk: shardKey(BASE, listShardOf(id)),
      gsi1sk: at,
    })),
  );
});

afterAll(async () => {
  client.destroy();
  await embedded.close();
});

describe('readShardedPage', () => {
  it('writes the test list across every shard', async () => {
    const counts = await Promise.all(inputs().map((input) => table.count(input)));
    expect(counts.every((count) => count > 0)).toBe(true);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(60);
  });

  for (const limit of [1, 7, 25, 60, 200]) {
    it(`pages through the merged list ${limit} at a time: newest first, none twice, none left out`, async () => {
      const { seen, pages } = await pageThrough(limit);
      expect(new Set(seen.map((item) => item.id)).size).toBe(60);
      expect(byInstant(seen)).toEqual(expected());
      expect(pages).toBe(Math.max(1, Math.ceil(60 / limit)));
    });
  }

  it('skips by offset as the merged list would', async () => {
    const all = (await readShardedPage<Item>(table, inputs(), { limit: 60 })).items.map((item) => item.id);
    const page = await readShardedPage<Item>(table, inputs(), { limit: 10, offset: 23 });
    expect(page.items.map((item) => item.id)).toEqual(all.slice(23, 33));
    expect(page.nextCursor).not.toBeNull();
    const beyond = await readShardedPage<Item>(table, inputs(), { limit: 10, offset: 60 });
    expect(beyond.items).toEqual([]);
    expect(beyond.nextCursor).toBeNull();
  });

  it('pages through a filter that matches few, within a bound on what a page reads', async () => {
    const { seen } = await pageThrough(4, true, 8);
    expect(byInstant(seen)).toEqual(expected((c) => c.status === 'cold'));
    const unbounded = await pageThrough(4, true);
    expect(byInstant(unbounded.seen)).toEqual(expected((c) => c.status === 'cold'));
  });

  it('gives the cursor after any item of a page: the list goes on right after it', async () => {
    const first = await readShardedPage<Item>(table, inputs(), { limit: 20 });
    const pivot = first.items[11];
    if (!pivot) throw new Error('no item 11');
    const after = first.cursorAfter(pivot);
    if (!after) throw new Error('no cursor');
    const next = await readShardedPage<Item>(table, inputs(), { limit: 5, cursor: after });
    expect(next.items.map((item) => item.id)).toEqual(first.items.slice(12, 17).map((item) => item.id));
  });

  it('refuses what is not one of its cursors with a 400, another list’s among them', async () => {
    const refuse = async (cursor: string) => expect(readShardedPage(table, inputs(), { cursor })).rejects.toBeInstanceOf(ValidationError);
    await refuse('not base64 json');
    const own = (await readShardedPage<Item>(table, inputs(), { limit: 1 })).nextCursor ?? '';
    const { l } = JSON.parse(Buffer.from(own, 'base64url').toString()) as { l: string };
    await refuse(Buffer.from(JSON.stringify({ l, s: [null, null] })).toString('base64url'));
    await refuse(Buffer.from(JSON.stringify({ l, s: [['', 'x', 'y'], null, null, null] })).toString('base64url'));
    await refuse(Buffer.from(JSON.stringify({ l: 'another list', s: [null, null, null, null] })).toString('base64url'));
    await refuse(Buffer.from(JSON.stringify({ pk: 'x', sk: 'y' })).toString('base64url'));
    // A cursor of another workspace's list.
    const other = shardKeys('WSCONV#o#other').map((pk) => ({ index: 'listings' as const, pk, newestFirst: true }));
    await table.batchPut(
      ['x', 'y'].map((id, n) => ({
        pk: `CONV#o#other#${id}`,
        sk: 'STATE',
        id,
        gsi1pk: 'WSCONV#o#other',
        gsi1sk: `2026-11-01T00:00:3${n}.000Z`,
      })),
    );
    const theirs = await readShardedPage<Item>(table, other, { limit: 1 });
    expect(theirs.items.map((item) => item.id)).toEqual(['y']);
    expect(theirs.nextCursor).not.toBeNull();
    await refuse(theirs.nextCursor ?? '');
  });
});

describe('readShardedPage, a filter that matches little', () => {
  /** The table, counting the Queries sent through it. */
  function counting() {
    const counter = { queries: 0, table: Object.create(table) as Table };
    counter.table.query = (input) => {
      counter.queries += 1;
      return table.query(input);
    };
    return counter;
  }
  const byId = (operator: string, id: string) =>
    inputs().map((input) => ({ ...input, filter: `#id ${operator} :id`, names: { '#id': 'id' }, values: { ':id': id } }));

  it('stops reading once it has placed every match a counter knows of', async () => {
    // The 5 newest conversations: the head of the list, as open conversations are in gsi1.
    const newest = byId('>=', 'c055');
    const unbounded = counting();
    const all = await readShardedPage<Item>(unbounded.table, newest, { limit: 10 });
    const ids = (items: Item[]) => items.map((item) => String(item.id)).sort();
    expect(ids(all.items)).toEqual(['c055', 'c056', 'c057', 'c058', 'c059']);
    expect(all.nextCursor).toBeNull();
    // Without a count, every shard is read to its end to be sure nothing further matches.
    expect(unbounded.queries).toBeGreaterThan(4);

    const known = counting();
    const page = await readShardedPage<Item>(known.table, newest, { limit: 10 }, { matches: Promise.resolve(5) });
    expect(ids(page.items)).toEqual(ids(all.items));
    expect(page.nextCursor).toBeNull();
    expect(known.queries).toBe(4);

    // A count it cannot use: none, or one too high, reads on as before and finds the same.
    for (const matches of [undefined, 6]) {
      const other = counting();
      const read = await readShardedPage<Item>(other.table, newest, { limit: 10 }, { matches: Promise.resolve(matches) });
      expect(ids(read.items)).toEqual(ids(page.items));
      expect(other.queries).toBe(unbounded.queries);
    }
  });

  it('reads a shard on twice as far each round', async () => {
    // The oldest conversation alone matches: each shard (about 15 items) is read 2, 4, 8, then 16 at a time.
    const oldest = counting();
    const page = await readShardedPage<Item>(oldest.table, byId('=', 'c000'), { limit: 1 });
    expect(page.items.map((item) => item.id)).toEqual(['c000']);
    expect(oldest.queries).toBeLessThanOrEqual(16);
    expect(oldest.queries).toBeGreaterThan(4);
  });
});
