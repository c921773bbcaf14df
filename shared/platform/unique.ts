import { putNew } from './updates.js';
import { nextSuffixUpdate } from './entities.js';
import type { Key, Table } from './table.js';

/**
 * Claims the first free identifier `base`, `base-2`, `base-3`… by conditional puts of `claim(id)`.
 * After `base` is taken, an atomic counter per base hands out the next suffix, so creating the
 * hundredth "Support" workspace costs a few round trips, not a hundred. A suffix can still be taken
 * (a name whose own slug is `support-2`); the loop then asks the counter again.
 */
export async function claimUniqueId(table: Table, namespace: string, base: string, claim: (id: string) => Key & object): Promise<string> {
  if (await putNew(table, claim(base))) return base;
  const { key, input } = nextSuffixUpdate(namespace, base);
  for (let attempt = 0; attempt < 25; attempt += 1) {
    const counter = await table.update<{ next: number }>(key, input);
    const candidate = `${base}-${counter.next + 1}`;
    if (await putNew(table, claim(candidate))) return candidate;
  }
  throw new Error(`could not find a free identifier for ${namespace} ${base}`);
}
