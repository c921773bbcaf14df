import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { conversationKey, conversationList, messageKey } from '../../shared/conversations/entities.js';
import { dayOf } from '../../shared/platform/clock.js';
import { addWorkspaceCounters, recordUsage } from '../../shared/workspaces/counters.js';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;
const dateDaysAgo = (n: number) => new Date(t.clock.now().getTime() - n * DAY_MS);
const daysAgo = (n: number) => dayOf(dateDaysAgo(n));

/**
 * For a test whose days up to 30 back must fall in the clock's calendar month (its month-to-date
 * counters): moves the clock to the same time on the last day of its month (UTC), and back when the
 * test ends. The start's year and month stay (29 February stays; 1 January becomes 31 January).
 */
function atEndOfMonth(): void {
  const start = t.clock.now();
  const end = new Date(start.getTime());
  end.setUTCDate(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate());
  t.clock.set(end);
  onTestFinished(() => t.clock.set(start));
}
const pathsOf = (response: ApiResponse) => (response.body.details ?? []).map((detail: { path: string }) => detail.path);

let names = 0;
/** Every test except the slug tests uses a name no other test uses, so ids are predictable within an organisation. */
function uniqueName(prefix = 'Desk'): string {
  names += 1;
  return `${prefix} ${names} ${crypto.randomUUID().slice(0, 8)}`;
}

/** A new organisation with one workspace. */
async function orgWithWorkspace(body: Record<string, unknown> = {}) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: uniqueName(), ...body });
  return { admin, cookie: admin.cookie, orgId: admin.org.id as string, id: workspace.id };
}

async function teamsOf(cookie: string): Promise<{ id: string; name: string }[]> {
  return (await t.request('GET', '/api/teams', { cookie })).body.teams;
}

/** `at` is last_activity_at. */
type SeedConversation = { id: string; status: 'open' | 'cold' | 'closed'; consumer_type: string; at: string } & Partial<
  Record<'category' | 'resolution_status' | 'channel', string>
>;

/** A conversation item as the service writes it: in GSI1 (every status, by last activity). */
async function seedConversation(orgId: string, workspaceId: string, c: SeedConversation) {
  const sortKey = `${c.at}#${c.id}`;
  await t.deps.table.put({
    ...conversationKey(orgId, workspaceId, c.id),
    gsi1pk: conversationList(orgId, workspaceId),
    gsi1sk: sortKey,
    id: c.id,
    workspace_id: workspaceId,
    consumer_type: c.consumer_type,
    status: c.status,
    user_name: 'Uma User',
    channel: c.channel ?? null,
    message_count: 2,
    category: c.category,
    resolution_status: c.resolution_status,
    total_cost_usd: 0.02,
    first_message_at: '2026-11-22T06:00:00.000Z',
    last_activity_at: c.at,
  });
}

const activityFields = (n: number) => ({
  id: `act-${n}`,
  user_name: 'Ada Admin',
  query: `question ${n}`,
  tools_called: ['search_docs'],
  connections_hit: ['docs'],
  tokens_input: 100 + n,
  tokens_output: 50,
  cost_usd: 0.001,
  duration_ms: 250,
  error: null,
});

/** `count` audit entries, one second apart, the newest a second before now; TOTAL says `count` queries. */
async function seedActivity(orgId: string, workspaceId: string, count: number) {
  const base = t.clock.now().getTime();
  const put = (n: number) => {
    const createdAt = new Date(base - (count - n) * 1000).toISOString();
    return t.deps.table.put({
      ...activityEntryKey(orgId, workspaceId, createdAt, String(n)),
      ...activityFields(n),
      created_at: createdAt,
    });
  };
  for (let start = 0; start < count; start += 25) {
    await Promise.all(Array.from({ length: Math.min(25, count - start) }, (_, i) => put(start + i)));
  }
  await recordUsage(t.deps, orgId, workspaceId, { queries: count }, t.clock.now());
}

