import { SCHEMA, type ScimListQuery } from './schemas.js';

/** A SCIM list answer (RFC 7644 §3.4.2): 1-based `startIndex`, `count` per page. */
export interface Page<T> {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
}

const DEFAULT_COUNT = 100;
export const MAX_COUNT = 200;

/** The page a query asks for: a `startIndex` below 1 is 1, a `count` below 0 is 0, above the maximum is the maximum. */
export function pageOf<I, T>(items: I[], query: Pick<ScimListQuery, 'startIndex' | 'count'>, view: (item: I) => T): Page<T> {
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const count = Math.min(MAX_COUNT, Math.max(0, query.count ?? DEFAULT_COUNT));
  const resources = items.slice(startIndex - 1, startIndex - 1 + count).map(view);
  return { schemas: [SCHEMA.list], totalResults: items.length, startIndex, itemsPerPage: resources.length, Resources: resources };
}
