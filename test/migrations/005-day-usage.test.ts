import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayUsage } from '../../migrations/005-day-usage.js';
import { costsBetween } from '../../shared/workspaces/day-counts.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { dayUsageKey } from '../../shared/workspaces/usage-entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Migration 005 on day items as the versions before wrote them: a workspace's own day items
 * (`WSSTAT#<org>#<ws>` / `DAY#<day>`, every usage field) with their copies in the organisation's
 * day shards (`DAY#<day>#WS#<ws>`, queries and cost), beside a day item of this version
 * (`USE#<day>#WS#<ws>`). Afterwards the list, the dashboard, the stats and the budgets' spend
 * read what they read before, from the day items alone, and a second run finds nothing.
 */

const DAY_MS = 86_400_000;
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

/** The UTC date `back` days before the test clock's day. */
const day = (back: number) => new Date(t.clock.now().getTime() - back * DAY_MS).toISOString().slice(0, 10);

async function migrate() {
  await t.deps.table.delete(SCHEMA_MARKER);
  return runMigrations(t.deps.table, [dayUsage], { clock: t.clock });
}

describe('migration 005: day items of before', () => {
  it('adds a workspace’s day items to its organisation’s, deletes both kinds of before, and every reader counts as before', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Days');
    const [today, yesterday] = [day(0), day(1)];
    const workspaceDays = `WSSTAT#${orgId}#${workspaceId}`;
    const before: Item[] = [
      { pk: workspaceDays, sk: `DAY#${today}`, queries: 2, errors: 1, cost_usd: 0.02, tokens_input: 200, tokens_cache_read: 50 },
      { pk: workspaceDays, sk: `DAY#${yesterday}`, queries: 3, cost_usd: 0.03, tokens_input: 300 },
      { pk: `ORGTODAY#${orgId}#1`, sk: `DAY#${today}#WS#${workspaceId}`, workspace_id: workspaceId, queries: 2, cost_usd: 0.02 },
      { pk: `ORGTODAY#${orgId}#3`, sk: `DAY#${yesterday}#WS#${workspaceId}`, workspace_id: workspaceId, queries: 3, cost_usd: 0.03 },
      // Today's day item of this version, in shard 0 too: what was of before is added to it.
      { ...dayUsageKey(orgId, 0, today, workspaceId), workspace_id: workspaceId, queries: 1, cost_usd: 0.01, tokens_input: 100 },
    ];
    // A prompt cache warning shares the workspace's day partition: it stays.
    const warning = { pk: workspaceDays, sk: `WARN#${yesterday}`, fall_points: 20 };
    await t.deps.table.batchPut([...before, warning]);

    expect(await migrate()).toMatchObject({ from: 1, to: 5, moved: 4, left: 0 });

    expect(await t.deps.table.queryAll({ pk: workspaceDays })).toEqual([warning]);
    expect(await t.deps.table.get(dayUsageKey(orgId, 0, today, workspaceId))).toMatchObject({
      queries: 3,
      errors: 1,
      tokens_input: 300,
      tokens_cache_read: 50,
    });
    const listed = (await t.request('GET', '/api/workspaces', { cookie })).body.workspaces.find(
      (workspace: { id: string }) => workspace.id === workspaceId,
    );
    expect(listed.queries_today).toBe(3);
    // The month to date has yesterday only from the 2nd of a month on.
    expect(listed.cost_mtd).toBeCloseTo(yesterday.slice(0, 7) === today.slice(0, 7) ? 0.06 : 0.03, 9);
    const dashboard = (await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie })).body;
    const byDay = new Map((dashboard.usage.by_day as { date: string; queries: number }[]).map((entry) => [entry.date, entry.queries]));
    expect([byDay.get(today), byDay.get(yesterday)]).toEqual([3, 3]);
    expect(dashboard.cost.today).toBeCloseTo(0.03, 9);
    expect(dashboard.cache).toMatchObject({ read_tokens: 50, input_tokens: 600 });
    expect((await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie })).body.stats).toMatchObject({ today: 3, week: 6 });
    expect((await costsBetween(t.deps, orgId, yesterday, today)).get(workspaceId)).toBeCloseTo(0.06, 9);

    // Run again from the start: nothing of before is left, and nothing is counted twice.
    expect(await migrate()).toMatchObject({ moved: 0, left: 0 });
    expect((await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie })).body.stats).toMatchObject({ today: 3, week: 6 });
  });

  it('counts a workspace’s day once when a run stopped after adding it and is run again', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Stopped');
    const item = { pk: `WSSTAT#${orgId}#${workspaceId}`, sk: `DAY#${day(0)}`, queries: 4, cost_usd: 0.04 };
    await t.deps.table.put(item);
    await migrate();
    // As if the run had stopped before deleting it: the next run finds it again.
    await t.deps.table.put(item);
    expect(await migrate()).toMatchObject({ moved: 1 });
    expect((await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie })).body.stats).toMatchObject({ today: 4 });
  });
});