describe('POST /api/workspaces', () => {
  it('answers 201 with an id from the slug of the name, accents folded, ws-workspace when nothing is left', async () => {
    const { cookie } = await t.signUp();
    const created = await t.request('POST', '/api/workspaces', { cookie, body: { name: 'Customer Support' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 'ws-customer-support', name: 'Customer Support', status: 'active' });
    expect(await t.createWorkspace(cookie, { name: 'Café Ops' })).toEqual({ id: 'ws-cafe-ops', name: 'Café Ops', status: 'active' });
    expect((await t.createWorkspace(cookie, { name: '日本語 ★' })).id).toBe('ws-workspace');
  });

  it('suffixes an id the organisation has, not one another organisation has (ids are unique per organisation)', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    expect((await t.createWorkspace(first.cookie, { name: 'Support' })).id).toBe('ws-support');
    expect((await t.createWorkspace(second.cookie, { name: 'Support' })).id).toBe('ws-support');
    expect((await t.createWorkspace(first.cookie, { name: 'support' })).id).toBe('ws-support-2');
    expect((await t.createWorkspace(second.cookie, { name: 'SUPPORT' })).id).toBe('ws-support-2');
    expect((await t.createWorkspace(first.cookie, { name: 'Support ' })).id).toBe('ws-support-3');
  });

  it('gives ten parallel creates of one name ten distinct ids', async () => {
    const { cookie } = await t.signUp();
    const name = uniqueName('Rush');
    const base = `ws-${name.toLowerCase().replace(/ /g, '-')}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', '/api/workspaces', { cookie, body: { name } })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    const ids = responses.map((response) => response.body.id as string);
    expect(new Set(ids).size).toBe(10);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${base}(-\\d+)?$`));
    expect(ids).toContain(base);
    const listed = (await t.request('GET', '/api/workspaces', { cookie })).body.workspaces.map((w: { id: string }) => w.id);
    expect(listed.sort()).toEqual([...ids].sort());
  });

  it('is admin only: a member gets 403 and nothing is created', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const response = await t.request('POST', '/api/workspaces', { cookie: member.cookie, body: { name: uniqueName() } });
    expect(response.status).toBe(403);
    expect(response.body.error).toBeTypeOf('string');
    expect((await t.request('GET', '/api/workspaces', { cookie: admin.cookie })).body.workspaces).toEqual([]);
  });

  it("uses the team given by team_id; an unknown team or another organisation's team is 400 on team_id", async () => {
    const { cookie } = await t.signUp();
    const team = await t.request('POST', '/api/teams', { cookie, body: { name: 'Platform' } });
    expect(team.status).toBe(201);
    const { id } = await t.createWorkspace(cookie, { name: uniqueName(), team_id: team.body.team.id });
    const summary = await t.request('GET', `/api/workspaces/${id}/summary`, { cookie });
    expect(summary.body.workspace).toMatchObject({ team: 'Platform', team_id: team.body.team.id });

    const other = await t.signUp();
    const [foreignTeam] = await teamsOf(other.cookie);
    for (const teamId of ['team_does_not_exist', foreignTeam!.id]) {
      const response = await t.request('POST', '/api/workspaces', { cookie, body: { name: uniqueName(), team_id: teamId } });
      expect(response.status).toBe(400);
      expect(pathsOf(response)).toEqual(['team_id']);
    }
  });

  it('creates a team from team_name and reuses an existing one case-insensitively', async () => {
    const { cookie } = await t.signUp();
    const [general] = await teamsOf(cookie);
    const first = await t.createWorkspace(cookie, { name: uniqueName(), team_name: 'Billing Ops' });
    const firstSummary = (await t.request('GET', `/api/workspaces/${first.id}/summary`, { cookie })).body.workspace;
    expect(firstSummary.team).toBe('Billing Ops');
    const teams = await teamsOf(cookie);
    expect(teams.map((team) => team.name).sort()).toEqual(['Billing Ops', 'General']);
    expect(teams.find((team) => team.name === 'Billing Ops')?.id).toBe(firstSummary.team_id);

    const second = await t.createWorkspace(cookie, { name: uniqueName(), team_name: 'billing OPS' });
    const third = await t.createWorkspace(cookie, { name: uniqueName(), team_name: 'GENERAL' });
    const summaryOf = async (id: string) => (await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body.workspace;
    expect(await summaryOf(second.id)).toMatchObject({ team: 'Billing Ops', team_id: firstSummary.team_id });
    expect(await summaryOf(third.id)).toMatchObject({ team: 'General', team_id: general!.id });
    expect(await teamsOf(cookie)).toHaveLength(2);
  });

  it('puts a workspace given no team in General and keeps its system_prompt', async () => {
    const { cookie } = await t.signUp();
    const [general] = await teamsOf(cookie);
    const { id } = await t.createWorkspace(cookie, { name: uniqueName(), system_prompt: 'Answer in one sentence.' });
    const summary = (await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body.workspace;
    expect(summary).toMatchObject({ team: 'General', team_id: general!.id, system_prompt: 'Answer in one sentence.' });
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'n'.repeat(101) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: ['Support'] }, 'name'],
    [{ name: 'Both', team_id: 'team_x', team_name: 'Other' }, 'team_id'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const { cookie } = await t.signUp();
    const response = await t.request('POST', '/api/workspaces', { cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid request body');
    expect(pathsOf(response)).toContain(field);
    expect((await t.request('GET', '/api/workspaces', { cookie })).body.workspaces).toEqual([]);
  });
});

describe('GET /api/workspaces', () => {
  it("lists only the caller organisation's workspaces, with every list field and zero counts when new", async () => {
    const { cookie, id } = await orgWithWorkspace({ team_name: 'Research' });
    await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const teamId = (await teamsOf(cookie)).find((team) => team.name === 'Research')!.id;
    const response = await t.request('GET', '/api/workspaces', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.workspaces).toEqual([
      {
        id,
        name: expect.any(String),
        team: 'Research',
        team_id: teamId,
        status: 'active',
        model: 'balanced',
        connection_count: 0,
        tool_count: 0,
        knowledge_count: 0,
        queries_today: 0,
        cost_mtd: 0,
        created_at: t.clock.now().toISOString(),
      },
    ]);
  });

  it("takes queries_today from today's counter, cost_mtd from the month's, and counts from the workspace item", async () => {
    atEndOfMonth(); // yesterday in this month's cost
    const { cookie, orgId, id } = await orgWithWorkspace();
    const quiet = await t.createWorkspace(cookie, { name: uniqueName() });
    const now = t.clock.now();
    await recordUsage(t.deps, orgId, id, { queries: 1, cost_usd: 0.1 }, now);
    // Each query adds to one of the organisation's shards, chosen at random; the list sums them.
    await Promise.all(Array.from({ length: 6 }, () => recordUsage(t.deps, orgId, id, { queries: 1 }, now)));
    await recordUsage(t.deps, orgId, id, { queries: 40, cost_usd: 0.4 }, new Date(now.getTime() - 86_400_000));
    await addWorkspaceCounters(t.deps, orgId, id, { connection_count: 2, tool_count: 5, knowledge_count: 3 });
    const workspaces = (await t.request('GET', '/api/workspaces', { cookie })).body.workspaces;
    const busy = workspaces.find((w: { id: string }) => w.id === id);
    expect(busy).toMatchObject({ connection_count: 2, tool_count: 5, knowledge_count: 3, queries_today: 7, cost_mtd: 0.5 });
    const idle = workspaces.find((w: { id: string }) => w.id === quiet.id);
    expect(idle).toMatchObject({ connection_count: 0, tool_count: 0, knowledge_count: 0, queries_today: 0, cost_mtd: 0 });
  });
});

describe('GET /api/workspaces/:id/summary and /api/workspaces/:id', () => {
  it('answers the summary view with the defaults of docs/api-decisions.md, to members too', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const [general] = await teamsOf(cookie);
    const response = await t.request('GET', `/api/workspaces/${id}/summary`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      workspace: {
        id,
        name: expect.any(String),
        status: 'active',
        team: 'General',
        team_id: general!.id,
        model: 'balanced',
        system_prompt: '',
        cold_timeout_minutes: 30,
        close_timeout_minutes: 120,
        max_tool_rounds: 10,
        max_tokens_per_query: null,
        tool_timeout_seconds: null,
        tool_budget_seconds: 120,
        approval: { mode: 'none', approvers: 'admins', expires_minutes: 60 },
        tool_search: { mode: 'auto', threshold: 30, pinned: [] },
        conversations_visible_to: 'starter',
        created_at: t.clock.now().toISOString(),
      },
    });
  });

  it('answers the detail view of a new workspace: empty children, default permissions, zero stats', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const summary = (await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body.workspace;
    const response = await t.request('GET', `/api/workspaces/${id}`, { cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      workspace: summary,
      connections: [],
      tools: [],
      knowledge: [],
      guardrails: [],
      consumers: [],
      permissions: [
        { role: 'admin', tool_patterns: '["*"]' },
        { role: 'member', tool_patterns: '["*"]' },
      ],
      stats: { today: 0, week: 0, month: 0, avg_ms: 0, cost_mtd: 0, error_rate: 0 },
    });
  });

  it('computes stats from the day and month counters (week = the last 7 days)', async () => {
    atEndOfMonth(); // 10 days ago in this month, not in the week
    const { cookie, orgId, id } = await orgWithWorkspace();
    await recordUsage(t.deps, orgId, id, { queries: 3 }, dateDaysAgo(0));
    await recordUsage(t.deps, orgId, id, { queries: 4 }, dateDaysAgo(3));
    await recordUsage(t.deps, orgId, id, { queries: 3, errors: 2, duration_ms: 5000, cost_usd: 1.25 }, dateDaysAgo(10));
    const response = await t.request('GET', `/api/workspaces/${id}`, { cookie });
    expect(response.body.stats).toEqual({ today: 3, week: 7, month: 10, avg_ms: 500, cost_mtd: 1.25, error_rate: 0.2 });
  });
});

