import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workspacePartitions } from '../../migrations/004-workspace-partitions.js';
import { dayUsage } from '../../migrations/005-day-usage.js';
import { dayOf, monthOf } from '../../shared/platform/clock.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { workspaceKey } from '../../shared/workspaces/entities.js';
import { counterKey } from '../../shared/workspaces/usage-entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * A workspace's counters live apart from its configuration (shared/workspaces/counters.ts): in
 * `WSCOUNT#<org>#<ws>#<shard>` items, one per shard and month, in no index, so a question never
 * rewrites the workspace item (which the workspace list's index copies). What the workspace item
 * held before the counters moved is moved to a counter item by migrations/004.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(() => {
  model.reset();
  model.handle(() => textReply('Here is the answer.', { input_tokens: 1000, output_tokens: 100 }));
});

async function workspaceWithQueries(count: number) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Counters ${t.uniqueEmail('ws')}`, system_prompt: 'x'.repeat(4000) });
  const before = await t.deps.table.get(workspaceKey(admin.org.id, workspace.id));
  for (let index = 0; index < count; index += 1) {
    const asked = await t.request('POST', `/api/workspaces/${workspace.id}/query`, {
      cookie: admin.cookie,
      body: { query: `question ${index}` },
    });
    expect(asked.status, asked.text).toBe(200);
  }
  return { admin, workspaceId: workspace.id, before };
}

describe('workspace counters apart from its configuration', () => {
  it('answers questions without writing the workspace item, its counters in shard items of the month', async () => {
    const { admin, workspaceId, before } = await workspaceWithQueries(6);
    const after = await t.deps.table.get(workspaceKey(admin.org.id, workspaceId));
    expect(after).toEqual(before);
    const shards = await Promise.all(
      [0, 1, 2, 3].map((shard) => t.deps.table.get(counterKey(admin.org.id, workspaceId, shard, monthOf(t.clock.now())))),
    );
    const month = monthOf(t.clock.now());
    const sum = (name: string) =>
      shards.reduce((total, item) => total + Number((item as Record<string, unknown> | undefined)?.[name] ?? 0), 0);
    expect(sum(`month#${month}#queries`)).toBe(6);
    expect(sum('total#queries')).toBe(6);
    expect(sum('conversations')).toBe(6);
    // Each question adds to one shard: no item holds more than what was added to it.
    for (const item of shards) expect(JSON.stringify(item ?? {}).length).toBeLessThan(1024);
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.status, dashboard.text).toBe(200);
    expect(dashboard.body.tickets).toMatchObject({ open: 6, total: 6 });
    expect(dashboard.body.usage).toMatchObject({ month: 6 });
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.total).toBe(6);
  });

  it('counts the counters a workspace item held before they moved once they are migrated, counting nothing twice', async () => {
    const { admin, workspaceId } = await workspaceWithQueries(2);
    const month = monthOf(t.clock.now());
    // What a workspace created before the move holds on its item, no longer changed, and the day
    // item the same write of usage left (its cost, on its day: the list's month to date is the days').
    await t.deps.table.update(workspaceKey(admin.org.id, workspaceId), {
      update: 'SET #mq = :mq, #mc = :mc, #tq = :tq, conversations = :c, #open = :open',
      names: { '#mq': `month#${month}#queries`, '#mc': `month#${month}#cost_usd`, '#tq': 'total#queries', '#open': 'status#open' },
      values: { ':mq': 10, ':mc': 0.5, ':tq': 40, ':c': 7, ':open': 7 },
    });
    await t.deps.table.put({ pk: `WSSTAT#${admin.org.id}#${workspaceId}`, sk: `DAY#${dayOf(t.clock.now())}`, cost_usd: 0.5 });
    await t.deps.table.delete(SCHEMA_MARKER);
    await runMigrations(t.deps.table, [workspacePartitions, dayUsage], { clock: t.clock });
    expect(await t.deps.table.get(workspaceKey(admin.org.id, workspaceId))).not.toHaveProperty('total#queries');
    const detail = await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.stats.month).toBe(12);
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.body.tickets).toMatchObject({ open: 9, total: 9 });
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.total).toBe(42);
    const conversations = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie: admin.cookie });
    expect(conversations.body.total).toBe(9);
    const list = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    const listed = list.body.workspaces.find((workspace: { id: string }) => workspace.id === workspaceId);
    // This month's cost: what the item held, and the two questions since (1 000 in, 100 out each).
    expect(listed.cost_mtd).toBeGreaterThan(0.5);
    expect(listed.queries_today).toBe(2);
  });
});
