import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/platform/keys.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * The dashboard over chosen days, and the audit log filtered by days, user, tool and outcome, and
 * exported as CSV (issue 33). The test clock stands at 2026-11-22T10:00Z.
 */

let t: TestContext;
let model: FakeModel;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let member: Awaited<ReturnType<TestContext['addMember']>>;
let workspaceId: string;

interface Entry {
  at: string;
  id: string;
  user_id?: string | null;
  user_name?: string;
  query?: string;
  tools?: string[];
  error?: string | null;
}

/** Audit entries as the query path stores them (shared/agent/query/persist.ts). */
function activityItems(orgId: string, workspace: string, entries: Entry[]) {
  return entries.map((entry) => ({
    ...keys.activityEntry(orgId, workspace, entry.at, entry.id),
    id: entry.id,
    conversation_id: 'conv-seeded',
    user_id: entry.user_id ?? null,
    user_name: entry.user_name ?? 'Seeded',
    query: entry.query ?? `question ${entry.id}`,
    tools_called: entry.tools ?? [],
    connections_hit: [],
    tokens_input: 10,
    tokens_output: 5,
    tokens_cache_read: 0,
    tokens_cache_write: 0,
    cost_usd: 0.001,
    duration_ms: 120,
    error: entry.error ?? null,
    approvals: [],
    created_at: entry.at,
  }));
}

const SEEDED: Entry[] = [
  { at: '2026-11-01T09:00:00.000Z', id: 'act-a', user_id: 'user-ana', user_name: 'Ana', tools: ['lookup_order'] },
  {
    at: '2026-11-02T23:59:59.999Z',
    id: 'act-b',
    user_id: 'user-ana',
    user_name: 'Ana',
    error: 'tool lookup_order timed out',
    tools: ['lookup_order'],
  },
  { at: '2026-11-03T00:00:00.000Z', id: 'act-c', user_id: 'user-bo', user_name: 'Bo', tools: ['refund_order', 'lookup_order'] },
  { at: '2026-11-05T12:00:00.000Z', id: 'act-d', user_id: 'user-bo', user_name: 'Bo', error: 'model refused' },
  { at: '2026-11-06T12:00:00.000Z', id: 'act-e', user_id: null, user_name: 'ci-key', tools: ['lookup_orders'] },
];

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('Answered.'));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  admin = await t.signUp();
  member = await t.addMember(admin.cookie);
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Ranges' })).id;
  await t.deps.table.batchPut(activityItems(admin.org.id, workspaceId, SEEDED));
  // Day counters as the query path adds them: two days in August, and today.
  const day = (date: string, queries: number) => ({
    ...keys.workspaceDayStats(admin.org.id, workspaceId, date),
    queries,
    cost_usd: queries / 100,
    tokens_input: 100,
  });
  await t.deps.table.batchPut([day('2026-08-01', 3), day('2026-08-05', 5), day('2026-11-20', 1), day('2026-11-22', 2)]);
});

afterAll(async () => {
  await t?.close();
  await model?.stop();
});

const get = (path: string, cookie = admin.cookie) => t.request('GET', path, { cookie });
const dashboard = (query = '') => get(`/api/workspaces/${workspaceId}/dashboard${query}`);
const activity = (query = '', workspace = workspaceId) => get(`/api/workspaces/${workspace}/activity${query}`);
const ids = (response: { body: { activity: { id: string }[] } }) => response.body.activity.map((entry) => entry.id);
const detailPaths = (response: { body: { details?: { path: string }[] } }) => response.body.details?.map((detail) => detail.path);

