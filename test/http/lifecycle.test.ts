import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLD_NOTICE } from '../../shared/conversations/cold-notice.js';
import { conversationIndexes } from '../../migrations/003-conversation-indexes.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { lifecycleHandler, lifecycleMessage, type LifecycleJob } from '../../shared/conversations/lifecycle.js';
import { nextDueAt, sendDueMoves, sweepOverdue } from '../../shared/sweep/due-sweep.js';
import { conversationStatsHandler } from '../../shared/conversations/stats-job.js';
import { getJob, recordJob, unrecordedJob, type JobMessage } from '../../shared/jobs/ledger.js';
import { scheduleName } from '../../shared/jobs/scheduler.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import {
  errorReply,
  startFakeModel,
  textReply,
  toolUseReply,
  type FakeModel,
  type FakeReply,
  type ModelRequestRecord,
  isStatsRequest,
} from '../support/fake-model.js';

const MINUTE = 60_000;
const STATS_TOOL = 'record_conversation_stats';
/** Usage of every stats call: at the fast tier ($1 in / $5 out per million) it costs this much. */
const STATS_USAGE = { input_tokens: 2000, output_tokens: 300 };
const STATS_COST = (2000 * 1 + 300 * 5) / 1e6;

let model: FakeModel;
let t: TestContext;
/** Replies to stats requests, answered in order; then `statsFallback`. */
let statsReplies: FakeReply[];
let statsFallback: () => FakeReply;

function validStats(input: Record<string, unknown> = {}): FakeReply {
  return toolUseReply(
    [
      {
        name: STATS_TOOL,
        input: { sentiment_score: 0.6, resolution_status: 'resolved', category: 'Support', summary: 'User asked X; answered.', ...input },
      },
    ],
    STATS_USAGE,
  );
}

const statsRequests = () => model.requests.filter(isStatsRequest);

/** Brings what a test wrote as a version before did to this version's shape (migrations/003), as a deploy would. */
async function migrate() {
  await t.deps.table.delete(SCHEMA_MARKER);
  await runMigrations(t.deps.table, [conversationIndexes], { clock: t.clock });
}

beforeAll(async () => {
  model = await startFakeModel();
});
afterAll(async () => {
  await model.stop();
});

// A fresh service per test: the schedules, the sweep and the runner are process-wide, so tests
// that move the clock must not see each other's conversations.
beforeEach(async () => {
  model.reset();
  statsReplies = [];
  statsFallback = () => validStats();
  model.handle((request) => (isStatsRequest(request) ? (statsReplies.shift() ?? statsFallback()) : textReply('Here is the answer.')));
  t = await createTestContext({
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', JOB_RETRY_BASE_MS: '1', MODEL_MAX_RETRIES: '0' },
  });
});
afterEach(async () => {
  await t.close();
});