describe('PUT /api/workspaces/:id', () => {
  it('updates each field, answers { workspace: summary } and keeps the change', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const updates: [string, unknown][] = [
      ['name', 'Renamed Desk'],
      ['model', 'powerful'],
      ['model', 'fast'],
      ['system_prompt', 'Answer in French.'],
      ['cold_timeout_minutes', 0.05],
      ['close_timeout_minutes', 240.5],
      ['max_tool_rounds', 50],
      ['max_tool_rounds', 1],
    ];
    for (const [field, value] of updates) {
      const response = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body: { [field]: value } });
      expect(response.status, `${field}=${value}`).toBe(200);
      expect(Object.keys(response.body)).toEqual(['workspace']);
      expect(response.body.workspace).toMatchObject({ id, [field]: value });
    }
    const summary = await t.request('GET', `/api/workspaces/${id}/summary`, { cookie });
    expect(summary.body.workspace).toMatchObject({
      name: 'Renamed Desk',
      model: 'fast',
      system_prompt: 'Answer in French.',
      cold_timeout_minutes: 0.05,
      close_timeout_minutes: 240.5,
      max_tool_rounds: 1,
      status: 'active',
      team: 'General',
    });
  });

  it('is admin only: a member gets 403 and nothing changes', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const member = await t.addMember(cookie);
    const response = await t.request('PUT', `/api/workspaces/${id}`, { cookie: member.cookie, body: { model: 'fast' } });
    expect(response.status).toBe(403);
    expect((await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body.workspace.model).toBe('balanced');
  });

  it.each([
    [{ model: 'gpt-4' }, 'model'],
    [{ model: 'turbo' }, 'model'],
    [{ cold_timeout_minutes: 0 }, 'cold_timeout_minutes'],
    [{ cold_timeout_minutes: -1 }, 'cold_timeout_minutes'],
    [{ cold_timeout_minutes: '5' }, 'cold_timeout_minutes'],
    [{ close_timeout_minutes: 0 }, 'close_timeout_minutes'],
    [{ max_tool_rounds: 0 }, 'max_tool_rounds'],
    [{ max_tool_rounds: 51 }, 'max_tool_rounds'],
    [{ max_tool_rounds: 2.5 }, 'max_tool_rounds'],
    [{ name: '' }, 'name'],
  ])('answers 400 naming the field for %j and changes nothing', async (body, field) => {
    const { cookie, id } = await orgWithWorkspace();
    const before = (await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body;
    const response = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body });
    expect(response.status).toBe(400);
    expect(pathsOf(response)).toEqual([field]);
    expect((await t.request('GET', `/api/workspaces/${id}/summary`, { cookie })).body).toEqual(before);
  });

  it('answers 400 for an empty body and 404 for an unknown workspace', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const empty = await t.request('PUT', `/api/workspaces/${id}`, { cookie, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.details.length).toBeGreaterThan(0);
    const unknown = await t.request('PUT', '/api/workspaces/ws-no-such-workspace', { cookie, body: { model: 'fast' } });
    expect(unknown.status).toBe(404);
  });
});

