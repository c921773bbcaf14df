import { ValidationError } from './errors.js';
import { indexAttributes, type QueryInput, type Table } from './table.js';

/** A page asked for: how many items, from where (`offset`, or the opaque `cursor` of the page before). The query string's `PaginationQuery` (http/schemas.ts) reads as one. */
export interface Pagination {
  limit?: number;
  offset?: number;
  cursor?: string;
}

const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the page after this one; null on the last page. */
  nextCursor: string | null;
}

/** The key attributes a Query's start key names: the table's, and the index's when it reads one. */
export function keyNames(index: QueryInput['index']): string[] {
  return index ? ['pk', 'sk', ...indexAttributes(index)] : ['pk', 'sk'];
}

/** An item's start key for a Query of `index` (or of the table). */
export function startKeyOf(item: Record<string, unknown>, index: QueryInput['index']): Record<string, unknown> {
  return Object.fromEntries(keyNames(index).map((name) => [name, item[name]]));
}

/** The cursor of the page after `item`. */
function cursorOf(item: Record<string, unknown>, index: QueryInput['index']): string {
  return Buffer.from(JSON.stringify(startKeyOf(item, index))).toString('base64url');
}

/** The 400 of a cursor that is not one of the list being read. */
export const invalidCursor = () =>
  new ValidationError('invalid query string', [{ path: 'cursor', message: 'is not a cursor of this list' }]);

/** What a cursor holds (base64url JSON), or the 400 of `invalidCursor` when it holds none. */
export function cursorValue(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
}

/** A cursor is accepted only for the partition being read, so one cannot page into another tenant's data. */
function decodeCursor(cursor: string, input: QueryInput): Record<string, unknown> {
  const key = cursorValue(cursor);
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw invalidCursor();
  const record = key as Record<string, unknown>;
  const names = keyNames(input.index);
  // Key values DynamoDB would refuse (empty, or longer than its key limits) are not cursors of ours.
  if (Object.keys(record).length !== names.length || !names.every((name) => isKeyValue(record[name], name))) throw invalidCursor();
  const partitionName = input.index ? indexAttributes(input.index)[0] : 'pk';
  if (record[partitionName] !== input.pk) throw invalidCursor();
  // A cursor of the same list read for other days (the store refuses a start key outside the condition).
  if (!input.index && !withinSortCondition(String(record.sk), input.sk)) throw invalidCursor();
  return record;
}

/** A key value DynamoDB would take for `name`: not empty, within its key limits (a cursor's values must be). */
export function isKeyValue(value: unknown, name: string): boolean {
  return typeof value === 'string' && value.length > 0 && Buffer.byteLength(value) <= (name.endsWith('sk') ? 1024 : 2048);
}

/** Whether a sort key lies within a Query's sort-key condition (a start key outside it is refused by the store). */
export function withinSortCondition(sk: string, condition: QueryInput['sk']): boolean {
  if (!condition) return true;
  if ('between' in condition) return sk >= condition.between[0] && sk <= condition.between[1];
  if ('gte' in condition) return sk >= condition.gte;
  if ('lte' in condition) return sk <= condition.lte;
  return sk.startsWith(condition.beginsWith);
}

/**
 * One page of a Query, by `offset` or by `cursor` (pagination: docs/api-decisions.md, Conventions
 * and errors). Reads one item more than asked to know whether a next page exists. Offsets are
 * skipped by reading past them, so deep pages should use the cursor, which costs the same at any
 * depth.
 *
 * With a filter, `maxRead` bounds the items the store reads for the page (its `Limit` counts
 * items before the filter): once that many were read, the page ends with what matched, perhaps
 * fewer than asked or none, and its cursor goes on from the last item read.
 */
export async function readPage<T extends Record<string, unknown>>(
  table: Table,
  input: Omit<QueryInput, 'limit' | 'startKey'>,
  page: Pagination,
  maxRead = Number.POSITIVE_INFINITY,
): Promise<Page<T>> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const skip = page.cursor ? 0 : (page.offset ?? 0);
  let startKey = page.cursor ? decodeCursor(page.cursor, { ...input }) : undefined;
  const wanted = skip + limit + 1;
  const items: T[] = [];
  let read = 0;
  do {
    const step = Math.min(wanted - items.length, 1000, maxRead - read);
    const result = await table.query<T>({ ...input, startKey, limit: step });
    read += step;
    items.push(...result.items);
    startKey = result.lastKey;
  } while (startKey && items.length < wanted && read < maxRead);
  const pageItems = items.slice(skip, skip + limit);
  const last = pageItems.at(-1);
  if (items.length > skip + limit) return { items: pageItems, nextCursor: last ? cursorOf(last, input.index) : null };
  // Read up to the bound with more to read: the next page goes on after the last item read.
  return { items: pageItems, nextCursor: startKey ? cursorOf(startKey, input.index) : null };
}