async function setup(timeouts: { cold_timeout_minutes?: number; close_timeout_minutes?: number } = {}) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Lifecycle ${t.uniqueEmail('ws')}` });
  if (Object.keys(timeouts).length) {
    const updated = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: timeouts });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.workspace).toMatchObject(timeouts);
  }
  return { admin, orgId: admin.org.id as string, workspaceId: workspace.id };
}

async function ask(cookie: string, workspaceId: string, query = 'How do I reset my password?', sessionId?: string) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
    cookie,
    body: { query, ...(sessionId ? { session_id: sessionId } : {}) },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.error).toBeNull();
  return response.body as { conversation_id: string; cost_usd: number };
}

async function detail(cookie: string, workspaceId: string, conversationId: string) {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function statusOf(cookie: string, workspaceId: string, conversationId: string): Promise<string> {
  return (await detail(cookie, workspaceId, conversationId)).conversation.status;
}

async function dashboard(cookie: string, workspaceId: string) {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

type QueueCounts = { name: string; waiting: number; active: number; completed: number; failed: number; delayed: number };

async function queues(cookie: string): Promise<Record<string, QueueCounts>> {
  const response = await t.request('GET', '/api/org/queues', { cookie });
  expect(response.status, response.text).toBe(200);
  return Object.fromEntries((response.body.queues as QueueCounts[]).map((queue) => [queue.name, queue]));
}

const counts = (completed = 0, failed = 0, rest: Partial<QueueCounts> = {}) => ({
  waiting: 0,
  active: 0,
  delayed: 0,
  completed,
  failed,
  ...rest,
});

/** Sends the schedules due now and waits for the runner to finish what they started. */
async function fire(): Promise<JobMessage[]> {
  const sent = await t.scheduler.fireDue(t.clock.now());
  await t.runner.idle();
  return sent;
}

/** Waits out the runner's real (1–4 ms) retry backoff, bounded. */
async function eventually<T>(check: () => Promise<T>): Promise<T> {
  return vi.waitFor(
    async () => {
      await t.runner.idle();
      return check();
    },
    { timeout: 5_000, interval: 10 },
  );
}

const coldName = (orgId: string, workspaceId: string, conversationId: string) => scheduleName('cold', orgId, workspaceId, conversationId);
const closeName = (orgId: string, workspaceId: string, conversationId: string) => scheduleName('close', orgId, workspaceId, conversationId);

async function goCold(cookie: string, orgId: string, workspaceId: string, conversationId: string) {
  const entry = t.scheduler.pending.get(coldName(orgId, workspaceId, conversationId));
  expect(entry).toBeDefined();
  t.clock.set(entry!.at);
  await fire();
  expect(await statusOf(cookie, workspaceId, conversationId)).toBe('cold');
}

describe('timed lifecycle: open → cold → closed → stats', () => {
  it('moves a conversation through cold and closed on its schedules, then records its statistics', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const askedAt = t.clock.now();
    const asked = await ask(admin.cookie, workspaceId);
    const cid = asked.conversation_id;

    let body = await detail(admin.cookie, workspaceId, cid);
    expect(body.conversation).toMatchObject({ status: 'open', last_activity_at: askedAt.toISOString(), stats_status: 'pending' });

    // One pending schedule: the cold move at last activity + 30 minutes (the default).
    expect([...t.scheduler.pending.keys()]).toEqual([coldName(orgId, workspaceId, cid)]);
    const cold = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    expect(cold.at.toISOString()).toBe(new Date(askedAt.getTime() + 30 * MINUTE).toISOString());
    expect(cold.message).toMatchObject({ queue: 'lifecycle', orgId });
    expect(cold.message.data).toEqual({ workspaceId, conversationId: cid, move: 'cold', lastActivityAt: askedAt.toISOString() });

    // A schedule is not a job: every queue is still empty.
    for (const queue of Object.values(await queues(admin.cookie))) expect(queue).toMatchObject(counts(0));

    // Not due a millisecond early.
    t.clock.advance(30 * MINUTE - 1);
    expect(await fire()).toEqual([]);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');

    t.clock.advance(1);
    const coldAt = t.clock.now();
    expect(await fire()).toHaveLength(1);
    body = await detail(admin.cookie, workspaceId, cid);
    expect(body.conversation.status).toBe('cold');

    const coldList = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?status=cold`, { cookie: admin.cookie });
    expect(coldList.status).toBe(200);
    expect(coldList.body.total).toBe(1);
    expect(coldList.body.conversations.map((c: { id: string }) => c.id)).toEqual([cid]);
    const openList = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?status=open`, { cookie: admin.cookie });
    expect(openList.body.total).toBe(0);
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });

    // The close move is planned close_timeout_minutes (120) after going cold.
    expect(t.scheduler.pending.has(coldName(orgId, workspaceId, cid))).toBe(false);
    const close = t.scheduler.pending.get(closeName(orgId, workspaceId, cid))!;
    expect(close).toBeDefined();
    expect(close.at.toISOString()).toBe(new Date(coldAt.getTime() + 120 * MINUTE).toISOString());
    expect(close.message.data).toEqual({ workspaceId, conversationId: cid, move: 'close', lastActivityAt: askedAt.toISOString() });
    let q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(1));
    expect(q['cold-messages']).toMatchObject(counts(0));
    expect(q['conversation-stats']).toMatchObject(counts(0));
    expect(statsRequests()).toHaveLength(0);

    t.clock.advance(120 * MINUTE - 1);
    expect(await fire()).toEqual([]);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    t.clock.advance(1);
    expect(await fire()).toHaveLength(1);

    body = await detail(admin.cookie, workspaceId, cid);
    expect(body.conversation.status).toBe('closed');
    expect(body.stats).toMatchObject({
      sentiment_score: 0.6,
      resolution_status: 'resolved',
      category: 'support',
      summary: 'User asked X; answered.',
      stats_status: 'complete',
    });
    expect(body.conversation).toMatchObject({ stats_status: 'complete', category: 'support', sentiment_score: 0.6 });
    expect(body.stats.total_cost_usd).toBeCloseTo(asked.cost_usd + STATS_COST, 9);
    expect(body.conversation.total_cost_usd).toBeCloseTo(asked.cost_usd + STATS_COST, 9);

    // One stats call: the fast tier, the tool forced, the transcript sent.
    const requests = statsRequests();
    expect(requests).toHaveLength(1);
    const request = requests[0]!.body as ModelRequestRecord['body'] & { tool_choice?: unknown };
    expect(request.model).toBe('claude-haiku-4-5');
    expect(request.tool_choice).toEqual({ type: 'tool', name: STATS_TOOL });
    expect(request.tools?.map((tool) => tool.name)).toEqual([STATS_TOOL]);
    expect(JSON.stringify(request.messages)).toContain('How do I reset my password?');
    expect(JSON.stringify(request.messages)).toContain('Here is the answer.');

    const board = await dashboard(admin.cookie, workspaceId);
    expect(board.tickets).toEqual({ open: 0, cold: 0, closed: 1, total: 1 });
    expect(board.categories).toEqual([{ category: 'support', count: 1 }]);
    expect(board.resolution).toEqual({ resolved: 1, unresolved: 0, rate: 1 });
    expect(board.sentiment.average).toBeCloseTo(0.6, 9);
    expect(board.sentiment).toMatchObject({ positive: 1, neutral: 0, negative: 0 });

    q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(2));
    expect(q['cold-messages']).toMatchObject(counts(0));
    expect(q['conversation-stats']).toMatchObject(counts(1));
    expect(t.scheduler.pending.size).toBe(0);

    // A closed conversation takes no new query.
    const again = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'one more', session_id: cid },
    });
    expect(again.status).toBe(409);
  });

  it('honours fractional timeouts: 0.05 minutes is 3 seconds', async () => {
    const { admin, orgId, workspaceId } = await setup({ cold_timeout_minutes: 0.05, close_timeout_minutes: 0.05 });
    const askedAt = t.clock.now();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const cold = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    expect(cold.at.getTime() - askedAt.getTime()).toBe(3_000);

    t.clock.advance(2_999);
    expect(await fire()).toEqual([]);
    t.clock.advance(1);
    expect(await fire()).toHaveLength(1);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');

    const close = t.scheduler.pending.get(closeName(orgId, workspaceId, cid))!;
    expect(close.at.getTime() - t.clock.now().getTime()).toBe(3_000);
    t.clock.advance(3_000);
    expect(await fire()).toHaveLength(1);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('closed');
  });
});

describe('reopening a cold conversation', () => {
  it('a later question of an open conversation replaces its pending cold move, and says so to the scheduler', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId, 'first question')).conversation_id;
    t.clock.advance(10 * MINUTE);
    const secondAt = t.clock.now();
    await ask(admin.cookie, workspaceId, 'second question', cid);
    // On AWS `replaces` sends UpdateSchedule first: one call where CreateSchedule's conflict made two.
    expect(t.scheduler.calls.filter((call) => call.name === coldName(orgId, workspaceId, cid)).map((call) => call.replaces)).toEqual([
      false,
      true,
    ]);
    const cold = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    expect(cold.at.getTime()).toBe(secondAt.getTime() + 30 * MINUTE);
    expect(cold.message.data).toMatchObject({ move: 'cold', lastActivityAt: secondAt.toISOString() });
  });

  it('a new message makes it open again, and the old close schedule firing later does nothing', async () => {
    // close (10) shorter than cold (30), so the stale close comes due before the new cold move.
    const { admin, orgId, workspaceId } = await setup({ close_timeout_minutes: 10 });
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId, 'first question')).conversation_id;
    t.clock.advance(30 * MINUTE);
    await fire();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toMatchObject({ open: 0, cold: 1, closed: 0 });
    expect(t.scheduler.pending.get(closeName(orgId, workspaceId, cid))?.at.getTime()).toBe(t0 + 40 * MINUTE);

    t.clock.advance(5 * MINUTE);
    const reopenedAt = t.clock.now();
    await ask(admin.cookie, workspaceId, 'second question', cid);
    const body = await detail(admin.cookie, workspaceId, cid);
    expect(body.conversation).toMatchObject({ status: 'open', message_count: 4, last_activity_at: reopenedAt.toISOString() });
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 1, cold: 0, closed: 0, total: 1 });
    const newCold = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    expect(newCold.at.getTime()).toBe(reopenedAt.getTime() + 30 * MINUTE);
    // The cold move had run (its schedule is gone): the new one is created, not replaced.
    expect(t.scheduler.calls.filter((call) => call.name === coldName(orgId, workspaceId, cid)).map((call) => call.replaces)).toEqual([
      false,
      false,
    ]);
    expect(newCold.message.data).toMatchObject({ move: 'cold', lastActivityAt: reopenedAt.toISOString() });

    // The close planned from the first cold spell comes due: stale, no effect.
    t.clock.set(new Date(t0 + 40 * MINUTE));
    const sent = await fire();
    expect(sent.map((message) => message.data.move)).toEqual(['close']);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 1, cold: 0, closed: 0, total: 1 });
    expect(await getJob(t.deps, `stats-${orgId}-${workspaceId}-${cid}`)).toBeUndefined();
    const q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(2)); // the cold move and the no-op close
    expect(q['conversation-stats']).toMatchObject(counts(0));

    // The new plan still works.
    t.clock.set(newCold.at);
    await fire();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
  });
});

describe('POST /api/workspaces/:id/conversations/:cid/close', () => {
  it("closes open and cold conversations (a member only their own, another's is 404), 409 when closed, 404 unknown or foreign; cancels schedules", async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cold = (await ask(admin.cookie, workspaceId, 'will go cold')).conversation_id;
    await goCold(admin.cookie, orgId, workspaceId, cold);
    const open = (await ask(admin.cookie, workspaceId, 'still open')).conversation_id;
    const other = (await ask(admin.cookie, workspaceId, 'for the member')).conversation_id;
    const path = (cid: string) => `/api/workspaces/${workspaceId}/conversations/${cid}/close`;

    const closedOpen = await t.request('POST', path(open), { cookie: admin.cookie });
    expect(closedOpen.status, closedOpen.text).toBe(200);
    expect(closedOpen.body).toEqual({ status: 'closed', message: expect.any(String) });
    expect(closedOpen.body.message.length).toBeGreaterThan(0);
    expect(t.scheduler.cancelled).toContain(coldName(orgId, workspaceId, open));
    expect(t.scheduler.pending.has(coldName(orgId, workspaceId, open))).toBe(false);
    expect(await statusOf(admin.cookie, workspaceId, open)).toBe('closed');

    const closedCold = await t.request('POST', path(cold), { cookie: admin.cookie });
    expect(closedCold.status, closedCold.text).toBe(200);
    expect(closedCold.body.status).toBe('closed');
    expect(t.scheduler.cancelled).toContain(closeName(orgId, workspaceId, cold));
    expect(t.scheduler.pending.has(closeName(orgId, workspaceId, cold))).toBe(false);
    expect(await statusOf(admin.cookie, workspaceId, cold)).toBe('closed');

    const again = await t.request('POST', path(open), { cookie: admin.cookie });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual(expect.any(String));

    const unknown = await t.request('POST', path('conv_does_not_exist'), { cookie: admin.cookie });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual(expect.any(String));

    const stranger = await t.signUp();
    const foreign = await t.request('POST', path(other), { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
    expect(await statusOf(admin.cookie, workspaceId, other)).toBe('open');

    // A member closes only their own conversations (the admin started this one: to a member it is
    // another's, 404, as conversations are private to their starter); an admin any. The detail says
    // whom the API lets close it, so the console offers only that (a member of a workspace open to
    // its team reads another's with can_close false: test/http/private-conversations.test.ts).
    const member = await t.addMember(admin.cookie);
    expect((await detail(admin.cookie, workspaceId, other)).can_close).toBe(true);
    const byMember = await t.request('POST', path(other), { cookie: member.cookie });
    expect(byMember.status, byMember.text).toBe(404);
    expect(await statusOf(admin.cookie, workspaceId, other)).toBe('open');
    const byAdmin = await t.request('POST', path(other), { cookie: admin.cookie });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.status).toBe('closed');

    await t.runner.idle();
    for (const cid of [open, cold, other]) {
      const body = await detail(admin.cookie, workspaceId, cid);
      expect(body.conversation.status).toBe('closed');
      expect(body.stats.stats_status).toBe('complete');
      expect(body.can_close).toBe(false);
    }
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 0, closed: 3, total: 3 });
    const q = await queues(admin.cookie);
    expect(q['conversation-stats']).toMatchObject(counts(3));
    expect(q.lifecycle).toMatchObject(counts(1));
  });
});

describe('idempotent and stale lifecycle jobs', () => {
  it('a duplicated cold or close move has one effect, and writes no job to the ledger', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const entry = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    const data = entry.message.data as LifecycleJob;
    const message = lifecycleMessage(orgId, data);
    expect(message).toEqual(entry.message);

    // A move is not in the ledger (its queue is `recorded-on-failure`, jobs/ledger-types.ts): sent twice, it runs twice, with one effect.
    t.clock.set(entry.at);
    expect(await t.deps.jobs.enqueue(message)).toBe(true);
    expect(await t.deps.jobs.enqueue(message)).toBe(true);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
    expect(await getJob(t.deps, message.jobId)).toBeUndefined();

    // The schedule fires as well, twice (EventBridge delivers at least once).
    expect(await fire()).toHaveLength(1);
    t.scheduler.pending.set(coldName(orgId, workspaceId, cid), entry);
    expect(await fire()).toHaveLength(1);
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
    // `completed` counts the deliveries done: four of one move.
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(4));

    // The handler run again outside any queue: no second move.
    await lifecycleHandler.run(t.deps, data, unrecordedJob(t.deps, message));
    await t.runner.idle();
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });

    const close = t.scheduler.pending.get(closeName(orgId, workspaceId, cid))!;
    t.clock.set(close.at);
    await t.deps.jobs.enqueue(close.message);
    expect(await fire()).toHaveLength(1);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('closed');
    const body = await detail(admin.cookie, workspaceId, cid);
    expect(body.stats.stats_status).toBe('complete');

    // A repeated stats delivery makes no second model call and counts nothing twice.
    const statsJob = (await getJob(t.deps, `stats-${orgId}-${workspaceId}-${cid}`))!;
    await conversationStatsHandler.run(t.deps, statsJob.data as { workspaceId: string; conversationId: string }, statsJob);
    expect(statsRequests()).toHaveLength(1);
    expect((await dashboard(admin.cookie, workspaceId)).categories).toEqual([{ category: 'support', count: 1 }]);

    await lifecycleHandler.run(t.deps, close.message.data as LifecycleJob, unrecordedJob(t.deps, close.message));
    await t.runner.idle();
    const board = await dashboard(admin.cookie, workspaceId);
    expect(board.tickets).toEqual({ open: 0, cold: 0, closed: 1, total: 1 });
    expect(board.resolution).toMatchObject({ resolved: 1, unresolved: 0 });
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('closed');

    const q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(6));
    expect(q['conversation-stats']).toMatchObject(counts(1));
  });

  it('a retry finds its move made by its short mark, or by the job id written before', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const cold = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    await goCold(admin.cookie, orgId, workspaceId, cid);
    const key = conversationKey(orgId, workspaceId, cid);
    const data = cold.message.data as LifecycleJob;
    expect((await t.deps.table.get<{ moved_by?: string }>(key, true))?.moved_by).toBe(`cold@${data.lastActivityAt}`);
    // A retry finishes the follow-ups (the close is planned again); a stale job would not.
    const retried = async () => {
      t.scheduler.pending.delete(closeName(orgId, workspaceId, cid));
      await lifecycleHandler.run(t.deps, data, unrecordedJob(t.deps, cold.message));
      return t.scheduler.pending.has(closeName(orgId, workspaceId, cid));
    };
    expect(await retried()).toBe(true);
    await t.deps.table.update(key, { update: 'SET moved_by = :job', values: { ':job': cold.message.jobId } });
    await migrate();
    expect(await retried()).toBe(true);
    await t.deps.table.update(key, { update: 'SET moved_by = :other', values: { ':other': 'cold@another time' } });
    expect(await retried()).toBe(false);
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
  });

  it('a close job retried after its stats completed leaves the stats complete', async () => {
    // Attempt 1 of the close job makes the move and queues the stats, then a follow-up (cancelling
    // a schedule) fails once it is too late: the stats job has completed. The retry finds the move
    // made (moved_by) and must only finish the follow-ups.
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    await goCold(admin.cookie, orgId, workspaceId, cid);
    const statsJobId = `stats-${orgId}-${workspaceId}-${cid}`;
    const cancel = vi.spyOn(t.scheduler, 'cancel');
    cancel.mockImplementationOnce(async () => {
      await vi.waitFor(async () => expect((await getJob(t.deps, statsJobId))?.state).toBe('completed'), { timeout: 5_000, interval: 5 });
      throw new Error('scheduler throttled');
    });
    const close = t.scheduler.pending.get(closeName(orgId, workspaceId, cid))!;
    t.clock.set(close.at);
    await fire();
    await eventually(async () => expect(await getJob(t.deps, close.message.jobId)).toMatchObject({ state: 'completed', attempts: 2 }));
    cancel.mockRestore();

    const body = await detail(admin.cookie, workspaceId, cid);
    expect(body.conversation.status).toBe('closed');
    expect(body.stats).toMatchObject({ sentiment_score: 0.6, category: 'support' });
    expect(body.stats.stats_status).toBe('complete');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 0, closed: 1, total: 1 });
    expect(statsRequests()).toHaveLength(1);
  });

  it('a job planned from an older last activity is a no-op', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const t0 = t.clock.now().toISOString();
    const cid = (await ask(admin.cookie, workspaceId, 'first')).conversation_id;
    t.clock.advance(10 * MINUTE);
    const t1 = t.clock.now().toISOString();
    await ask(admin.cookie, workspaceId, 'second', cid);
    t.clock.advance(25 * MINUTE); // past the first plan's due time, before the second's

    expect(await t.deps.jobs.enqueue(lifecycleMessage(orgId, { workspaceId, conversationId: cid, move: 'cold', lastActivityAt: t0 }))).toBe(
      true,
    );
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 1, cold: 0, closed: 0, total: 1 });
    expect(t.scheduler.pending.has(closeName(orgId, workspaceId, cid))).toBe(false);
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(1));

    expect(await fire()).toEqual([]); // the replaced schedule is not due yet
    t.clock.advance(5 * MINUTE);
    const sent = await fire();
    expect(sent.map((message) => message.data.lastActivityAt)).toEqual([t1]);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');

    // A close planned from the older activity does not close the cold conversation.
    await t.deps.jobs.enqueue(lifecycleMessage(orgId, { workspaceId, conversationId: cid, move: 'close', lastActivityAt: t0 }));
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
    expect(await getJob(t.deps, `stats-${orgId}-${workspaceId}-${cid}`)).toBeUndefined();

    // A cold move for a conversation closed by hand does nothing either.
    const cid2 = (await ask(admin.cookie, workspaceId, 'other')).conversation_id;
    const planned = t.scheduler.pending.get(coldName(orgId, workspaceId, cid2))!;
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${cid2}/close`, { cookie: admin.cookie });
    expect(closed.status).toBe(200);
    await t.runner.idle();
    t.clock.set(planned.at);
    await t.deps.jobs.enqueue(planned.message);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid2)).toBe('closed');
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 1, total: 2 });
  });
});

