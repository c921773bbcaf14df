import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { dayUsageKey } from '../../shared/workspaces/usage-entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * The dashboard over chosen days, and the audit log filtered by days, user, tool and outcome, and
 * exported as CSV (issue 33). Every day is counted back from the test clock's (`day(n)`: n days
 * before today, UTC), so the file means the same from any start: at the default one, today is
 * 2026-11-22, day(21) is 2026-11-01 and day(113) is 2026-08-01.
 */

const DAY_MS = 86_400_000;
/** The test clock when the file starts; it does not move here. */
let start: Date;
/** The UTC date `YYYY-MM-DD` `back` days before the test clock's day (after it when negative). */
const day = (back: number) => new Date(start.getTime() - back * DAY_MS).toISOString().slice(0, 10);
/** An instant on the day `back` days before today, at `time` (`HH:MM:SS.mmm`, UTC). */
const at = (back: number, time: string) => `${day(back)}T${time}Z`;

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
    ...activityEntryKey(orgId, workspace, entry.at, entry.id),
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

/** Audit entries from 21 to 16 days ago, two of them at the very ends of their days. */
const seeded = (): Entry[] => [
  { at: at(21, '09:00:00.000'), id: 'act-a', user_id: 'user-ana', user_name: 'Ana', tools: ['lookup_order'] },
  {
    at: at(20, '23:59:59.999'),
    id: 'act-b',
    user_id: 'user-ana',
    user_name: 'Ana',
    error: 'tool lookup_order timed out',
    tools: ['lookup_order'],
  },
  { at: at(19, '00:00:00.000'), id: 'act-c', user_id: 'user-bo', user_name: 'Bo', tools: ['refund_order', 'lookup_order'] },
  { at: at(17, '12:00:00.000'), id: 'act-d', user_id: 'user-bo', user_name: 'Bo', error: 'model refused' },
  { at: at(16, '12:00:00.000'), id: 'act-e', user_id: null, user_name: 'ci-key', tools: ['lookup_orders'] },
];
let SEEDED: Entry[];

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('Answered.'));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  start = t.clock.now();
  SEEDED = seeded();
  admin = await t.signUp();
  member = await t.addMember(admin.cookie);
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Ranges' })).id;
  await t.deps.table.batchPut(activityItems(admin.org.id, workspaceId, SEEDED));
  // Day counters as the query path adds them: two days more than 90 days ago, two days ago, and today.
  const dayStats = (date: string, queries: number) => ({
    ...dayUsageKey(admin.org.id, 0, date, workspaceId),
    workspace_id: workspaceId,
    queries,
    cost_usd: queries / 100,
    tokens_input: 100,
  });
  await t.deps.table.batchPut([dayStats(day(113), 3), dayStats(day(109), 5), dayStats(day(2), 1), dayStats(day(0), 2)]);
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
    expect(response.body.range).toEqual({ from: day(29), to: day(0), days: 30 });
    expect(response.body.usage.by_day).toHaveLength(30);
    expect(response.body.usage.by_day.at(-1)).toMatchObject({ date: day(0), queries: 2 });
  });

  it('charts the days asked, both included, and keeps the headline on today and the last 7 days', async () => {
    const response = await dashboard(`?from=${day(113)}&to=${day(107)}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.range).toEqual({ from: day(113), to: day(107), days: 7 });
    expect(response.body.usage.by_day.map((entry: { date: string; queries: number }) => [entry.date, entry.queries])).toEqual([
      [day(113), 3],
      [day(112), 0],
      [day(111), 0],
      [day(110), 0],
      [day(109), 5],
      [day(108), 0],
      [day(107), 0],
    ]);
    expect(response.body.usage.by_day[4].cost).toBe(0.05);
    expect(response.body.cache.input_tokens).toBe(200);
    expect(response.body.usage.queries_today).toBe(2);
    expect(response.body.usage.week).toBe(3);
    expect(response.body.cost.today).toBe(0.02);
  });

  it('takes one end alone: 30 days ending on to, or from a day up to today', async () => {
    const ending = await dashboard(`?to=${day(84)}`);
    expect(ending.body.range).toEqual({ from: day(113), to: day(84), days: 30 });
    const since = await dashboard(`?from=${day(2)}`);
    expect(since.body.range).toEqual({ from: day(2), to: day(0), days: 3 });
    expect(since.body.usage.by_day.map((entry: { queries: number }) => entry.queries)).toEqual([1, 0, 2]);
  });

  it('charts 90 days at most, and refuses a range past it, backwards, or of dates that are not dates, naming the field', async () => {
    expect((await dashboard(`?from=${day(89)}&to=${day(0)}`)).body.usage.by_day).toHaveLength(90);
    const cases: [string, string, RegExp][] = [
      [`?from=${day(90)}&to=${day(0)}`, 'from', /at most 90 days/],
      [`?from=${day(12)}&to=${day(21)}`, 'from', /must not be after to/],
      [`?from=${day(-9)}`, 'from', /after today/],
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
    expect(ids(await activity(`?from=${day(20)}&to=${day(17)}`))).toEqual(['act-d', 'act-c', 'act-b']);
    expect(ids(await activity(`?to=${day(20)}`))).toEqual(['act-b', 'act-a']);
    expect(ids(await activity(`?from=${day(16)}&to=${day(16)}`))).toEqual(['act-e']);
  });

  it('filters by user id, by a tool called (exactly), and by outcome', async () => {
    const byUser = await activity('?user=user-bo');
    expect(ids(byUser)).toEqual(['act-d', 'act-c']);
    // A filtered total counts what matches, not every query.
    expect(byUser.body.total).toBe(2);
    expect(ids(await activity('?tool=lookup_order'))).toEqual(['act-c', 'act-b', 'act-a']);
    expect(ids(await activity('?errors=true'))).toEqual(['act-d', 'act-b']);
    expect(ids(await activity(`?errors=false&to=${day(1)}`))).toEqual(['act-e', 'act-c', 'act-a']);
    expect(ids(await activity('?user=user-ana&errors=true&tool=lookup_order'))).toEqual(['act-b']);
    expect(ids(await activity('?user=nobody'))).toEqual([]);
  });

  it('pages filtered lists by cursor, and refuses a cursor of other days', async () => {
    const first = await activity('?tool=lookup_order&limit=2');
    expect(ids(first)).toEqual(['act-c', 'act-b']);
    const second = await activity(`?tool=lookup_order&limit=2&cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(['act-a']);
    expect(second.body.next_cursor).toBeNull();
    const paged = await activity(`?from=${day(21)}&to=${day(16)}&limit=2`);
    const elsewhere = await activity(`?from=${day(12)}&limit=2&cursor=${paged.body.next_cursor}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.details).toEqual([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  });

  it('refuses filters it cannot take, naming the field', async () => {
    for (const [query, field] of [
      ['?errors=yes', 'errors'],
      ['?user=', 'user'],
      ['?tool=', 'tool'],
      ['?from=2026-11-31', 'from'],
      [`?from=${day(17)}&to=${day(21)}`, 'from'],
    ]) {
      const response = await activity(query);
      expect(response.status, query).toBe(400);
      expect(detailPaths(response), query).toEqual([field]);
    }
  });

  it('reads at most 1000 entries for a filtered page, and its cursor goes on from there', async () => {
    const workspace = (await t.createWorkspace(admin.cookie, { name: 'Busy' })).id;
    const old: Entry[] = [
      { at: at(52, '00:00:00.000'), id: 'old-1', error: 'failed' },
      { at: at(52, '00:00:01.000'), id: 'old-2', error: 'failed' },
    ];
    const recent = Array.from({ length: 1005 }, (_, index) => ({
      at: new Date(Date.parse(at(21, '00:00:00.000')) + index * 1000).toISOString(),
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
    const response = await csv(`?from=${day(21)}&to=${day(16)}&user=user-ana`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="activity-${workspaceId}-${day(21)}-${day(16)}.csv"`);
    expect(response.headers.get('x-truncated')).toBe('false');
    expect(response.text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(response.text);
    expect(header?.slice(0, 6)).toEqual(['created_at', 'id', 'user_id', 'user_name', 'query', 'tools_called']);
    expect(header).toContain('error');
    expect(rows.map((row) => row[1])).toEqual(['act-b', 'act-a']);
    expect(rows[0]?.[header?.indexOf('error') ?? -1]).toBe('tool lookup_order timed out');
    const unfiltered = await csv();
    expect(unfiltered.headers.get('content-disposition')).toBe(`attachment; filename="activity-${workspaceId}-start-${day(0)}.csv"`);
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
    const entries = queries.map((query, index) => ({ at: at(12, `00:00:${String(10 + index)}.000`), id: `q-${index}`, query }));
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
    // From midnight 52 days ago, one every 10 s: 8640 on that day, the rest on the next.
    const entries = Array.from({ length: 10_001 }, (_, index) => ({
      at: new Date(Date.parse(at(52, '00:00:00.000')) + index * 10_000).toISOString(),
      id: `e-${index}`,
    }));
    await t.deps.table.batchPut(activityItems(admin.org.id, workspace, entries));
    const response = await csv('', workspace);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-truncated')).toBe('true');
    const rows = parseCsv(response.text);
    expect(rows).toHaveLength(10_001);
    expect(rows[1]?.[1]).toBe('e-10000');
    const later = await csv(`?from=${day(51)}`, workspace);
    expect(later.headers.get('x-truncated')).toBe('false');
    expect(parseCsv(later.text)).toHaveLength(1 + 10_001 - 8640);
  }, 60_000);

  it("is for members too, and answers 404 for another organisation's workspace", async () => {
    expect((await csv('', workspaceId, member.cookie)).status).toBe(200);
    expect((await get(`/api/workspaces/${workspaceId}/dashboard?from=${day(21)}`, member.cookie)).status).toBe(200);
    expect((await get(`/api/workspaces/${workspaceId}/activity?errors=true`, member.cookie)).status).toBe(200);
    const stranger = await t.signUp({ org_name: 'Elsewhere' });
    for (const path of ['activity.csv', `activity?errors=true&from=${day(21)}`, `dashboard?from=${day(21)}`]) {
      const response = await get(`/api/workspaces/${workspaceId}/${path}`, stranger.cookie);
      expect(response.status, path).toBe(404);
      expect(response.text).not.toContain('act-');
    }
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`)).status).toBe(401);
  });
});