describe('GET /api/workspaces/:id/dashboard?from&to', () => {
  it('charts the 30 days ending today (UTC) unless asked', async () => {
    const response = await dashboard();
    expect(response.status, response.text).toBe(200);
    expect(response.body.range).toEqual({ from: '2026-10-24', to: '2026-11-22', days: 30 });
    expect(response.body.usage.by_day).toHaveLength(30);
    expect(response.body.usage.by_day.at(-1)).toMatchObject({ date: '2026-11-22', queries: 2 });
  });

  it('charts the days asked, both included, and keeps the headline on today and the last 7 days', async () => {
    const response = await dashboard('?from=2026-08-01&to=2026-08-07');
    expect(response.status, response.text).toBe(200);
    expect(response.body.range).toEqual({ from: '2026-08-01', to: '2026-08-07', days: 7 });
    expect(response.body.usage.by_day.map((entry: { date: string; queries: number }) => [entry.date, entry.queries])).toEqual([
      ['2026-08-01', 3],
      ['2026-08-02', 0],
      ['2026-08-03', 0],
      ['2026-08-04', 0],
      ['2026-08-05', 5],
      ['2026-08-06', 0],
      ['2026-08-07', 0],
    ]);
    expect(response.body.usage.by_day[4].cost).toBe(0.05);
    expect(response.body.cache.input_tokens).toBe(200);
    expect(response.body.usage.queries_today).toBe(2);
    expect(response.body.usage.week).toBe(3);
    expect(response.body.cost.today).toBe(0.02);
  });

  it('takes one end alone: 30 days ending on to, or from a day up to today', async () => {
    const ending = await dashboard('?to=2026-08-30');
    expect(ending.body.range).toEqual({ from: '2026-08-01', to: '2026-08-30', days: 30 });
    const since = await dashboard('?from=2026-11-20');
    expect(since.body.range).toEqual({ from: '2026-11-20', to: '2026-11-22', days: 3 });
    expect(since.body.usage.by_day.map((entry: { queries: number }) => entry.queries)).toEqual([1, 0, 2]);
  });

  it('charts 90 days at most, and refuses a range past it, backwards, or of dates that are not dates, naming the field', async () => {
    expect((await dashboard('?from=2026-08-25&to=2026-11-22')).body.usage.by_day).toHaveLength(90);
    const cases: [string, string, RegExp][] = [
      ['?from=2026-08-24&to=2026-11-22', 'from', /at most 90 days/],
      ['?from=2026-11-10&to=2026-11-01', 'from', /must not be after to/],
      ['?from=2026-12-01', 'from', /after today/],
      ['?from=2026-02-30', 'from', /must be a date YYYY-MM-DD/],
      ['?to=2026-1-1', 'to', /must be a date YYYY-MM-DD/],
      ['?to=yesterday', 'to', /must be a date YYYY-MM-DD/],
    ];
    for (const [query, field, message] of cases) {
      const response = await dashboard(query);
      expect(response.status, `${query} ${response.text}`).toBe(400);
      expect(response.body.error).toBeTypeOf('string');
      expect(detailPaths(response), query).toEqual([field]);
      expect(response.body.details[0].message, query).toMatch(message);
    }
  });
});

describe('GET /api/workspaces/:id/activity with filters', () => {
  it("stores who asked: a signed-in user's id beside their name", async () => {
    const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: member.cookie, body: { query: 'Mine?' } });
    expect(asked.status, asked.text).toBe(200);
    const mine = await activity(`?user=${member.user.id}`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.activity).toEqual([expect.objectContaining({ user_id: member.user.id, user_name: 'Max Member', query: 'Mine?' })]);
    expect(mine.body.total).toBe(1);
    expect((await activity()).body.total).toBe(1);
  });

  it('lists the days asked (a key condition), both days included', async () => {
    expect(ids(await activity('?from=2026-11-02&to=2026-11-05'))).toEqual(['act-d', 'act-c', 'act-b']);
    expect(ids(await activity('?to=2026-11-02'))).toEqual(['act-b', 'act-a']);
    expect(ids(await activity('?from=2026-11-06&to=2026-11-06'))).toEqual(['act-e']);
  });

  it('filters by user id, by a tool called (exactly), and by outcome', async () => {
    const byUser = await activity('?user=user-bo');
    expect(ids(byUser)).toEqual(['act-d', 'act-c']);
    // A filtered total counts what matches, not every query.
    expect(byUser.body.total).toBe(2);
    expect(ids(await activity('?tool=lookup_order'))).toEqual(['act-c', 'act-b', 'act-a']);
    expect(ids(await activity('?errors=true'))).toEqual(['act-d', 'act-b']);
    expect(ids(await activity('?errors=false&to=2026-11-21'))).toEqual(['act-e', 'act-c', 'act-a']);
    expect(ids(await activity('?user=user-ana&errors=true&tool=lookup_order'))).toEqual(['act-b']);
    expect(ids(await activity('?user=nobody'))).toEqual([]);
  });

  it('pages filtered lists by cursor, and refuses a cursor of other days', async () => {
    const first = await activity('?tool=lookup_order&limit=2');
    expect(ids(first)).toEqual(['act-c', 'act-b']);
    const second = await activity(`?tool=lookup_order&limit=2&cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(['act-a']);
    expect(second.body.next_cursor).toBeNull();
    const paged = await activity('?from=2026-11-01&to=2026-11-06&limit=2');
    const elsewhere = await activity(`?from=2026-11-10&limit=2&cursor=${paged.body.next_cursor}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.details).toEqual([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  });

  it('refuses filters it cannot take, naming the field', async () => {
    for (const [query, field] of [
      ['?errors=yes', 'errors'],
      ['?user=', 'user'],
      ['?tool=', 'tool'],
      ['?from=2026-11-31', 'from'],
      ['?from=2026-11-05&to=2026-11-01', 'from'],
    ]) {
      const response = await activity(query);
      expect(response.status, query).toBe(400);
      expect(detailPaths(response), query).toEqual([field]);
    }
  });

  it('reads at most 1000 entries for a filtered page, and its cursor goes on from there', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Busy' })).id;
    const old: Entry[] = [
      { at: '2026-10-01T00:00:00.000Z', id: 'old-1', error: 'failed' },
      { at: '2026-10-01T00:00:01.000Z', id: 'old-2', error: 'failed' },
    ];
    const recent = Array.from({ length: 1005 }, (_, index) => ({
      at: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString(),
      id: `ok-${index}`,
    }));
    await t.deps.table.batchPut(activityItems(admin.org.id, workspace, [...old, ...recent]));
    const first = await activity('?errors=true', workspace);
    expect(first.status, first.text).toBe(200);
    expect(first.body.activity).toEqual([]);
    expect(first.body.next_cursor).toBeTypeOf('string');
    const second = await activity(`?errors=true&cursor=${first.body.next_cursor}`, workspace);
    expect(ids(second)).toEqual(['old-2', 'old-1']);
    expect(second.body.next_cursor).toBeNull();
  });
});