describe('the overdue sweep', () => {
  it('sends the move of a lost schedule once it is overdue, and nothing twice', async () => {
    const { admin, workspaceId } = await setup();
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    t.scheduler.pending.clear(); // the schedule is lost

    t.clock.set(new Date(t0 + 30 * MINUTE - 1));
    expect(await sweepOverdue(t.deps)).toBe(0);
    t.clock.advance(1);
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect(await sweepOverdue(t.deps)).toBe(0);
    await t.runner.idle();
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });

    t.scheduler.pending.clear(); // the close schedule is lost too
    t.clock.advance(120 * MINUTE - 1);
    expect(await sweepOverdue(t.deps)).toBe(0);
    t.clock.advance(1);
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('closed');
    expect(await sweepOverdue(t.deps)).toBe(0);
    await t.runner.idle();
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 0, closed: 1, total: 1 });
    const q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(2));
    expect(q['conversation-stats']).toMatchObject(counts(1));
  });

  it('sends again a move whose job was drained, so a drain never strands a conversation', async () => {
    const { admin, workspaceId } = await setup();
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    t.scheduler.pending.clear();
    t.clock.set(new Date(t0 + 30 * MINUTE));
    // The overdue move failed once, so it is in the ledger, delayed for its retry; then the queue is drained.
    const move = lifecycleMessage(admin.org.id, {
      workspaceId,
      conversationId: cid,
      move: 'cold',
      lastActivityAt: new Date(t0).toISOString(),
    });
    expect(await recordJob(t.deps, move, 0, { error: 'store throttled', retryInMs: 60_000 })).toBe(true);
    const drained = await t.request('POST', '/api/org/queues/lifecycle/drain', { cookie: admin.cookie });
    expect(drained.body).toEqual({ status: 'ok', removed: 1 });
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');
    // The next sweep sends the same move again, recorded anew, and it runs.
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect(await getJob(t.deps, move.jobId)).toMatchObject({ state: 'completed' });
  });
});