describe("workspace ids that are unknown or another organisation's", () => {
  const suffixes = ['/summary', '', '/dashboard', '/activity', '/connections', '/consumers', '/knowledge', '/compliance', '/conversations'];
  const probes = (id: string, cid: string): [string, string][] => [
    ...suffixes.map((suffix): [string, string] => ['GET', `/api/workspaces/${id}${suffix}`]),
    ['GET', `/api/workspaces/${id}/conversations/${cid}`],
    ['PUT', `/api/workspaces/${id}`],
  ];
  const probe = (method: string, path: string, cookie: string) =>
    t.request(method, path, { cookie, ...(method === 'PUT' ? { body: { system_prompt: 'probe' } } : {}) });

  it('answers 404 on every workspace endpoint for an id that does not exist', async () => {
    const { cookie } = await t.signUp();
    for (const [method, path] of probes('ws-never-created', 'conv-1')) {
      const response = await probe(method, path, cookie);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error, `${method} ${path}`).toBeTypeOf('string');
    }
  });

  it('answers 404 (never 403) to another organisation, while the owner gets 200', async () => {
    const owner = await orgWithWorkspace();
    await seedConversation(owner.orgId, owner.id, {
      id: 'conv-owned',
      status: 'open',
      consumer_type: 'api',
      at: '2026-11-22T09:00:00.000Z',
    });
    const stranger = await t.signUp();
    const strangerMember = await t.addMember(stranger.cookie);
    for (const [method, path] of probes(owner.id, 'conv-owned')) {
      expect((await probe(method, path, owner.cookie)).status, `owner ${method} ${path}`).toBe(200);
      expect((await probe(method, path, stranger.cookie)).status, `admin ${method} ${path}`).toBe(404);
      // A member is refused PUT for any id (403, role check first), so that answer leaks nothing.
      const memberStatus = (await probe(method, path, strangerMember.cookie)).status;
      expect(memberStatus, `member ${method} ${path}`).toBe(method === 'PUT' ? 403 : 404);
    }
    const unknownPut = await probe('PUT', '/api/workspaces/ws-never-created', strangerMember.cookie);
    expect(unknownPut.status).toBe(403);
    const summary = await t.request('GET', `/api/workspaces/${owner.id}/summary`, { cookie: owner.cookie });
    expect(summary.body.workspace.system_prompt).toBe('probe');
  });
});

