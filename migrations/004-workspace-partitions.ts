import { isToolItem, toolSchemaTextUpdate } from '../shared/connections/entities.js';
import { guardrailPatternUpdate, isGuardrailItem } from '../shared/guardrails/entities.js';
import { PRESETS } from '../shared/guardrails/patterns.js';
import { monthOf } from '../shared/platform/clock.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { conditionHeld, type Item, type Key, type Table, type UpdateInput } from '../shared/platform/table.js';
import { isWorkspaceItem, workspacePartitionItems } from '../shared/workspaces/entities.js';
import { counterKey, counterShardsOf, countersRemoval, foldedCountersUpdate } from '../shared/workspaces/usage-entities.js';

/*
 * 004: the items of a workspace's partition in the shape this version reads.
 * - A workspace created before issue 35 holds its counters as they stood then (`month#…`,
 *   `total#…`, conversations, `status#…`, ratings, approvals…), which readers added to its counter
 *   items: they are added to a counter item (shard 0; a month's usage to that month's item, the
 *   rest to the item of the month the migration runs in, which this month's readers read as they
 *   read the workspace item), then taken off the workspace item.
 * - A tool cached by a version that stored its input schema as a map has it as JSON text.
 * - A guardrail made from the phone number preset before guardrails ran on RE2 keeps that
 *   preset's pattern, with a lookbehind RE2 refuses (it was read as the new preset): it has the
 *   new preset's pattern, whose compiled steps its workspace already counts.
 * Each write is conditional (a counter item counts a workspace once: `folded`; those without a
 * month, which go to the month of the run, once in any month), so a run that stops half-way is run
 * again.
 */

/** The phone number preset's pattern before guardrails ran on RE2. */
const PHONE_PATTERN_BEFORE = '(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)';

/** Counters the workspace item held without a `#` in their name (the others all have one). */
const PLAIN_COUNTERS = new Set(['conversations', 'gaps', 'violations', 'sentiment_sum', 'sentiment_count']);

/** The counters a workspace item holds from before issue 35 (numeric, named as counters are). */
function countersHeld(item: Item): [string, number][] {
  return Object.entries(item).flatMap(([name, value]) =>
    typeof value === 'number' && (name.includes('#') || PLAIN_COUNTERS.has(name)) ? [[name, value]] : [],
  );
}

/** Counters by the month whose item they go to: a month's usage (`month#<YYYY-MM>#…`) to its own, the rest to `now`'s. */
function byMonth(counters: [string, number][], now: string): Map<string, Record<string, number>> {
  const months = new Map<string, Record<string, number>>();
  for (const [name, value] of counters) {
    const month = /^month#(\d{4}-\d{2})#/.exec(name)?.[1] ?? now;
    months.set(month, { ...months.get(month), [name]: value });
  }
  return months;
}

/** Writes a conditional update; false when its condition no longer held (written already, or gone). */
const written = (table: Table, change: { key: Key; input: UpdateInput }) => conditionHeld(table.update(change.key, change.input));

/** What became of an item: rewritten, left as it was (it could not be), or of this version already. */
type Outcome = 'moved' | 'left' | 'current';

const outcomeOf = (wrote: boolean): Outcome => (wrote ? 'moved' : 'current');

/** Whether a run before folded the workspace item `source` into one of its counter items (shard 0, any month). */
async function foldedBefore(table: Table, orgId: string, workspaceId: string, source: string): Promise<boolean> {
  const [shard] = counterShardsOf(orgId, workspaceId);
  if (!shard) return false;
  const counters = await table.queryAll<{ folded?: unknown }>({ ...shard, consistent: true });
  return counters.some((counter) => counter.folded instanceof Set && counter.folded.has(source));
}

/** Moves a workspace item's counters of before to its counter items. */
async function foldCounters(table: Table, item: Item, now: string): Promise<Outcome> {
  const counters = countersHeld(item);
  if (!counters.length) return 'current';
  // Without its ids its counter items are unknown: nothing reads such an item.
  if (typeof item.org_id !== 'string' || typeof item.id !== 'string') return 'left';
  const source = `${item.pk}/${item.sk}`;
  const months = byMonth(counters, now);
  // The counters without a month go to the month this run is in: a run after a stop, in a later
  // month, would fold them in again elsewhere. So they are folded first, and not again once any
  // counter item holds this workspace item.
  const ofNow = months.get(now);
  months.delete(now);
  if (ofNow && !(await foldedBefore(table, item.org_id, item.id, source))) {
    await written(table, foldedCountersUpdate(counterKey(item.org_id, item.id, 0, now), ofNow, source));
  }
  for (const [month, deltas] of months) {
    // Refused when a run before this one folded them in already.
    await written(table, foldedCountersUpdate(counterKey(item.org_id, item.id, 0, month), deltas, source));
  }
  await written(
    table,
    countersRemoval(
      { pk: item.pk, sk: item.sk },
      counters.map(([name]) => name),
    ),
  );
  return 'moved';
}

/** Rewrites one item of a workspace's partition if it is of before. */
async function rewrite(table: Table, item: Item, now: string): Promise<Outcome> {
  const key = { pk: item.pk, sk: item.sk };
  if (isWorkspaceItem(item)) return foldCounters(table, item, now);
  if (isToolItem(item) && typeof item.input_schema === 'object' && item.input_schema !== null) {
    return outcomeOf(await written(table, toolSchemaTextUpdate(key, JSON.stringify(item.input_schema))));
  }
  if (isGuardrailItem(item) && item.pattern === PHONE_PATTERN_BEFORE) {
    return outcomeOf(await written(table, guardrailPatternUpdate(key, PHONE_PATTERN_BEFORE, PRESETS.phone_number.pattern)));
  }
  return 'current';
}

async function rewritePartitions({ table, clock, scan, moved, left }: MigrationContext): Promise<void> {
  const now = monthOf(clock.now());
  for await (const item of scan('workspace partitions', workspacePartitionItems())) {
    const outcome = await rewrite(table, item, now);
    if (outcome === 'moved') moved();
    else if (outcome === 'left') left();
  }
}

export const workspacePartitions: Migration = {
  version: 4,
  name: "workspace items without the counters of before, tools' schemas as text, guardrails on the RE2 phone preset",
  run: rewritePartitions,
};
