import { createHash } from 'node:crypto';
import { cursorValue, invalidCursor, isKeyValue, keyNames, startKeyOf, withinSortCondition } from './pages.js';
import type { Pagination } from './pages.js';
import { indexAttributes, type QueryInput, type Table } from './table.js';

/*
 * Pages of a list written across shards: the same Query over several partitions (a workspace's
 * conversations or audit log, shared/platform/list-shards.ts), merged by sort key as if they were
 * one. The shards are read side by side, one round, each up to the page's size; a shard whose
 * read ran out before the page was full is read on (a filter that matched little). The cursor
 * holds each shard's place.
 */

const DEFAULT_PAGE_SIZE = 50;

type Input = Omit<QueryInput, 'limit' | 'startKey'>;
type Row = Record<string, unknown>;

export interface ShardedPage<T> {
  items: T[];
  /** Opaque cursor for the page after this one; null on the last page. */
  nextCursor: string | null;
  /** The cursor of the page that starts after `item` (one of `items`): a list that pages itself, such as a search. */
  cursorAfter(item: T): string | null;
}

/** Where a shard's reading stands: not begun (`null`), read to its end (`0`), or on after this key. */
type Place = Row | null | 0;

interface Shard<T> {
  input: Input;
  /** Where this page began in the shard. */
  from: Place;
  /** Where its reading goes on: `from`, then each read's last key; 0 once it has no more. */
  next: Place;
  buffer: T[];
  /** How many reads of it this page made: each reads on twice as far (a filter that matches little). */
  reads: number;
}

/** The sort key the merge orders by: the index's, else the table's. */
function sortValue(row: Row, index: QueryInput['index']): string {
  return String(row[index ? indexAttributes(index)[1] : 'sk'] ?? '');
}

/** Which list a cursor belongs to: a digest of the partitions it reads (a cursor of another list is refused). */
function listOf(inputs: Input[]): string {
  return createHash('sha256')
    .update(inputs.map((input) => `${input.index ?? ''}:${input.pk}`).join('\n'))
    .digest('base64url')
    .slice(0, 12);
}

/** The read's partition attribute, and the other key attributes a shard's place holds (in `keyNames` order). */
function placeNames(index: QueryInput['index']) {
  const partition = index ? indexAttributes(index)[0] : 'pk';
  return { partition, names: keyNames(index).filter((name) => name !== partition) };
}

/** A cursor: its list, and each shard's place as its key values in `keyNames` order (the read's partition name left out: the shard's own). */
function encodeCursor(inputs: Input[], places: Place[], index: QueryInput['index']): string {
  const { names } = placeNames(index);
  const encoded = places.map((place) => (place === null || place === 0 ? place : names.map((name) => place[name])));
  return Buffer.from(JSON.stringify({ l: listOf(inputs), s: encoded })).toString('base64url');
}

/** A cursor is accepted only for the list it came from; its places are read in this list's own partitions whatever it holds. */
function decodeCursor(cursor: string, inputs: Input[]): Place[] {
  const { l: list, s: places } = (cursorValue(cursor) ?? {}) as { l?: unknown; s?: unknown };
  if (list !== listOf(inputs) || !Array.isArray(places) || places.length !== inputs.length) throw invalidCursor();
  return places.map((place, at) => {
    if (place === null || place === 0) return place;
    const input = inputs[at] as Input;
    const { partition, names } = placeNames(input.index);
    // Key values DynamoDB would refuse (empty, or longer than its key limits) are not cursors of ours.
    if (!Array.isArray(place) || place.length !== names.length || !place.every((value, i) => isKeyValue(value, names[i] ?? '')))
      throw invalidCursor();
    const key: Row = Object.fromEntries(names.map((name, i) => [name, place[i]]));
    key[partition] = input.pk;
    // The table's partition of an index entry is not the index's: only the read's own is checked, as before.
    if (!input.index && !withinSortCondition(String(key.sk), input.sk)) throw invalidCursor();
    return key;
  });
}

/** The shard whose first item in hand comes next in the list's order (the first such shard on a tie); -1 when none has one. */
function nextShard<T extends Row>(shards: Shard<T>[], index: QueryInput['index'], descending: boolean): number {
  let best = -1;
  for (const [at, shard] of shards.entries()) {
    const head = shard.buffer[0];
    const current = shards[best]?.buffer[0];
    if (!head) continue;
    if (!current) {
      best = at;
      continue;
    }
    const order = sortValue(head, index).localeCompare(sortValue(current, index));
    if (descending ? order > 0 : order < 0) best = at;
  }
  return best;
}

/** What bounds a filtered page's reads. */
export interface ShardedReadBounds {
  /** The items the store reads for the page at most, over all shards: then the page ends with what could be placed, and its cursor goes on from there. */
  maxRead?: number;
  /**
   * How many items of the whole list pass the filter, when a counter knows it: a page read from
   * the list's start (no cursor) that has placed that many reads no further. Awaited only before a
   * second round of reads, so it may come from a read sent alongside the first.
   */
  matches?: Promise<number | undefined>;
}

/**
 * One page of a Query over `inputs` (the same Query on each shard's partition), merged by sort key
 * in the order the inputs ask (`newestFirst`), by `offset` or by `cursor` as `readPage` (pages.ts).
 * Reads each shard up to the page's size plus one, side by side; reads a shard on, in another
 * round and twice as far each time, only when the page needs more of it than its read gave (a
 * filter that matched little), within `bounds`.
 */
