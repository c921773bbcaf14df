import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestRateKey } from '../../shared/platform/entities.js';
import { RequestRate } from '../../shared/platform/request-rate.js';
import { TooManyRequestsError } from '../../shared/platform/errors.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Requests per minute of each organisation and each consumer key on every authenticated route
 * (shared/platform/request-rate.ts): a tenant that floods the API meets its own limit.
 */

const ORG_LIMIT = 25;
const KEY_LIMIT = 8;
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({
    env: { ORG_REQUEST_RATE_LIMIT_PER_MINUTE: String(ORG_LIMIT), KEY_REQUEST_RATE_LIMIT_PER_MINUTE: String(KEY_LIMIT) },
  });
});
afterAll(async () => {
  await t.close();
});

/** Moves the test clock to the start of the next minute: a new window for every scope. */
function nextMinute() {
  const now = t.clock.now().getTime();
  t.clock.set(new Date((Math.floor(now / 60_000) + 1) * 60_000));
}

/** A new organisation's workspace and an api consumer key of it, as an Authorization header. */
async function keyedWorkspace() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Rate ${t.uniqueEmail('ws')}` });
  const created = await t.request('POST', '/api/connectors/consumer', {
    cookie: admin.cookie,
    body: { type: 'api', workspace_id: workspace.id, credentials: {} },
  });
  expect(created.status, created.text).toBe(201);
  return { admin, workspace, consumerId: created.body.id as string, authorization: `Bearer ${created.body.api_key}` };
}

describe('requests per organisation and per key', () => {
  it('answers 429 with Retry-After past the organisation’s limit on any route, and not to another organisation', async () => {
    nextMinute();
    const flooding = await t.signUp();
    const other = await t.signUp();
    const statuses: number[] = [];
    // Sign-up is a public route: every GET below counts, and nothing before them.
    for (let index = 0; index < ORG_LIMIT + 3; index += 1) {
      const path = index % 2 === 0 ? '/api/workspaces' : '/api/me';
      statuses.push((await t.request('GET', path, { cookie: flooding.cookie })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(ORG_LIMIT);
    expect(statuses.slice(ORG_LIMIT)).toEqual([429, 429, 429]);
    const refused = await t.request('GET', '/api/workspaces', { cookie: flooding.cookie });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: expect.stringContaining('this organisation may make 25 a minute') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await t.request('GET', '/api/workspaces', { cookie: other.cookie })).status).toBe(200);
    // The count is the store's, for every process: this one added it as it went.
    const minute = Math.floor(t.clock.now().getTime() / 60_000);
    const stored = await t.deps.table.get<{ count: number }>(requestRateKey(`org:${flooding.org.id}`, minute));
    expect(stored?.count).toBeGreaterThanOrEqual(1);
    // A new minute, a new allowance.
    nextMinute();
    expect((await t.request('GET', '/api/workspaces', { cookie: flooding.cookie })).status).toBe(200);
  });

  it('limits a consumer key on its own, below its organisation', async () => {
    nextMinute();
    const { admin, workspace, authorization } = await keyedWorkspace();
    const statuses: number[] = [];
    for (let index = 0; index < KEY_LIMIT + 2; index += 1) {
      statuses.push((await t.request('GET', `/api/workspaces/${workspace.id}/conversations`, { headers: { authorization } })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(KEY_LIMIT);
    expect(statuses.slice(KEY_LIMIT)).toEqual([429, 429]);
    // The organisation still has room: its people are not held up by one script.
    expect((await t.request('GET', '/api/workspaces', { cookie: admin.cookie })).status).toBe(200);
  });

  it('refuses a key past its limit while its organisation’s count cannot be added, and the process goes on', async () => {
    nextMinute();
    const { admin, workspace, consumerId, authorization } = await keyedWorkspace();
    const path = `/api/workspaces/${workspace.id}/conversations`;
    // Another process has used this key's whole minute already.
    nextMinute();
    const minute = Math.floor(t.clock.now().getTime() / 60_000);
    await t.deps.table.put({ ...requestRateKey(`key:${consumerId}`, minute), count: KEY_LIMIT });
    // The first request adds both counts and learns of the other process's.
    expect((await t.request('GET', path, { headers: { authorization } })).status).toBe(200);
    // A second later the organisation's add fails (the store throttles it) as the key is refused.
    t.clock.advance(1_000);
    const update = t.deps.table.update.bind(t.deps.table);
    const failing = vi
      .spyOn(t.deps.table, 'update')
      .mockImplementation((key, input) =>
        key.pk.startsWith('REQRATE#org:') ? Promise.reject(new Error('throughput exceeded')) : update(key, input),
      );
    try {
      const refused = await t.request('GET', path, { headers: { authorization } });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: expect.stringContaining('this key may make 8 a minute') });
      // Whatever the add left behind has settled by now: the test would report it if it were unhandled.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      failing.mockRestore();
    }
    expect(t.logger.records.some((record) => record.message === 'a request count could not be added')).toBe(true);
    // The organisation's people still get in, and the count that failed is added with the next.
    t.clock.advance(1_000);
    expect((await t.request('GET', '/api/workspaces', { cookie: admin.cookie })).status).toBe(200);
    const stored = await t.deps.table.get<{ count: number }>(requestRateKey(`org:${admin.org.id}`, minute));
    expect(stored?.count).toBe(3);
  });

  it('sees what other processes counted once it adds its own count to the store', async () => {
    nextMinute();
    const first = new RequestRate(t.deps.table, t.clock, t.logger);
    const second = new RequestRate(t.deps.table, t.clock, t.logger);
    const scope = `org:several-processes-${crypto.randomUUID()}`;
    // The first process admits 5 and adds them to the store.
    await first.admit(scope, 6, 'this organisation');
    for (let index = 0; index < 4; index += 1) expect(first.admit(scope, 6, 'this organisation')).toBeUndefined();
    t.clock.advance(1_000);
    await first.admit(scope, 6, 'this organisation');
    // The second process's first request adds its count and learns of the first's 5.
    await second.admit(scope, 6, 'this organisation');
    expect(() => second.admit(scope, 6, 'this organisation')).toThrow(TooManyRequestsError);
  });
});