describe('a timed move that fails', () => {
  /** The conversation's writes fail (the store throttles them) `times` times; the ledger's do not. */
  function failConversationWrites(times = Number.POSITIVE_INFINITY) {
    const table = t.deps.table;
    const original = table.updateReturningOld.bind(table);
    let left = times;
    return vi.spyOn(table, 'updateReturningOld').mockImplementation(((key, input) => {
      if (String(key.pk).startsWith('CONV#') && left-- > 0) return Promise.reject(new Error('store throttled'));
      return original(key, input);
    }) as typeof table.updateReturningOld);
  }

  it('is recorded after its first attempt, retried from the ledger, and completes', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const entry = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    t.clock.set(entry.at);
    const write = failConversationWrites(1);
    try {
      expect(await t.deps.jobs.enqueue(entry.message)).toBe(true);
      await eventually(async () => expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold'));
    } finally {
      write.mockRestore();
    }
    expect(await getJob(t.deps, entry.message.jobId)).toMatchObject({ state: 'completed', attempts: 2, last_error: null });
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(1));
    // In the ledger now: the sweep or a schedule sending it again is not sent.
    expect(await t.deps.jobs.enqueue(entry.message)).toBe(false);
  });

  it('lands in failed after its last attempt, listed and retried as any job', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const entry = t.scheduler.pending.get(coldName(orgId, workspaceId, cid))!;
    t.clock.set(entry.at);
    const write = failConversationWrites();
    try {
      await t.deps.jobs.enqueue(entry.message);
      await eventually(async () => expect(await getJob(t.deps, entry.message.jobId)).toMatchObject({ state: 'failed' }));
    } finally {
      write.mockRestore();
    }
    const failed = await t.request('GET', '/api/org/queues/lifecycle/failed', { cookie: admin.cookie });
    expect(failed.body.jobs).toEqual([
      expect.objectContaining({ id: entry.message.jobId, failedReason: 'store throttled', attemptsMade: t.deps.config.jobMaxAttempts }),
    ]);
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(0, 1));
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');

    const retried = await t.request('POST', '/api/org/queues/lifecycle/retry-all', { cookie: admin.cookie });
    expect(retried.body).toEqual({ status: 'ok', retried: 1 });
    await eventually(async () => expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold'));
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(1, 0));
  });
});