describe('child endpoints of an empty workspace', () => {
  it('answer their documented shapes', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const get = async (suffix: string) => (await t.request('GET', `/api/workspaces/${id}/${suffix}`, { cookie })).body;
    expect(await get('connections')).toEqual({ connections: [], tools: [] });
    expect(await get('consumers')).toEqual({ consumers: [] });
    expect(await get('knowledge')).toEqual({ knowledge: [], gaps: [] });
    expect(await get('compliance')).toEqual({ guardrails: [], violations: [], next_cursor: null });
    expect(await get('activity')).toEqual({ activity: [], total: 0, next_cursor: null });
    expect(await get('conversations')).toEqual({
      conversations: [],
      total: 0,
      next_cursor: null,
      filters: {
        status: ['open', 'cold', 'closed'],
        consumer: ['team-chat', 'api', 'messaging', 'coding-agent', 'console'],
        category: [],
        resolution: ['resolved', 'unresolved'],
      },
    });
  });

  it('answer an all-zero dashboard with 30 days of usage ending today', async () => {
    const { cookie, id } = await orgWithWorkspace();
    const dashboard = (await t.request('GET', `/api/workspaces/${id}/dashboard`, { cookie })).body;
    expect(dashboard).toEqual({
      range: { from: daysAgo(29), to: daysAgo(0), days: 30 },
      tickets: { open: 0, cold: 0, closed: 0, total: 0 },
      sentiment: { average: null, positive: 0, neutral: 0, negative: 0 },
      compliance: { violations: 0, guardrails: 0 },
      knowledge_gaps: { count: 0, recent: [] },
      resolution: { resolved: 0, unresolved: 0, rate: null },
      feedback: { up: 0, down: 0, rate: null },
      approvals: { pending: 0, approved: 0, denied: 0, expired: 0 },
      cost: { today: 0, mtd: 0, per_conversation: 0 },
      usage: { queries_today: 0, week: 0, month: 0, by_day: expect.any(Array) },
      cache: { read_tokens: 0, write_tokens: 0, input_tokens: 0, hit_rate: null },
      recent_conversations: [],
      categories: [],
      channels: [],
      connections: [],
    });
    expect(dashboard.usage.by_day).toHaveLength(30);
    expect(dashboard.usage.by_day[0]).toEqual({ date: daysAgo(29), queries: 0, cost: 0, cache_hit_rate: null });
    expect(dashboard.usage.by_day[29]).toEqual({ date: daysAgo(0), queries: 0, cost: 0, cache_hit_rate: null });
  });
});

