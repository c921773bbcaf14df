import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workspacePartitions } from '../../migrations/004-workspace-partitions.js';
import { connectionKey, connectionLookup, toolKey } from '../../shared/connections/entities.js';
import { toolSchemaOf } from '../../shared/connections/tool-cache.js';
import { guardrailKey } from '../../shared/guardrails/entities.js';
import { PRESETS } from '../../shared/guardrails/patterns.js';
import { monthOf } from '../../shared/platform/clock.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { workspaceKey, workspaceWithChildren } from '../../shared/workspaces/entities.js';
import { workspaceToolsOf } from '../../shared/connections/tool-access.js';
import type { QueryInput, Table } from '../../shared/platform/table.js';
import { counterKey, counterShardsOf } from '../../shared/workspaces/usage-entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * Migration 004 on workspace partitions as the versions before wrote them: a workspace item holding
 * its counters of before issue 35, a tool cached with its input schema as a map, a guardrail with
 * the phone preset's pattern of before RE2. Afterwards the dashboard, the stats, the lists, the tool
 * search, the query and the guardrail's editing answer what they answered when they read those
 * shapes, and a second run finds nothing to rewrite.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});
beforeEach(() => {
  model.reset();
  model.handle(() => textReply('Answered.', { input_tokens: 1000, output_tokens: 100 }));
});

/** Runs the migration on the table from the schema of before (the test context runs none). */
async function migrate() {
  await t.deps.table.delete(SCHEMA_MARKER);
  return runMigrations(t.deps.table, [workspacePartitions], { clock: t.clock });
}

const get = (cookie: string, path: string) => t.request('GET', path, { cookie });

async function ask(cookie: string, workspaceId: string, query: string) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query } });
  expect(response.status, response.text).toBe(200);
}

const MINUTE = 60_000;

/** The month before `month` (`YYYY-MM`). */
function monthBefore(month: string): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

describe('migration 004: the counters a workspace item held before issue 35', () => {
  it('moves them to counter items, off the workspace item, and every reader counts them once as before', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Counters');
    await ask(cookie, workspaceId, 'first question');
    await ask(cookie, workspaceId, 'second question');
    const month = monthOf(t.clock.now());
    const lastMonth = monthBefore(month);
    // What the workspace item held when issue 35 moved its counters, as the version before wrote it.
    const before: Record<string, number> = {
      [`month#${month}#queries`]: 10,
      [`month#${month}#cost_usd`]: 0.5,
      [`month#${lastMonth}#queries`]: 4,
      'total#queries': 14,
      'total#cost_usd': 0.7,
      conversations: 7,
      'status#open': 3,
      'status#closed': 4,
      'category#billing': 3,
      'feedback#up': 2,
      'approvals#approved': 1,
      gaps: 2,
      violations: 1,
    };
    const item = await t.deps.table.get(workspaceKey(orgId, workspaceId));
    await t.deps.table.put({ ...item, ...workspaceKey(orgId, workspaceId), ...before });

    const report = await migrate();
    expect(report).toMatchObject({ from: 1, to: 4, left: 0 });
    expect(report.moved).toBeGreaterThanOrEqual(1);
    const after = await t.deps.table.get(workspaceKey(orgId, workspaceId));
    for (const name of Object.keys(before)) expect(after).not.toHaveProperty(name);
    // The configuration and its counts stay on the item.
    expect(after).toMatchObject({ id: workspaceId, connection_count: 0, cold_timeout_minutes: item?.cold_timeout_minutes });
    // A month's usage in its month's item, the rest in the item of the month the migration ran.
    expect(await t.deps.table.get(counterKey(orgId, workspaceId, 0, lastMonth))).toMatchObject({ [`month#${lastMonth}#queries`]: 4 });

    const detail = await get(cookie, `/api/workspaces/${workspaceId}`);
    expect(detail.body.stats.month).toBe(12);
    const dashboard = (await get(cookie, `/api/workspaces/${workspaceId}/dashboard`)).body;
    expect(dashboard.tickets).toEqual({ open: 5, cold: 0, closed: 4, total: 9 });
    expect(dashboard.usage.month).toBe(12);
    expect(dashboard.feedback).toMatchObject({ up: 2, down: 0 });
    expect(dashboard.approvals).toMatchObject({ approved: 1, pending: 0 });
    expect(dashboard.knowledge_gaps.count).toBe(2);
    expect(dashboard.compliance.violations).toBe(1);
    expect(dashboard.categories).toEqual([{ category: 'billing', count: 3 }]);
    expect(dashboard.cost.mtd).toBeGreaterThan(0.5);
    expect((await get(cookie, `/api/workspaces/${workspaceId}/activity`)).body.total).toBe(16);
    expect((await get(cookie, `/api/workspaces/${workspaceId}/conversations`)).body.total).toBe(9);

    // Run again from the start: nothing is left to rewrite, and nothing is counted twice.
    expect(await migrate()).toMatchObject({ moved: 0, left: 0 });
    expect((await get(cookie, `/api/workspaces/${workspaceId}/activity`)).body.total).toBe(16);
  });

  it('counts them once when a run stopped before taking them off, and the next runs in another month', async () => {
    const { orgId, workspaceId } = await t.adminWithWorkspace('Counters stopped');
    const key = workspaceKey(orgId, workspaceId);
    const lastMonth = monthBefore(monthOf(t.clock.now()));
    const item = await t.deps.table.get(key);
    await t.deps.table.put({ ...item, ...key, [`month#${lastMonth}#queries`]: 4, 'total#queries': 4, conversations: 2 });
    // The run stops between its writes of the item: the counters are folded in, not yet taken off.
    const stopping = Object.create(t.deps.table) as Table;
    stopping.update = async (at, input) => {
      if (at.pk === key.pk && at.sk === key.sk) throw new Error('stopped');
      return t.deps.table.update(at, input);
    };
    await t.deps.table.delete(SCHEMA_MARKER);
    await expect(runMigrations(stopping, [workspacePartitions], { clock: t.clock })).rejects.toThrow('stopped');

    // The next run, a deploy later, falls in the month after.
    const start = t.clock.now();
    t.clock.advance(32 * 24 * 60 * MINUTE);
    try {
      expect(await migrate()).toMatchObject({ left: 0 });
    } finally {
      t.clock.set(start);
    }
    expect(await t.deps.table.get(key)).not.toHaveProperty('total#queries');
    const counted = await t.deps.table.queryAll(counterShardsOf(orgId, workspaceId)[0] as QueryInput);
    const sum = (name: string) => counted.reduce((total, counter) => total + (Number(counter[name]) || 0), 0);
    expect({ total: sum('total#queries'), conversations: sum('conversations'), lastMonth: sum(`month#${lastMonth}#queries`) }).toEqual({
      total: 4,
      conversations: 2,
      lastMonth: 4,
    });
  });
});