describe('conversation-stats failures', () => {
  async function closedConversation() {
    const context = await setup();
    const cid = (await ask(context.admin.cookie, context.workspaceId)).conversation_id;
    const closed = await t.request('POST', `/api/workspaces/${context.workspaceId}/conversations/${cid}/close`, {
      cookie: context.admin.cookie,
    });
    expect(closed.status).toBe(200);
    return { ...context, cid, jobId: `stats-${context.orgId}-${context.workspaceId}-${cid}` };
  }

  it('retries invalid output (a score out of range) and completes with the next valid answer', async () => {
    statsReplies = [validStats({ sentiment_score: 5 })];
    const { admin, workspaceId, cid, jobId } = await closedConversation();
    const stats = await eventually(async () => {
      const body = await detail(admin.cookie, workspaceId, cid);
      expect(body.stats.stats_status).toBe('complete');
      return body.stats;
    });
    expect(stats).toMatchObject({ sentiment_score: 0.6, category: 'support' });
    expect(statsRequests()).toHaveLength(2);
    const job = (await getJob(t.deps, jobId))!;
    expect(job).toMatchObject({ state: 'completed', attempts: 2, last_error: null });
    expect((await queues(admin.cookie))['conversation-stats']).toMatchObject(counts(1, 0));
  });

  it('retries an answer without the tool call and completes with the next valid answer', async () => {
    statsReplies = [textReply('It went well, I think.', STATS_USAGE)];
    const { admin, workspaceId, cid, jobId } = await closedConversation();
    await eventually(async () => expect((await detail(admin.cookie, workspaceId, cid)).stats.stats_status).toBe('complete'));
    expect(statsRequests()).toHaveLength(2);
    expect(await getJob(t.deps, jobId)).toMatchObject({ state: 'completed', attempts: 2 });
    // Only the call that produced the stats is added to the conversation's cost.
    const body = await detail(admin.cookie, workspaceId, cid);
    const queryCost = (100 * 3 + 20 * 15) / 1e6;
    expect(body.stats.total_cost_usd).toBeCloseTo(queryCost + STATS_COST, 9);
  });

  it('fails for good after JOB_MAX_ATTEMPTS, lists the failed job, and retry-all completes it', async () => {
    statsFallback = () => errorReply(500, 'model down');
    const { admin, workspaceId, cid, jobId } = await closedConversation();
    await eventually(async () => expect((await detail(admin.cookie, workspaceId, cid)).stats.stats_status).toBe('failed'));
    expect(statsRequests()).toHaveLength(3);
    expect(await getJob(t.deps, jobId)).toMatchObject({ state: 'failed', attempts: 3 });
    let q = await queues(admin.cookie);
    expect(q['conversation-stats']).toMatchObject(counts(0, 1));

    const failed = await t.request('GET', '/api/org/queues/conversation-stats/failed', { cookie: admin.cookie });
    expect(failed.status).toBe(200);
    expect(failed.body.jobs).toHaveLength(1);
    expect(failed.body.jobs[0]).toMatchObject({ id: jobId, attemptsMade: 3, data: { conversationId: cid, workspaceId } });
    expect(failed.body.jobs[0].failedReason).toContain('model down');
    const emptyList = await t.request('GET', '/api/org/queues/lifecycle/failed', { cookie: admin.cookie });
    expect(emptyList.body.jobs).toEqual([]);

    statsFallback = () => validStats();
    const retried = await t.request('POST', '/api/org/queues/conversation-stats/retry-all', { cookie: admin.cookie });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ status: 'ok', retried: 1 });
    await eventually(async () => expect((await detail(admin.cookie, workspaceId, cid)).stats.stats_status).toBe('complete'));
    expect(await getJob(t.deps, jobId)).toMatchObject({ state: 'completed', attempts: 1 });
    expect(statsRequests()).toHaveLength(4);
    q = await queues(admin.cookie);
    expect(q['conversation-stats']).toMatchObject(counts(1, 0));
    const after = await t.request('GET', '/api/org/queues/conversation-stats/failed', { cookie: admin.cookie });
    expect(after.body.jobs).toEqual([]);
    const none = await t.request('POST', '/api/org/queues/conversation-stats/retry-all', { cookie: admin.cookie });
    expect(none.body).toEqual({ status: 'ok', retried: 0 });
  });
});