describe('GET /api/workspaces/:id/activity', () => {
  it('pages the audit log newest first, by cursor and by offset, with total from the counter', async () => {
    const { cookie, orgId, id } = await orgWithWorkspace();
    await seedActivity(orgId, id, 7);
    const all = await t.request('GET', `/api/workspaces/${id}/activity`, { cookie });
    expect(all.body).toMatchObject({ total: 7, next_cursor: null });
    const newestFirst = ['act-6', 'act-5', 'act-4', 'act-3', 'act-2', 'act-1', 'act-0'];
    expect(all.body.activity.map((entry: { id: string }) => entry.id)).toEqual(newestFirst);
    const newest = new Date(t.clock.now().getTime() - 1000).toISOString();
    // Entries written before approvals, the cache counters and the user's id existed (and these, seeded without a conversation) read with no approvals, 0 cache tokens, no user id, no conversation.
    expect(all.body.activity[0]).toEqual({
      ...activityFields(6),
      conversation_id: null,
      user_id: null,
      tokens_input: 106,
      tokens: { input: 106, output: 50, cache_read: 0, cache_write: 0 },
      approvals: [],
      created_at: newest,
      // A query's entry; a gateway tool call's is kind tool_call with its client and outcome.
      kind: 'query',
      client: null,
      consumer: null,
      outcome: null,
      tool: null,
    });

    const seen: string[] = [];
    let [cursor, pages]: [string | null, number] = [null, 0];
    do {
      const query: string = cursor ? `limit=3&cursor=${encodeURIComponent(cursor)}` : 'limit=3';
      const page: ApiResponse = await t.request('GET', `/api/workspaces/${id}/activity?${query}`, { cookie });
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(7);
      expect(page.body.activity.length).toBe(pages < 2 ? 3 : 1);
      seen.push(...page.body.activity.map((entry: { id: string }) => entry.id));
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);

    const tail = await t.request('GET', `/api/workspaces/${id}/activity?offset=5&limit=3`, { cookie });
    expect(tail.body.activity.map((entry: { id: string }) => entry.id)).toEqual(['act-1', 'act-0']);
    expect(tail.body).toMatchObject({ total: 7, next_cursor: null });
  });

  it('clamps limit to 200', async () => {
    const { cookie, orgId, id } = await orgWithWorkspace();
    await seedActivity(orgId, id, 201);
    const response = await t.request('GET', `/api/workspaces/${id}/activity?limit=500`, { cookie });
    expect(response.status).toBe(200);
    expect(response.body.activity).toHaveLength(200);
    expect(response.body).toMatchObject({ total: 201, next_cursor: expect.any(String) });
  });

  it.each([
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=0', 'limit'],
    ['offset=-2', 'offset'],
    ['offset=1.5', 'offset'],
    ['cursor=garbage', 'cursor'],
  ])('answers 400 for ?%s naming %s', async (query, field) => {
    const { cookie, id } = await orgWithWorkspace();
    const response = await t.request('GET', `/api/workspaces/${id}/activity?${query}`, { cookie });
    expect(response.status).toBe(400);
    expect(pathsOf(response)).toEqual([field]);
  });

  it("rejects a cursor taken from another workspace's activity", async () => {
    const { cookie, orgId, id } = await orgWithWorkspace();
    const other = await t.createWorkspace(cookie, { name: uniqueName() });
    await seedActivity(orgId, id, 4);
    await seedActivity(orgId, other.id, 4);
    const cursor = (await t.request('GET', `/api/workspaces/${id}/activity?limit=2`, { cookie })).body.next_cursor;
    expect(cursor).toBeTypeOf('string');
    const own = await t.request('GET', `/api/workspaces/${id}/activity?limit=2&cursor=${cursor}`, { cookie });
    expect(own.status).toBe(200);
    const foreign = await t.request('GET', `/api/workspaces/${other.id}/activity?limit=2&cursor=${cursor}`, { cookie });
    expect(foreign.status).toBe(400);
    expect(pathsOf(foreign)).toEqual(['cursor']);
  });
});

