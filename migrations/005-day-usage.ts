import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { type Item, unlessConditionFailed } from '../shared/platform/table.js';
import {
  USAGE_FIELDS,
  type UsageField,
  daysOfBefore,
  foldedDayUsageUpdate,
  workspaceDayOfBefore,
} from '../shared/workspaces/usage-entities.js';

/*
 * 005: a workspace's usage of a day in one kind of item, its day item in its organisation's day
 * shards (`USE#<day>#WS#<ws>`). Before issue 35 a query wrote two others: the workspace's own day
 * item (`WSSTAT#<org>#<ws>` / `DAY#<day>`, every usage field), which the dashboard, the stats and
 * the cache watch added to the day's items, and a copy of its queries and cost in its
 * organisation's partitions (`DAY#<day>#WS#<ws>`), which the workspace list and the budgets added.
 * Both were written by the same write of usage, so the copy holds nothing the workspace's item
 * does not: the workspace's item is added to the day's item in shard 0 (once: `folded`), and both
 * are deleted. A run that stops half-way is run again.
 */

/** The usage fields of a day item of before. */
function usageOf(item: Item): Partial<Record<UsageField, number>> {
  return Object.fromEntries(USAGE_FIELDS.flatMap((field) => (typeof item[field] === 'number' ? [[field, item[field]]] : [])));
}

async function foldDays({ table, scan, moved }: MigrationContext): Promise<void> {
  for await (const item of scan('day items of before', daysOfBefore())) {
    const day = workspaceDayOfBefore(item);
    if (day) {
      const { key, input } = foldedDayUsageUpdate(day.orgId, day.day, day.workspaceId, usageOf(item), `${item.pk}/${item.sk}`);
      // Refused when a run before this one folded it in already.
      await unlessConditionFailed(table.update(key, input), undefined);
    }
    await table.delete({ pk: item.pk, sk: item.sk });
    moved();
  }
}

export const dayUsage: Migration = {
  version: 5,
  name: "a workspace's usage of a day in its organisation's day item only",
  run: foldDays,
};
