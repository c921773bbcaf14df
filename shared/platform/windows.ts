import { windowUpdate } from './entities.js';
import type { Key, Table } from './table.js';

/**
 * Adds `delta` to the count of a fixed-window counter item (one atomic ADD, so parallel callers
 * each see a distinct total) and answers the new total. The item expires with its window: `ttl`
 * removes it on AWS, and readers treat an item past its `ttl` as absent. Rate limits of queries,
 * logins and sign-ups all count this way.
 */
export async function addToWindow(table: Table, key: Key, delta: number, expiresAtSeconds: number): Promise<number> {
  const { input } = windowUpdate(key, delta, expiresAtSeconds);
  const counted = await table.update<{ count?: number }>(key, input);
  return counted.count ?? 0;
}