/** Records of an RFC 4180 text (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += char;
  }
  return rows;
}

describe('GET /api/workspaces/:id/activity.csv', () => {
  const csv = (query = '', workspace = workspaceId, cookie = admin.cookie) =>
    get(`/api/workspaces/${workspace}/activity.csv${query}`, cookie);

  it('answers a CSV attachment named by workspace and days, with a header row and the filtered entries', async () => {
    const response = await csv('?from=2026-11-01&to=2026-11-06&user=user-ana');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="activity-${workspaceId}-2026-11-01-2026-11-06.csv"`);
    expect(response.headers.get('x-truncated')).toBe('false');
    expect(response.text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(response.text);
    expect(header?.slice(0, 6)).toEqual(['created_at', 'id', 'user_id', 'user_name', 'query', 'tools_called']);
    expect(header).toContain('error');
    expect(rows.map((row) => row[1])).toEqual(['act-b', 'act-a']);
    expect(rows[0]?.[header?.indexOf('error') ?? -1]).toBe('tool lookup_order timed out');
    const unfiltered = await csv();
    expect(unfiltered.headers.get('content-disposition')).toBe(`attachment; filename="activity-${workspaceId}-start-2026-11-22.csv"`);
    expect(parseCsv(unfiltered.text)).toHaveLength(1 + SEEDED.length + 1);
  });

  it('quotes commas, quotes and line breaks, and makes a formula text', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Quoting' })).id;
    const queries = [
      'a, b',
      'say "hi"',
      'two\nlines',
      '=HYPERLINK("http://evil.example","x")',
      '+1+2',
      '-3',
      '@SUM(A1)',
      '\tTab',
      '\rCR',
      'plain',
    ];
    const entries = queries.map((query, index) => ({ at: `2026-11-10T00:00:${String(10 + index)}.000Z`, id: `q-${index}`, query }));
    await t.deps.table.batchPut(activityItems(admin.org.id, workspace, entries));
    const response = await csv('', workspace);
    expect(response.text).toContain(',"a, b",');
    expect(response.text).toContain(',"say ""hi""",');
    expect(response.text).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    const rows = parseCsv(response.text).slice(1).reverse();
    expect(rows.map((row) => row[4])).toEqual([
      'a, b',
      'say "hi"',
      'two\nlines',
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+2",
      "'-3",
      "'@SUM(A1)",
      "'\tTab",
      "'\rCR",
      'plain',
    ]);
  });

  it('holds 10 000 rows at most, and says X-Truncated: true when it left some out', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Cap' })).id;
    const entries = Array.from({ length: 10_001 }, (_, index) => ({
      at: new Date(Date.UTC(2026, 9, 1) + index * 10_000).toISOString(),
      id: `e-${index}`,
    }));
    await t.deps.table.batchPut(activityItems(admin.org.id, workspace, entries));
    const response = await csv('', workspace);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-truncated')).toBe('true');
    const rows = parseCsv(response.text);
    expect(rows).toHaveLength(10_001);
    expect(rows[1]?.[1]).toBe('e-10000');
    const later = await csv('?from=2026-10-02', workspace);
    expect(later.headers.get('x-truncated')).toBe('false');
    expect(parseCsv(later.text)).toHaveLength(1 + 10_001 - 8640);
  }, 60_000);

  it("is for members too, and answers 404 for another organisation's workspace", async () => {
    expect((await csv('', workspaceId, member.cookie)).status).toBe(200);
    expect((await get(`/api/workspaces/${workspaceId}/dashboard?from=2026-11-01`, member.cookie)).status).toBe(200);
    expect((await get(`/api/workspaces/${workspaceId}/activity?errors=true`, member.cookie)).status).toBe(200);
    const stranger = await t.signUp({ org_name: 'Elsewhere' });
    for (const path of ['activity.csv', 'activity?errors=true&from=2026-11-01', 'dashboard?from=2026-11-01']) {
      const response = await get(`/api/workspaces/${workspaceId}/${path}`, stranger.cookie);
      expect(response.status, path).toBe(404);
      expect(response.text).not.toContain('act-');
    }
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`)).status).toBe(401);
  });
});
