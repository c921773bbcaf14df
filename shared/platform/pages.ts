import { ValidationError } from './errors.js';
import type { Pagination } from '../http/schemas.js';
import type { QueryInput, Table } from './table.js';

const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the page after this one; null on the last page. */
  nextCursor: string | null;
}

function keyNames(index: QueryInput['index']): string[] {
  return index ? ['pk', 'sk', `${index}pk`, `${index}sk`] : ['pk', 'sk'];
}

function encodeCursor(item: Record<string, unknown>, index: QueryInput['index']): string {
  const key = Object.fromEntries(keyNames(index).map((name) => [name, item[name]]));
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A cursor is accepted only for the partition being read, so one cannot page into another tenant's data. */
function decodeCursor(cursor: string, input: QueryInput): Record<string, unknown> {
  const invalid = () => new ValidationError('invalid query string', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw invalid();
  const record = key as Record<string, unknown>;
  const names = keyNames(input.index);
  // Key values DynamoDB would refuse (empty, or longer than its key limits) are not cursors of ours.
  const valid = (name: string) => {
    const value = record[name];
    return typeof value === 'string' && value.length > 0 && Buffer.byteLength(value) <= (name.endsWith('sk') ? 1024 : 2048);
  };
  if (Object.keys(record).length !== names.length || !names.every(valid)) throw invalid();
  const partitionName = input.index ? `${input.index}pk` : 'pk';
  if (record[partitionName] !== input.pk) throw invalid();
  return record;
}

/**
 * One page of a Query, by `offset` or by `cursor` (pagination: docs/api-decisions.md, Conventions
 * and errors). Reads one item more than asked to know whether a next page exists. Offsets are
 * skipped by reading past them, so deep pages should use the cursor, which costs the same at any
 * depth.
 */
export async function readPage<T extends Record<string, unknown>>(
  table: Table,
  input: Omit<QueryInput, 'limit' | 'startKey'>,
  page: Pagination,
): Promise<Page<T>> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const skip = page.cursor ? 0 : (page.offset ?? 0);
  let startKey = page.cursor ? decodeCursor(page.cursor, { ...input }) : undefined;
  const wanted = skip + limit + 1;
  const items: T[] = [];
  do {
    const result = await table.query<T>({ ...input, startKey, limit: Math.min(wanted - items.length, 1000) });
    items.push(...result.items);
    startKey = result.lastKey;
  } while (startKey && items.length < wanted);
  const pageItems = items.slice(skip, skip + limit);
  const last = pageItems.at(-1);
  const hasMore = items.length > skip + limit;
  return { items: pageItems, nextCursor: hasMore && last ? encodeCursor(last, input.index) : null };
}