describe('queue endpoints', () => {
  it('lists the six queues, 404 for an unknown queue, 403 for members', async () => {
    const { admin } = await setup();
    const list = await t.request('GET', '/api/org/queues', { cookie: admin.cookie });
    expect(list.status).toBe(200);
    expect(list.body.queues).toEqual(
      ['lifecycle', 'cold-messages', 'conversation-stats', 'evals', 'knowledge', 'routines'].map((name) => ({ name, ...counts(0) })),
    );

    for (const [method, path] of [
      ['GET', '/api/org/queues/nope/failed'],
      ['POST', '/api/org/queues/nope/retry-all'],
      ['POST', '/api/org/queues/nope/drain'],
    ] as const) {
      const response = await t.request(method, path, { cookie: admin.cookie });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error).toEqual(expect.any(String));
    }

    const member = await t.addMember(admin.cookie);
    for (const [method, path] of [
      ['GET', '/api/org/queues'],
      ['GET', '/api/org/queues/lifecycle/failed'],
      ['POST', '/api/org/queues/lifecycle/retry-all'],
      ['POST', '/api/org/queues/lifecycle/drain'],
    ] as const) {
      const response = await t.request(method, path, { cookie: member.cookie });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });

  it('drain removes waiting and delayed jobs, which then never run', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const at = t.clock.now().toISOString();
    // The conversation's own cold move under an id of its own, in the ledger after a failed attempt
    // (a move is recorded only then): it would make the conversation cold if it ran.
    const message = {
      ...lifecycleMessage(orgId, { workspaceId, conversationId: cid, move: 'cold', lastActivityAt: at }),
      jobId: 'drained-cold-move',
    };
    expect(await recordJob(t.deps, message, 0, { error: 'store throttled', retryInMs: 60_000 })).toBe(true);
    let q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(0, 0, { delayed: 1 }));

    const drained = await t.request('POST', '/api/org/queues/lifecycle/drain', { cookie: admin.cookie });
    expect(drained.status).toBe(200);
    expect(drained.body).toEqual({ status: 'ok', removed: 1 });
    q = await queues(admin.cookie);
    expect(q.lifecycle).toMatchObject(counts(0, 0));
    expect(await getJob(t.deps, message.jobId)).toMatchObject({ state: 'removed' });

    // A late delivery of the drained job (the timer it had, or SQS) is dropped.
    await t.runner.redeliver(message);
    await t.runner.idle();
    expect(await getJob(t.deps, message.jobId)).toMatchObject({ state: 'removed', attempts: 1 });
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(0, 0));

    const nothing = await t.request('POST', '/api/org/queues/lifecycle/drain', { cookie: admin.cookie });
    expect(nothing.body).toEqual({ status: 'ok', removed: 0 });
    // The scheduled move is a different job and still works.
    await goCold(admin.cookie, orgId, workspaceId, cid);
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(1));
  });

  it('drain restarts the completed total', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    await goCold(admin.cookie, orgId, workspaceId, cid);
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(1));
    const drained = await t.request('POST', '/api/org/queues/lifecycle/drain', { cookie: admin.cookie });
    expect(drained.body).toEqual({ status: 'ok', removed: 0 });
    expect((await queues(admin.cookie)).lifecycle).toMatchObject(counts(0));
  });
});

