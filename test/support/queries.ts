import type { Key, QueryInput } from '../../shared/platform/table.js';

/** Whether a Query of the table takes the item of this key, as DynamoDB's key condition would. */
export function queryTakes(query: QueryInput, key: Key): boolean {
  if (query.index) throw new Error(`queryTakes compares a table's keys, not an index's (${query.index})`);
  const sk = query.sk;
  if (key.pk !== query.pk) return false;
  if (!sk) return true;
  if ('beginsWith' in sk) return key.sk.startsWith(sk.beginsWith);
  if ('between' in sk) return key.sk >= sk.between[0] && key.sk <= sk.between[1];
  if ('gte' in sk) return key.sk >= sk.gte;
  return key.sk <= sk.lte;
}
