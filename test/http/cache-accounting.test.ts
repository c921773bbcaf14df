import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUsage } from '../../shared/workspaces/counters.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * The prompt cache's accounting (CONTRACT.md, "Cost: cache-aware accounting"): the dashboard's
 * cache figures and daily hit rate, and the warning logged when a workspace's hit rate falls by
 * more than 15 points day over day.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});

const daysAgo = (days: number) => new Date(t.clock.now().getTime() - days * 86_400_000);
/** A day's usage with this cache split (tokens). */
const usageOf = (read: number, write: number, input: number) => ({
  queries: 10,
  tokens_cache_read: read,
  tokens_cache_write: write,
  tokens_input: input,
});

async function workspaceWithHistory(before: [number, number, number], yesterday: [number, number, number]) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Cache ${t.uniqueEmail('ws')}` });
  await recordUsage(t.deps, admin.org.id, workspace.id, usageOf(...before), daysAgo(2));
  await recordUsage(t.deps, admin.org.id, workspace.id, usageOf(...yesterday), daysAgo(1));
  return { admin, workspaceId: workspace.id };
}

const warnings = (workspaceId: string) =>
  t.logger.records.filter((record) => record.message === 'prompt cache hit rate fell' && record.extra?.workspace === workspaceId);

describe('prompt cache accounting', () => {
  it("shows the cache's tokens and hit rate for the 30 days and for each day on the dashboard", async () => {
    const { admin, workspaceId } = await workspaceWithHistory([90_000, 5_000, 5_000], [30_000, 20_000, 50_000]);
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.cache).toEqual({ read_tokens: 120_000, write_tokens: 25_000, input_tokens: 55_000, hit_rate: 0.6 });
    const days = dashboard.body.usage.by_day as { date: string; cache_hit_rate: number | null }[];
    expect(days.at(-3)?.cache_hit_rate).toBe(0.9);
    expect(days.at(-2)?.cache_hit_rate).toBe(0.3);
    expect(days.at(-1)?.cache_hit_rate).toBeNull();
  });

  it("warns once, at the workspace's first query of the day, when the hit rate fell more than 15 points", async () => {
    const { admin, workspaceId } = await workspaceWithHistory([90_000, 5_000, 5_000], [30_000, 20_000, 50_000]);
    for (const query of ['first', 'second']) {
      const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: admin.cookie, body: { query } });
      expect(answer.status, answer.text).toBe(200);
    }
    expect(warnings(workspaceId).map((record) => record.extra)).toEqual([
      expect.objectContaining({
        workspace: workspaceId,
        hit_rate: 30,
        day_before: 90,
        fall_points: 60,
        day: daysAgo(1).toISOString().slice(0, 10),
      }),
    ]);
  });

  it('does not warn for a fall of 15 points or less, nor for days too small to compare', async () => {
    const steady = await workspaceWithHistory([80_000, 10_000, 10_000], [66_000, 17_000, 17_000]);
    const tiny = await workspaceWithHistory([900, 50, 50], [100, 400, 500]);
    model.handle(() => textReply('ok'));
    for (const { admin, workspaceId } of [steady, tiny]) {
      await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: admin.cookie, body: { query: 'hello' } });
      expect(warnings(workspaceId)).toEqual([]);
    }
  });
});