describe('cold-messages', () => {
  async function teamChatConversation(cookie: string, orgId: string, workspaceId: string) {
    const cid = (await ask(cookie, workspaceId, 'asked in a thread')).conversation_id;
    await t.deps.table.update(conversationKey(orgId, workspaceId, cid), {
      update: 'SET consumer_type = :consumer, chat_channel_id = :channel, chat_thread_ts = :thread',
      values: { ':consumer': 'team-chat', ':channel': 'C123', ':thread': '1700000000.000100' },
    });
    return cid;
  }

  it('posts one notice in the thread of a team-chat conversation that goes cold, none for an api one', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const chat = await teamChatConversation(admin.cookie, orgId, workspaceId);
    const api = (await ask(admin.cookie, workspaceId, 'asked over the API')).conversation_id;
    t.clock.advance(30 * MINUTE);
    expect(await fire()).toHaveLength(2);
    expect(await statusOf(admin.cookie, workspaceId, chat)).toBe('cold');
    expect(await statusOf(admin.cookie, workspaceId, api)).toBe('cold');
    expect(t.chat.posts).toEqual([{ orgId, channelId: 'C123', threadTs: '1700000000.000100', text: COLD_NOTICE }]);
    let q = await queues(admin.cookie);
    expect(q['cold-messages']).toMatchObject(counts(1));
    expect(q.lifecycle).toMatchObject(counts(2));

    // Going cold again after a reply is a new cold spell with its own notice; the close sends none.
    await ask(admin.cookie, workspaceId, 'a reply', chat);
    // A notice delivered late, after the reply reopened the conversation, is not posted.
    await t.deps.jobs.enqueue({ jobId: 'late-cold-notice', queue: 'cold-messages', orgId, data: { workspaceId, conversationId: chat } });
    await t.runner.idle();
    expect(await getJob(t.deps, 'late-cold-notice')).toMatchObject({ state: 'completed' });
    expect(t.chat.posts).toHaveLength(1);
    await goCold(admin.cookie, orgId, workspaceId, chat);
    expect(t.chat.posts).toHaveLength(2);
    t.clock.advance(120 * MINUTE);
    await fire();
    expect(await statusOf(admin.cookie, workspaceId, chat)).toBe('closed');
    expect(t.chat.posts).toHaveLength(2);
    q = await queues(admin.cookie);
    expect(q['cold-messages']).toMatchObject(counts(3));
  });

  it('retries a failing post and ends failed, without touching the cold status', async () => {
    const { admin, orgId, workspaceId } = await setup();
    const cid = await teamChatConversation(admin.cookie, orgId, workspaceId);
    t.chat.failWith = new Error('chat is down');
    t.clock.advance(30 * MINUTE);
    await fire();
    const failed = await eventually(async () => {
      const q = await queues(admin.cookie);
      expect(q['cold-messages']).toMatchObject(counts(0, 1));
      return q;
    });
    expect(failed.lifecycle).toMatchObject(counts(1, 0));
    const list = await t.request('GET', '/api/org/queues/cold-messages/failed', { cookie: admin.cookie });
    expect(list.body.jobs).toHaveLength(1);
    expect(list.body.jobs[0]).toMatchObject({ failedReason: 'chat is down', attemptsMade: 3, data: { conversationId: cid } });
    expect(t.chat.posts).toEqual([]);
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    expect(t.scheduler.pending.has(closeName(orgId, workspaceId, cid))).toBe(true);
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
  });
});

describe("the local scheduler's wake-up (sendDueMoves, nextDueAt on the due index)", () => {
  it('answers the earliest due time among open and cold conversations, moves what is due, and nothing once all are closed', async () => {
    const { admin, workspaceId } = await setup({ cold_timeout_minutes: 30, close_timeout_minutes: 120 });
    const t0 = t.clock.now().getTime();
    expect(await nextDueAt(t.deps, t.clock.now())).toBeUndefined();
    const first = (await ask(admin.cookie, workspaceId, 'first')).conversation_id;
    t.clock.advance(10 * MINUTE);
    const second = (await ask(admin.cookie, workspaceId, 'second')).conversation_id;
    t.scheduler.pending.clear(); // only the due index is consulted

    // Both open: the first goes cold first.
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 30 * MINUTE);
    // Nothing due yet: nothing sent, the answer is the same.
    expect((await sendDueMoves(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 30 * MINUTE);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, first)).toBe('open');

    // At the first one's due time it goes cold; next comes the second's cold move (at 40 min).
    t.clock.set(new Date(t0 + 30 * MINUTE));
    expect((await sendDueMoves(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 40 * MINUTE);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, first)).toBe('cold');
    expect(await statusOf(admin.cookie, workspaceId, second)).toBe('open');

    // After the second goes cold, the next is the first one's close (30 + 120 min).
    t.clock.set(new Date(t0 + 40 * MINUTE));
    await sendDueMoves(t.deps, t.clock.now());
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, second)).toBe('cold');
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 150 * MINUTE);

    t.clock.set(new Date(t0 + 160 * MINUTE));
    expect(await sendDueMoves(t.deps, t.clock.now())).toBeUndefined();
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, first)).toBe('closed');
    expect(await statusOf(admin.cookie, workspaceId, second)).toBe('closed');
    expect(await nextDueAt(t.deps, t.clock.now())).toBeUndefined();
    expect((await dashboard(admin.cookie, workspaceId)).tickets).toEqual({ open: 0, cold: 0, closed: 2, total: 2 });
  });

  it('follows a new message: the due time moves later with the last activity', async () => {
    const { admin, workspaceId } = await setup({ cold_timeout_minutes: 30 });
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId, 'first')).conversation_id;
    t.clock.advance(20 * MINUTE);
    await ask(admin.cookie, workspaceId, 'again', cid);
    // The due entry is lazy: it stays at the first question's time, which wakes the scheduler early.
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 30 * MINUTE);
    // The old due time passes with nothing to do but moving the entry to the real one.
    t.clock.set(new Date(t0 + 30 * MINUTE));
    expect((await sendDueMoves(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 50 * MINUTE);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('open');
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 50 * MINUTE);
    t.clock.set(new Date(t0 + 50 * MINUTE));
    await sendDueMoves(t.deps, t.clock.now());
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
  });
});