describe('conversations of a workspace', () => {
  let cookie: string;
  let orgId: string;
  let id: string;
  beforeAll(async () => {
    ({ cookie, orgId, id } = await orgWithWorkspace());
    const seeds: SeedConversation[] = [
      { id: 'c1', status: 'open', consumer_type: 'api', category: 'support', at: '2026-11-22T09:40:00.000Z' },
      {
        id: 'c2',
        status: 'closed',
        consumer_type: 'team-chat',
        category: 'support',
        resolution_status: 'resolved',
        channel: 'help',
        at: '2026-11-22T09:30:00.000Z',
      },
      {
        id: 'c3',
        status: 'closed',
        consumer_type: 'api',
        category: 'issue',
        resolution_status: 'unresolved',
        at: '2026-11-22T09:20:00.000Z',
      },
      { id: 'c4', status: 'cold', consumer_type: 'messaging', category: 'query', at: '2026-11-22T09:10:00.000Z' },
    ];
    for (const seed of seeds) await seedConversation(orgId, id, seed);
    await addWorkspaceCounters(t.deps, orgId, id, {
      conversations: 4,
      'status#open': 1,
      'status#cold': 1,
      'status#closed': 2,
      'category#support': 2,
      'category#issue': 1,
      'category#query': 1,
      'category#billing': 0,
      'resolution#resolved': 1,
      'resolution#unresolved': 1,
      'consumer#api': 2,
      'consumer#team-chat': 1,
      'consumer#messaging': 1,
    });
  });
  const list = (query = '') => t.request('GET', `/api/workspaces/${id}/conversations${query}`, { cookie });
  const idsOf = (response: ApiResponse) => response.body.conversations.map((c: { id: string }) => c.id);

  it('lists them newest activity first, with every field, the total and the categories in use', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(response.body).toMatchObject({ total: 4, next_cursor: null });
    expect(response.body.filters.category).toEqual(['issue', 'query', 'support']);
    expect(response.body.conversations[1]).toEqual({
      id: 'c2',
      workspace_id: id,
      consumer_type: 'team-chat',
      status: 'closed',
      user_name: 'Uma User',
      channel: 'help',
      message_count: 2,
      sentiment_score: null,
      resolution_status: 'resolved',
      category: 'support',
      summary: null,
      total_cost_usd: 0.02,
      stats_status: null,
      first_message_at: '2026-11-22T06:00:00.000Z',
      last_activity_at: '2026-11-22T09:30:00.000Z',
      // Seeded without the first question or the consumer: as conversations stored before they were kept.
      title: null,
      consumer_id: null,
      pinned: false,
    });
  });

  it.each([
    ['?status=closed', ['c2', 'c3'], 2],
    ['?status=open', ['c1'], 1],
    ['?category=support', ['c1', 'c2'], 2],
    ['?category=billing', [], 0],
    ['?resolution=unresolved', ['c3'], 1],
    ['?consumer=api', ['c1', 'c3'], 2],
    ['?consumer=coding-agent', [], 0],
    ['?status=closed&category=support', ['c2'], 1],
  ])('filters %s', async (query, ids, total) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(ids);
    expect(response.body.total).toBe(total);
  });

  it('pages by cursor with the total of all pages', async () => {
    const first = await list('?limit=2');
    expect(idsOf(first)).toEqual(['c1', 'c2']);
    expect(first.body.total).toBe(4);
    const second = await list(`?limit=2&cursor=${first.body.next_cursor}`);
    expect(idsOf(second)).toEqual(['c3', 'c4']);
    expect(second.body).toMatchObject({ total: 4, next_cursor: null });
    const offset = await list('?status=closed&offset=1');
    expect(idsOf(offset)).toEqual(['c3']);
  });

  it.each([
    ['?status=pending', 'status'],
    ['?resolution=maybe', 'resolution'],
    ['?consumer=fax', 'consumer'],
    ['?limit=-1', 'limit'],
  ])('answers 400 for %s', async (query, field) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(pathsOf(response)).toEqual([field]);
  });

  it('answers one conversation with its messages in seq order and its stats', async () => {
    // c3 only: the list tests above assert c2's fields, so this test leaves it alone.
    const message = (seq: number, role: string, extra: Record<string, unknown> = {}) =>
      t.deps.table.put({
        ...messageKey(orgId, id, 'c3', seq),
        id: `msg-${seq}`,
        seq,
        role,
        content: `message ${seq}`,
        created_at: `2026-11-22T09:0${seq}:00.000Z`,
        ...extra,
      });
    const assistant = { tools_called: '["search_docs"]', tokens_input: 120, tokens_output: 40, cost_usd: 0.01, duration_ms: 900 };
    await message(3, 'user');
    await message(1, 'user');
    await message(2, 'assistant', assistant);
    await t.deps.table.update(conversationKey(orgId, id, 'c3'), {
      update: 'SET sentiment_score = :s, summary = :m, stats_status = :c, message_count = :n',
      values: { ':s': 0.6, ':m': 'Reset a password.', ':c': 'complete', ':n': 3 },
    });
    const response = await t.request('GET', `/api/workspaces/${id}/conversations/c3`, { cookie });
    expect(response.status).toBe(200);
    expect(response.body.conversation).toMatchObject({ id: 'c3', status: 'closed', summary: 'Reset a password.' });
    expect(response.body.messages.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3]);
    expect(response.body.messages[0]).toEqual({
      id: 'msg-1',
      seq: 1,
      role: 'user',
      content: 'message 1',
      tools_called: null,
      tool_calls: [],
      stopped: false,
      citations: [],
      awaiting_approval: false,
      tokens_input: null,
      tokens_output: null,
      tokens: null,
      cost_usd: null,
      duration_ms: null,
      created_at: '2026-11-22T09:01:00.000Z',
      feedback: { up: 0, down: 0 },
    });
    expect(response.body.messages[1]).toMatchObject({
      id: 'msg-2',
      role: 'assistant',
      ...assistant,
      tokens: { input: 120, output: 40, cache_read: 0, cache_write: 0 },
    });
    expect(response.body.stats).toEqual({
      sentiment_score: 0.6,
      resolution_status: 'unresolved',
      category: 'issue',
      summary: 'Reset a password.',
      total_cost_usd: 0.02,
      stats_status: 'complete',
    });
    const missing = await t.request('GET', `/api/workspaces/${id}/conversations/c-missing`, { cookie });
    expect(missing.status).toBe(404);
  });
});