describe('migration 004: tools and guardrails of before', () => {
  it('rewrites a tool schema cached as a map as text, which reads and is searched as it was', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Tools');
    const connectionId = 'conn_before';
    // A connection whose tools were cached by a version that stored their schemas as maps.
    await t.deps.table.put({
      ...connectionKey(orgId, workspaceId, connectionId),
      ...connectionLookup(connectionId),
      id: connectionId,
      workspace_id: workspaceId,
      org_id: orgId,
      name: 'legacy',
      type: 'mcp',
      status: 'connected',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      command: null,
      args: [],
      tool_count: 1,
      tools_discovered: true,
      server: 'legacy',
      created_at: t.clock.now().toISOString(),
    });
    const schema = { type: 'object', properties: { ticket: { type: 'string', description: 'the ticket number' } }, required: ['ticket'] };
    await t.deps.table.put({
      ...toolKey(orgId, workspaceId, connectionId, 'find_ticket'),
      id: `${connectionId}:find_ticket`,
      name: 'find_ticket',
      description: 'Find a support case',
      input_schema: schema,
      is_write: false,
      connection_id: connectionId,
    });

    expect(await migrate()).toMatchObject({ moved: 1, left: 0 });

    const items = await t.deps.table.queryAll(workspaceWithChildren(orgId, workspaceId));
    const tools = workspaceToolsOf(items, orgId, workspaceId).toolsByConnection.get(connectionId) ?? [];
    expect(tools.map((tool) => typeof tool.input_schema)).toEqual(['string']);
    expect(tools.map(toolSchemaOf)).toEqual([schema]);
    const found = await get(cookie, `/api/workspaces/${workspaceId}/tools/search?q=ticket%20number`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['find_ticket']);
    expect(await migrate()).toMatchObject({ moved: 0, left: 0 });
  });

  it('gives a guardrail on the phone preset of before the new preset, which redacts as it did and keeps it when changed', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Guardrails');
    // A guardrail made from the phone preset before guardrails ran on RE2.
    const oldPhone = '(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)';
    const guardrail = {
      id: 'gr_before',
      name: 'Phone numbers',
      type: 'redact_pattern',
      action: 'redact',
      applies_to: 'both',
      enabled: true,
    };
    const at = t.clock.now().toISOString();
    await t.deps.table.put({
      ...guardrailKey(orgId, workspaceId, guardrail.id),
      ...guardrail,
      pattern: oldPhone,
      created_at: at,
      updated_at: at,
    });

    expect(await migrate()).toMatchObject({ moved: 1, left: 0 });

    const compliance = (await get(cookie, `/api/workspaces/${workspaceId}/compliance`)).body;
    expect(compliance.guardrails).toEqual([{ ...guardrail, pattern: PRESETS.phone_number.pattern }]);
    await ask(cookie, workspaceId, 'call +44 20 7946 0958');
    expect(JSON.stringify(model.requests.at(-1)?.body.messages)).toContain('call [redacted]');
    const changed = await t.request('PUT', `/api/workspaces/${workspaceId}/guardrails/${guardrail.id}`, {
      cookie,
      body: { enabled: false },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.guardrail).toMatchObject({ pattern: PRESETS.phone_number.pattern, enabled: false });
    expect(await migrate()).toMatchObject({ moved: 0, left: 0 });
  });
});