export async function readShardedPage<T extends Row>(
  table: Table,
  inputs: Input[],
  page: Pagination,
  bounds: ShardedReadBounds = {},
): Promise<ShardedPage<T>> {
  const first = inputs[0];
  if (!first) throw new Error('a sharded list needs at least one shard');
  const { index } = first;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const skip = page.cursor ? 0 : (page.offset ?? 0);
  const starts = page.cursor ? decodeCursor(page.cursor, inputs) : inputs.map(() => null);
  const shards: Shard<T>[] = inputs.map((input, at) => ({
    input,
    from: starts[at] ?? null,
    next: starts[at] ?? null,
    buffer: [],
    reads: 0,
  }));
  const merge: Merge = {
    index,
    descending: first.newestFirst === true,
    wanted: skip + limit + 1,
    maxRead: bounds.maxRead ?? Number.POSITIVE_INFINITY,
    // A count of the whole list's matches says when all are placed only for a page read from its start.
    matches: page.cursor ? undefined : bounds.matches,
  };
  const { placed, stoppedShort } = await placeInOrder(table, shards, merge);
  /** Each shard's place after the first `count` placed items. */
  const placesAfter = (count: number): Place[] =>
    shards.map((shard, at) => {
      const last = placed.slice(0, count).findLast((entry) => entry.shard === at);
      const laterOfIt = placed.slice(count).some((entry) => entry.shard === at) || shard.buffer.length > 0;
      if (!laterOfIt && shard.next === 0) return 0;
      if (last) return startKeyOf(last.item, index);
      // Nothing of it placed: where its reading stands when all it read was placed or filtered out, else where it began.
      return laterOfIt ? shard.from : shard.next;
    });
  const pageItems = placed.slice(skip, skip + limit).map((entry) => entry.item);
  const more = placed.length > skip + limit || stoppedShort;
  const nextCursor = more ? encodeCursor(inputs, placesAfter(Math.min(placed.length, skip + limit)), index) : null;
  const cursorAfter = (item: T) => {
    const at = placed.findIndex((entry) => entry.item === item);
    if (at < 0) return nextCursor;
    const places = placesAfter(at + 1);
    return places.every((place) => place === 0) ? null : encodeCursor(inputs, places, index);
  };
  return { items: pageItems, nextCursor, cursorAfter };
}

/** How a page's shards are merged: their order, how many items it places, and its bounds. */
interface Merge {
  index: QueryInput['index'];
  descending: boolean;
  /** The page's items (from the start or the cursor), then one more to know a next page exists. */
  wanted: number;
  maxRead: number;
  matches: Promise<number | undefined> | undefined;
}

/**
 * Whether a shard with nothing in hand might still hold an item that comes before `ahead` (the
 * best in hand elsewhere): not begun, or its reading stopped (a filter's read ends at the last key
 * it looked at, matched or not) no further than `ahead`'s sort key.
 */
function mayHoldNext<T extends Row>(shard: Shard<T>, ahead: T | undefined, { index, descending }: Merge): boolean {
  const { next } = shard;
  if (shard.buffer.length > 0 || next === 0) return false;
  if (next === null || ahead === undefined) return true;
  const order = sortValue(next, index).localeCompare(sortValue(ahead, index));
  return descending ? order >= 0 : order <= 0;
}

/** Places the shards' items in the list's order, reading each on as the merge needs it, up to `wanted` or a bound. */
async function placeInOrder<T extends Row>(table: Table, shards: Shard<T>[], merge: Merge) {
  const { index, descending, wanted, maxRead } = merge;
  const placed: { item: T; shard: number }[] = [];
  let read = 0;
  const readOn = async (which: Shard<T>[]) => {
    await Promise.all(
      which.map(async (shard) => {
        const share = Math.ceil((maxRead - read) / which.length);
        const step = Math.max(1, Math.min((wanted - placed.length) * 2 ** shard.reads, 1000, share));
        shard.reads += 1;
        const startKey = shard.next === null || shard.next === 0 ? undefined : shard.next;
        const result = await table.query<T>({ ...shard.input, startKey, limit: step });
        read += step;
        shard.buffer.push(...result.items);
        shard.next = result.lastKey ?? 0;
      }),
    );
  };
  while (placed.length < wanted) {
    const best = nextShard(shards, index, descending);
    const starved = shards.filter((shard) => mayHoldNext(shard, shards[best]?.buffer[0], merge));
    if (starved.length) {
      // A shard with more to read and nothing in hand might hold the next item: read it on first.
      if (read > 0 && merge.matches) {
        const matches = await merge.matches;
        // Every item that passes the filter is placed: nothing further would be.
        if (matches !== undefined && placed.length >= matches) break;
      }
      if (read >= maxRead) return { placed, stoppedShort: true };
      await readOn(starved);
      continue;
    }
    const chosen = shards[best];
    const item = chosen?.buffer.shift();
    if (!chosen || !item) break;
    placed.push({ item, shard: best });
  }
  return { placed, stoppedShort: false };
}

/** How many items of every shard pass the Query's filter: COUNT Queries side by side, summed. */
export async function countShards(table: Table, inputs: Input[]): Promise<number> {
  const counts = await Promise.all(inputs.map((input) => table.count(input)));
  return counts.reduce((sum, count) => sum + count, 0);
}