describe('the due indexes: GSI5 (open, the keys and organisation, lazy), GSI4 (cold), and the entries of before', () => {
  it('puts the keys in GSI5 at the first question, and leaves the entry there at the next', async () => {
    const { admin, orgId, workspaceId } = await setup({ cold_timeout_minutes: 30 });
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const key = conversationKey(orgId, workspaceId, cid);
    const first = (await t.deps.table.get(key, true))!;
    t.clock.advance(5 * MINUTE);
    await ask(admin.cookie, workspaceId, 'And then?', cid);
    const item = (await t.deps.table.get(key, true))!;
    expect(item.title).toBeTruthy();
    expect(item.gsi5pk).toBe(first.gsi5pk);
    expect(item.due_at).toBe(new Date(t0 + 35 * MINUTE).toISOString());
    expect(item).not.toHaveProperty('gsi4pk');
    const entries = await t.deps.table.queryAll({ index: 'pending', pk: String(item.gsi5pk) });
    expect(entries).toEqual([
      { pk: item.pk, sk: 'STATE', gsi5pk: item.gsi5pk, gsi5sk: new Date(t0 + 30 * MINUTE).toISOString(), org_id: orgId },
    ]);
    // One of the local runtime's 4 shards (`DUE_INDEX_SHARDS`; 128 on AWS).
    expect(String(item.gsi5pk)).toMatch(/^DUE#open#[0-3]$/);

    // Cold: out of GSI5, into GSI4's cold list with what the sweep reads; a question reopens it and back.
    t.clock.set(new Date(t0 + 35 * MINUTE));
    await sendDueMoves(t.deps, t.clock.now());
    await t.runner.idle();
    const cold = (await t.deps.table.get(key, true))!;
    expect(cold.status).toBe('cold');
    expect(cold).not.toHaveProperty('gsi5pk');
    expect(String(cold.gsi4pk)).toMatch(/^DUE#cold#[0-3]$/);
    t.clock.advance(MINUTE);
    await ask(admin.cookie, workspaceId, 'Still there?', cid);
    const reopened = (await t.deps.table.get(key, true))!;
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('gsi4pk');
    expect(reopened.gsi5sk).toBe(new Date(t0 + 66 * MINUTE).toISOString());
  });

  it('brings the entry forward when the cold timeout was shortened, so no move is late', async () => {
    const { admin, orgId, workspaceId } = await setup({ cold_timeout_minutes: 60 });
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    const changed = await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { cold_timeout_minutes: 10 } });
    expect(changed.status, changed.text).toBe(200);
    t.clock.advance(MINUTE);
    await ask(admin.cookie, workspaceId, 'sooner', cid);
    const item = (await t.deps.table.get(conversationKey(orgId, workspaceId, cid), true))!;
    expect(item.gsi5sk).toBe(new Date(t0 + 11 * MINUTE).toISOString());
    t.scheduler.pending.clear(); // only the due index is left
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 11 * MINUTE);
  });

  it('finds an open conversation whose due entry a version before wrote in GSI4, once the migration moved it to GSI5', async () => {
    const { admin, orgId, workspaceId } = await setup({ cold_timeout_minutes: 30 });
    const t0 = t.clock.now().getTime();
    const [kept, asked] = [(await ask(admin.cookie, workspaceId)).conversation_id, (await ask(admin.cookie, workspaceId)).conversation_id];
    t.scheduler.pending.clear();
    for (const cid of [kept, asked]) {
      const key = conversationKey(orgId, workspaceId, cid);
      const before = (await t.deps.table.get(key, true))!;
      await t.deps.table.update(key, {
        update: 'SET gsi4pk = :pk, gsi4sk = :sk REMOVE gsi5pk, gsi5sk',
        values: { ':pk': 'DUE#open#2', ':sk': before.gsi5sk },
      });
    }
    await migrate();
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 30 * MINUTE);
    t.clock.advance(MINUTE);
    await ask(admin.cookie, workspaceId, 'again', asked);
    const askedKey = conversationKey(orgId, workspaceId, asked);
    expect(await t.deps.table.get(askedKey, true)).not.toHaveProperty('gsi4pk');

    t.clock.set(new Date(t0 + 30 * MINUTE));
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, kept)).toBe('cold');
    expect(await statusOf(admin.cookie, workspaceId, asked)).toBe('open');
    // Its entry, found early (the question after the migration left it where it stood), moved to its due time.
    expect((await t.deps.table.get(askedKey, true))?.gsi5sk).toBe(new Date(t0 + 31 * MINUTE).toISOString());
  });

  it('finds a conversation whose due entry a version before wrote in GSI3, moves it, and takes it out of GSI3', async () => {
    const { admin, orgId, workspaceId } = await setup({ cold_timeout_minutes: 30, close_timeout_minutes: 120 });
    const t0 = t.clock.now().getTime();
    const cid = (await ask(admin.cookie, workspaceId)).conversation_id;
    t.scheduler.pending.clear(); // only the due index is left
    const key = conversationKey(orgId, workspaceId, cid);
    const before = (await t.deps.table.get(key, true))!;
    // As the version before left it: the due entry in GSI3's shard 5, nothing in GSI4 or GSI5.
    await t.deps.table.update(key, {
      update: 'SET gsi3pk = :pk, gsi3sk = :sk REMOVE gsi5pk, gsi5sk',
      values: { ':pk': 'DUE#open#5', ':sk': before.gsi5sk },
    });
    await migrate();
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 30 * MINUTE);

    t.clock.set(new Date(t0 + 30 * MINUTE));
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await statusOf(admin.cookie, workspaceId, cid)).toBe('cold');
    const after = (await t.deps.table.get(key, true))!;
    expect(after.gsi3pk).toBeUndefined();
    expect(after.gsi3sk).toBeUndefined();
    expect(String(after.gsi4pk)).toMatch(/^DUE#cold#\d{1,3}$/);
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 150 * MINUTE);
  });
});
