import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dayUsage } from '../../migrations/005-day-usage.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * A workspace's usage of a day is one item per organisation shard (`ORGTODAY#<org>#<shard>` /
 * `USE#<day>#WS#<ws>`, shared/workspaces/day-counts.ts), which the workspace list, the dashboard
 * and the detail's stats all read. A query writes that one day item, not the two it wrote before
 * (the workspace's `WSSTAT#…/DAY#` and the organisation's `DAY#…` of queries and cost), which
 * migrations/005 folds into it, so nothing is counted twice. Days are counted back from the test
 * clock's (it does not move here), so the file holds from any start.
 */

const DAY_MS = 86_400_000;
/** The UTC date `YYYY-MM-DD` `back` days before the test clock's day. */
const day = (back: number) => new Date(t.clock.now().getTime() - back * DAY_MS).toISOString().slice(0, 10);

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('Answered.', { input_tokens: 1000, output_tokens: 100 }));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});

const workspace = () => t.adminWithWorkspace('Days');

async function ask(cookie: string, workspaceId: string) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'How do I reset it?' } });
  expect(response.status, response.text).toBe(200);
  return response.body as { cost_usd: number };
}

/** Every day item of the organisation, in its four shards. */
async function orgDayItems(orgId: string): Promise<Item[]> {
  const shards = await Promise.all(Array.from({ length: 4 }, (_, shard) => t.deps.table.queryAll({ pk: `ORGTODAY#${orgId}#${shard}` })));
  return shards.flat();
}

describe("a workspace's usage by day", () => {
  it('is one item a query writes, with every usage field, and no item of the workspace’s own day partition', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    const { cost_usd: cost } = await ask(cookie, workspaceId);
    const items = await orgDayItems(orgId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      sk: `USE#${day(0)}#WS#${workspaceId}`,
      workspace_id: workspaceId,
      queries: 1,
      tokens_input: 1000,
      tokens_output: 100,
    });
    expect(items[0]?.cost_usd).toBeCloseTo(cost, 9);
    expect(await t.deps.table.queryAll({ pk: `WSSTAT#${orgId}#${workspaceId}` })).toEqual([]);
  });

  it('counts what was written before, once migrated, and what is written now, once each in the list, the dashboard and the stats', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    // Before: a query wrote the workspace's day item (every field) and the organisation's (queries and cost), today and two days ago.
    const [today, twoDaysAgo] = [day(0), day(2)];
    const before: Item[] = [
      { pk: `WSSTAT#${orgId}#${workspaceId}`, sk: `DAY#${today}`, queries: 2, cost_usd: 0.02, tokens_input: 200 },
      { pk: `WSSTAT#${orgId}#${workspaceId}`, sk: `DAY#${twoDaysAgo}`, queries: 3, cost_usd: 0.03, tokens_input: 300 },
      { pk: `ORGTODAY#${orgId}#1`, sk: `DAY#${today}#WS#${workspaceId}`, workspace_id: workspaceId, queries: 2, cost_usd: 0.02 },
      { pk: `ORGTODAY#${orgId}#3`, sk: `DAY#${twoDaysAgo}#WS#${workspaceId}`, workspace_id: workspaceId, queries: 3, cost_usd: 0.03 },
    ];
    await t.deps.table.batchPut(before);
    await t.deps.table.delete(SCHEMA_MARKER);
    await runMigrations(t.deps.table, [dayUsage], { clock: t.clock });
    const { cost_usd: cost } = await ask(cookie, workspaceId);

    const list = await t.request('GET', '/api/workspaces', { cookie });
    expect(list.status, list.text).toBe(200);
    const listed = (list.body.workspaces as { id: string; queries_today: number; cost_mtd: number }[]).find(
      (entry) => entry.id === workspaceId,
    );
    expect(listed?.queries_today).toBe(3);
    // The month to date has two days ago only on the 3rd of a month or later.
    const earlierThisMonth = twoDaysAgo.slice(0, 7) === today.slice(0, 7) ? 0.03 : 0;
    expect(listed?.cost_mtd).toBeCloseTo(0.02 + earlierThisMonth + cost, 6);

    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie });
    expect(dashboard.status, dashboard.text).toBe(200);
    const byDay = new Map((dashboard.body.usage.by_day as { date: string; queries: number }[]).map((entry) => [entry.date, entry.queries]));
    expect(byDay.get(today)).toBe(3);
    expect(byDay.get(twoDaysAgo)).toBe(3);
    expect(byDay.get(day(1))).toBe(0);

    const detail = await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.stats).toMatchObject({ today: 3, week: 6 });
  });

  it('is written in one UpdateItem per query, besides the workspace counters', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    await ask(cookie, workspaceId); // the first query of a workspace also makes its sessions and caches
    const spy = vi.spyOn(t.deps.table, 'update');
    await ask(cookie, workspaceId);
    const updates = spy.mock.calls.map(([key]) => key.pk);
    spy.mockRestore();
    expect(updates.filter((pk) => pk.startsWith('ORGTODAY#'))).toHaveLength(1);
    expect(updates.filter((pk) => pk.startsWith('WSSTAT#'))).toHaveLength(0);
    expect((await orgDayItems(orgId)).reduce((sum, item) => sum + Number(item.queries ?? 0), 0)).toBe(2);
  });
});