describe('GET /api/workspaces/:id/dashboard', () => {
  it('reports tickets, resolution, sentiment, categories, channels, cost and usage from the counters', async () => {
    atEndOfMonth(); // 20 days ago in this month (40 days ago is in an earlier one from any day)
    const { cookie, orgId, id } = await orgWithWorkspace();
    await seedConversation(orgId, id, { id: 'd1', status: 'closed', consumer_type: 'api', at: '2026-11-22T08:00:00.000Z' });
    await seedConversation(orgId, id, { id: 'd2', status: 'open', consumer_type: 'api', at: '2026-11-22T09:00:00.000Z' });
    await addWorkspaceCounters(t.deps, orgId, id, {
      conversations: 8,
      'status#open': 2,
      'status#cold': 1,
      'status#closed': 5,
      'resolution#resolved': 3,
      'resolution#unresolved': 1,
      'category#billing': 1,
      'category#support': 5,
      'category#issue': 2,
      'category#retired': 0,
      'channel#general': 3,
      'channel#help': 5,
      sentiment_sum: 2,
      sentiment_count: 4,
      'sentiment#positive': 2,
      'sentiment#neutral': 1,
      'sentiment#negative': 1,
      violations: 1,
      gaps: 2,
    });
    const days: [number, number, number][] = [
      [0, 4, 0.4],
      [2, 3, 0.3],
      [20, 6, 0.6],
      [40, 100, 9],
    ];
    for (const [ago, queries, cost] of days) await recordUsage(t.deps, orgId, id, { queries, cost_usd: cost }, dateDaysAgo(ago));

    const dashboard = (await t.request('GET', `/api/workspaces/${id}/dashboard`, { cookie })).body;
    expect(dashboard.tickets).toEqual({ open: 2, cold: 1, closed: 5, total: 8 });
    expect(dashboard.resolution).toEqual({ resolved: 3, unresolved: 1, rate: 0.75 });
    expect(dashboard.sentiment).toEqual({ average: 0.5, positive: 2, neutral: 1, negative: 1 });
    expect(dashboard.compliance).toEqual({ violations: 1, guardrails: 0 });
    expect(dashboard.knowledge_gaps.count).toBe(2);
    expect(dashboard.channels).toEqual([
      { channel: 'help', count: 5 },
      { channel: 'general', count: 3 },
    ]);
    // 40 days ago is last month: in the all-time cost (10.3 over 8 conversations), not in this month's.
    expect(dashboard.cost).toEqual({ today: 0.4, mtd: 1.3, per_conversation: 1.2875 });
    expect(dashboard.usage).toMatchObject({ queries_today: 4, week: 7, month: 13 });
    const byDay = new Map(dashboard.usage.by_day.map((day: { date: string }) => [day.date, day]));
    expect(dashboard.usage.by_day).toHaveLength(30);
    // No token counters seeded: no cache hit rate on any day.
    expect(byDay.get(daysAgo(0))).toEqual({ date: daysAgo(0), queries: 4, cost: 0.4, cache_hit_rate: null });
    expect(byDay.get(daysAgo(2))).toEqual({ date: daysAgo(2), queries: 3, cost: 0.3, cache_hit_rate: null });
    expect(byDay.get(daysAgo(20))).toEqual({ date: daysAgo(20), queries: 6, cost: 0.6, cache_hit_rate: null });
    expect(dashboard.cache).toEqual({ read_tokens: 0, write_tokens: 0, input_tokens: 0, hit_rate: null });
    expect(byDay.has(daysAgo(40))).toBe(false);
    expect(dashboard.usage.by_day.reduce((sum: number, day: { queries: number }) => sum + day.queries, 0)).toBe(13);
    expect(dashboard.recent_conversations.map((c: { id: string }) => c.id)).toEqual(['d2', 'd1']);
    expect(dashboard.categories.map((c: { category: string }) => c.category).sort()).toEqual(['billing', 'issue', 'support']);
  });

  it('lists categories most frequent first, leaving out those at 0', async () => {
    const { cookie, orgId, id } = await orgWithWorkspace();
    const counters = { 'category#billing': 1, 'category#support': 5, 'category#issue': 2, 'category#retired': 0 };
    await addWorkspaceCounters(t.deps, orgId, id, { conversations: 8, ...counters });
    const dashboard = (await t.request('GET', `/api/workspaces/${id}/dashboard`, { cookie })).body;
    expect(dashboard.categories).toEqual([
      { category: 'support', count: 5 },
      { category: 'issue', count: 2 },
      { category: 'billing', count: 1 },
    ]);
  });
});
