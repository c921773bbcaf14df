import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendDueMoves } from '../../shared/sweep/due-sweep.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { approvalKey } from '../../shared/approvals/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';

let t: TestContext;
let model: FakeModel;
let tickets: Awaited<ReturnType<typeof startHttpMcpServer>>;
/** The arguments of every call that reached the ticket tool. */
const created: Record<string, unknown>[] = [];

beforeAll(async () => {
  model = await startFakeModel();
  tickets = await startHttpMcpServer({
    name: 'tickets-server',
    tools: [
      {
        name: 'search_tickets',
        annotations: { readOnlyHint: true },
        run: (args) => (args.query === 'everything' ? 'x'.repeat(120_000) : `found tickets about ${String(args.query)}`),
      },
      {
        name: 'create_ticket',
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => {
          created.push(args);
          return `ticket created: ${String(args.title)}`;
        },
      },
    ],
  });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), tickets.stop()]);
});
beforeEach(() => {
  model.reset();
  created.length = 0;
});

async function setup(approval: Record<string, unknown> = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 }) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Approvals ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'tickets', url: tickets.url });
  const put = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { approval } });
  expect(put.status, put.text).toBe(200);
  return { admin, workspaceId: workspace.id as string };
}

/** The model asks for a read and a write in one turn, then answers with what it got back. */
function readAndWrite() {
  model.reply(
    toolUseReply([
      { name: 'search_tickets', input: { query: 'vpn' } },
      { name: 'create_ticket', input: { title: 'VPN down' } },
    ]),
  );
  model.handle((request: ModelRequestRecord) => {
    const results = (request.body.messages.at(-1)?.content as { type: string; content?: string; is_error?: boolean }[]) ?? [];
    return textReply(`Done: ${results.map((block) => `${block.is_error ? 'ERROR ' : ''}${block.content}`).join(' | ')}`);
  });
}

const ask = (cookie: string, workspaceId: string, query = 'Open a ticket for the VPN') =>
  t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query } });
const decide = (cookie: string, workspaceId: string, approvalId: string, body: Record<string, unknown>, headers = {}) =>
  t.request('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { cookie, body, headers });

describe('approval of write tools', () => {
  it('pauses on the write after running the read, then approved runs it with exactly the arguments shown', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      error: null,
      tools_called: ['search_tickets'],
      pending_approval: {
        id: expect.stringMatching(/^appr_/),
        tool: 'create_ticket',
        connection: 'tickets',
        input: { title: 'VPN down' },
        requested_by: 'Ada Admin',
        expires_at: expect.any(String),
      },
    });
    expect(created).toEqual([]);
    const approvalId = asked.body.pending_approval.id;
    const conversationPath = `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}`;
    const waiting = await t.request('GET', conversationPath, { cookie: admin.cookie });
    expect(waiting.body.conversation.status).toBe('open');
    expect(waiting.body.messages.map((message: { role: string }) => message.role)).toEqual(['user']);
    const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
    expect(pending.body).toMatchObject({ total: 1, approvals: [{ id: approvalId, status: 'pending', tool: 'create_ticket' }] });

    const decided = await decide(admin.cookie, workspaceId, approvalId, { decision: 'approve' });
    expect(decided.status, decided.text).toBe(200);
    expect(created).toEqual([{ title: 'VPN down' }]);
    expect(decided.body).toMatchObject({
      error: null,
      pending_approval: null,
      tools_called: ['search_tickets', 'create_ticket'],
      conversation_id: asked.body.conversation_id,
    });
    expect(decided.body.answer).toBe('Done: found tickets about vpn | ticket created: VPN down');
    // Tokens and cost of the whole query: both model calls.
    expect(decided.body.tokens).toEqual({ input: 200, output: 40, cache_read: 0, cache_write: 0 });

    const conversation = await t.request('GET', conversationPath, { cookie: admin.cookie });
    expect(conversation.body.messages.map((message: { role: string; content: string }) => [message.role, message.content])).toEqual([
      ['user', 'Open a ticket for the VPN'],
      ['assistant', decided.body.answer],
    ]);
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity).toHaveLength(1);
    expect(activity.body.activity[0]).toMatchObject({
      tokens_input: 200,
      tokens_output: 40,
      tokens: { input: 200, output: 40, cache_read: 0, cache_write: 0 },
      approvals: [{ id: approvalId, status: 'approved', decided_by: 'Ada Admin', tool: 'create_ticket' }],
    });
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.body.approvals).toEqual({ pending: 0, approved: 1, denied: 0, expired: 0 });
    // The paused query and its resumed end count as one query.
    expect(dashboard.body.usage.queries_today).toBe(1);
  });

  it('denied, the model is told and the tool never runs', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const decided = await decide(admin.cookie, workspaceId, asked.body.pending_approval.id, { decision: 'deny', reason: 'not today' });
    expect(decided.status).toBe(200);
    expect(created).toEqual([]);
    expect(decided.body.answer).toBe('Done: found tickets about vpn | ERROR Ada Admin denied this call; it did not run: not today.');
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=denied`, { cookie: admin.cookie });
    expect(listed.body.approvals[0]).toMatchObject({ status: 'denied', decided_by: 'Ada Admin', reason: 'not today' });
  });

  it('answers 409 for a decided approval, and of parallel decisions exactly one wins', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const id = asked.body.pending_approval.id;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) => decide(admin.cookie, workspaceId, id, { decision: index % 2 ? 'deny' : 'approve' })),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status === 409)).toHaveLength(5);
    // The tool ran once if the winner approved, never if it denied.
    const winner = results.find((result) => result.status === 200);
    expect(created).toHaveLength(winner?.body.answer.includes('ticket created') ? 1 : 0);
    const again = await decide(admin.cookie, workspaceId, id, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already (approved|denied)/);
  });

  it('refuses a decision from someone who may not decide (403), with each approvers setting', async () => {
    const { admin, workspaceId } = await setup();
    const member = await t.addMember(admin.cookie);
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    // The list says who may decide, as deciding would answer.
    const canDecide = async (cookie: string) =>
      (await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie })).body.approvals.map(
        (approval: { can_decide: boolean }) => approval.can_decide,
      );
    expect(await canDecide(admin.cookie)).toEqual([true]);
    expect(await canDecide(member.cookie)).toEqual([false]);
    const refused = await decide(member.cookie, workspaceId, asked.body.pending_approval.id, { decision: 'approve' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/only an admin/);
    expect(created).toEqual([]);

    // The requester decides their own; another member may not, nor may an admin.
    await t.request('PUT', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      body: { approval: { mode: 'write_tools', approvers: 'requester', expires_minutes: 60 } },
    });
    const other = await t.addMember(admin.cookie);
    readAndWrite();
    const own = await ask(member.cookie, workspaceId);
    // Pending: the admins' call first asked (newest first: the member's own call first).
    expect(await canDecide(member.cookie)).toEqual([true, false]);
    expect(await canDecide(other.cookie)).toEqual([false, false]);
    expect((await decide(other.cookie, workspaceId, own.body.pending_approval.id, { decision: 'approve' })).status).toBe(403);
    expect((await decide(admin.cookie, workspaceId, own.body.pending_approval.id, { decision: 'approve' })).status).toBe(403);
    expect((await decide(member.cookie, workspaceId, own.body.pending_approval.id, { decision: 'approve' })).status).toBe(200);
    expect(created).toHaveLength(1);
  });

  it('refuses to run a call whose stored arguments changed after it was asked', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const id = asked.body.pending_approval.id;
    // Someone with access to the table edits what would run.
    const key = approvalKey(admin.org.id, workspaceId, id);
    const item = await t.deps.table.get<{ paused: string }>(key);
    const paused = JSON.parse(String(item?.paused));
    paused.checkpoint.waiting[0].input.title = 'DROP everything';
    await t.deps.table.update(key, { update: 'SET paused = :paused', values: { ':paused': JSON.stringify(paused) } });
    const decided = await decide(admin.cookie, workspaceId, id, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(created).toEqual([]);
    expect(decided.body.answer).toContain('ERROR This call was refused: its arguments are not the ones that were approved.');
  });

  it('expires a request nobody decides: the model is told, and a late decision is 409', async () => {
    const { admin, workspaceId } = await setup({
      mode: 'patterns',
      patterns: ['tickets__create_*'],
      approvers: 'admins',
      expires_minutes: 5,
    });
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const id = asked.body.pending_approval.id;
    t.clock.advance(6 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    const expired = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=expired`, { cookie: admin.cookie });
    expect(expired.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([id]);
    expect(created).toEqual([]);
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(conversation.body.messages.at(-1)?.content).toContain('ERROR Nobody approved this call in time; it expired and did not run.');
    const late = await decide(admin.cookie, workspaceId, id, { decision: 'approve' });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/expired/);
  });

  it('refuses a decision with 429 while the organisation has no place for its query, and decides nothing', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const id = asked.body.pending_approval.id;
    const held = Array.from({ length: t.deps.config.maxQueriesInFlightPerOrg }, () => t.deps.inFlight.admit(admin.org.id));
    try {
      const refused = await decide(admin.cookie, workspaceId, id, { decision: 'approve' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
      expect(pending.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([id]);
      expect(created).toEqual([]);
    } finally {
      for (const release of held) release();
    }
    const decided = await decide(admin.cookie, workspaceId, id, { decision: 'approve' });
    expect(decided.status, decided.text).toBe(200);
    expect(created).toEqual([{ title: 'VPN down' }]);
  });

  it('retries an expiry while the organisation has no place for its query, expiring nothing meanwhile', async () => {
    const { admin, workspaceId } = await setup({ mode: 'write_tools', approvers: 'admins', expires_minutes: 5 });
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const id = asked.body.pending_approval.id;
    const held = Array.from({ length: t.deps.config.maxQueriesInFlightPerOrg }, () => t.deps.inFlight.admit(admin.org.id));
    try {
      t.clock.advance(6 * 60_000);
      await t.scheduler.fireDue(t.clock.now());
      await t.runner.idle();
      const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
      expect(pending.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([id]);
    } finally {
      for (const release of held) release();
    }
    // The job's retry (after its backoff) expires it and goes on with the query.
    t.clock.advance(60_000);
    await t.runner.idle();
    await vi.waitFor(
      async () => {
        const expired = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=expired`, { cookie: admin.cookie });
        expect(expired.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([id]);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('keeps the conversation open while a call waits: it goes cold only after the wait and the cold timeout', async () => {
    const { admin, workspaceId } = await setup({ mode: 'write_tools', approvers: 'admins', expires_minutes: 90 });
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const conversationId = asked.body.conversation_id;
    const status = async () =>
      (await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie: admin.cookie })).body.conversation
        .status;
    // Past the workspace's cold timeout (30 minutes), the call still waits and the conversation is open.
    t.clock.advance(60 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await status()).toBe('open');
    // The approval expires at 90 minutes; its resumed query plans the move from then (121 minutes),
    // replacing the one the pause planned (120).
    t.clock.advance(31 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await status()).toBe('open');
    t.clock.advance(29.5 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await status()).toBe('open');
    t.clock.advance(60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await status()).toBe('cold');
  });

  it("puts a waiting query's due entry at the cold timeout, no later than its resumed query's: which then writes it no more", async () => {
    const { admin, workspaceId } = await setup({ mode: 'write_tools', approvers: 'admins', expires_minutes: 90 });
    const entryOf = async (conversationId: string) =>
      (await t.deps.table.get(conversationKey(admin.org.id, workspaceId, conversationId), true))!;
    const approveAt = async (minutes: number, t0: number) => {
      t.clock.set(new Date(t0 + minutes * 60_000));
      const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
      const decided = await decide(admin.cookie, workspaceId, pending.body.approvals[0].id, { decision: 'approve' });
      expect(decided.status, decided.text).toBe(200);
    };

    // Approved within the cold timeout: the entry stays where the question put it.
    readAndWrite();
    let t0 = t.clock.now().getTime();
    const early = (await ask(admin.cookie, workspaceId)).body.conversation_id;
    const paused = await entryOf(early);
    // The move is planned after the wait and the cold timeout; the lazy entry at the cold timeout.
    expect(paused.due_at).toBe(new Date(t0 + 120 * 60_000).toISOString());
    expect(paused.gsi5sk).toBe(new Date(t0 + 30 * 60_000).toISOString());
    await approveAt(10, t0);
    expect(await entryOf(early)).toMatchObject({ due_at: new Date(t0 + 40 * 60_000).toISOString(), gsi5sk: paused.gsi5sk });

    // Still waiting at the cold timeout: the wake-up moves the entry to the planned move, and the
    // resumed query, which plans an earlier one, brings it forward.
    readAndWrite();
    t0 = t.clock.now().getTime();
    const late = (await ask(admin.cookie, workspaceId)).body.conversation_id;
    t.clock.set(new Date(t0 + 31 * 60_000));
    await sendDueMoves(t.deps, t.clock.now());
    await t.runner.idle();
    expect(await entryOf(late)).toMatchObject({ status: 'open', gsi5sk: new Date(t0 + 120 * 60_000).toISOString() });
    await approveAt(32, t0);
    expect(await entryOf(late)).toMatchObject({
      due_at: new Date(t0 + 62 * 60_000).toISOString(),
      gsi5sk: new Date(t0 + 62 * 60_000).toISOString(),
    });
  });

  it('streams: approval_required on the query, and the resumed answer on the decision', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const SSE = { accept: 'text/event-stream' };
    const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: 'Open one' },
    });
    const events = eventsOf(asked.text);
    const required = events.find((event) => event.event === 'approval_required');
    expect(required?.data).toMatchObject({ tool: 'create_ticket', input: { title: 'VPN down' } });
    expect(events.at(-1)?.data.pending_approval).toEqual(required?.data);

    const decided = await decide(admin.cookie, workspaceId, required?.data.id, { decision: 'approve' }, SSE);
    const resumed = eventsOf(decided.text);
    expect(resumed.map((event) => event.event)).toEqual(expect.arrayContaining(['start', 'tool_call', 'tool_result', 'text', 'done']));
    expect(resumed.at(-1)?.data).toMatchObject({
      pending_approval: null,
      answer: 'Done: found tickets about vpn | ticket created: VPN down',
    });
  });

  it('tells a messaging caller in words what waits for whom, and the decision from the API goes on with its thread', async () => {
    // The messaging caller cannot decide: even with approvers requester, its requests go to the admins.
    const { admin, workspaceId } = await setup({ mode: 'write_tools', approvers: 'requester', expires_minutes: 60 });
    const consumer = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'messaging', workspace_id: workspaceId, credentials: {} },
    });
    readAndWrite();
    const message = await t.request('POST', `/api/consumers/${consumer.body.id}/messages`, {
      headers: { authorization: `Bearer ${consumer.body.api_key}` },
      body: { user: 'Lin', text: 'Open a ticket for the VPN', thread_id: 'wa-1' },
    });
    expect(message.status).toBe(200);
    const pending = message.body.pending_approval;
    expect(message.body.answer).toBe(
      `The call to create_ticket (tickets) waits for approval by an admin of the organisation until ${pending.expires_at}. ` +
        `It is decided in team chat or with POST /api/workspaces/${workspaceId}/approvals/${pending.id}; the answer continues then.`,
    );
    const decided = await decide(admin.cookie, workspaceId, pending.id, { decision: 'approve' });
    expect(decided.body.conversation_id).toBe(message.body.conversation_id);
    expect(created).toEqual([{ title: 'VPN down' }]);
  });

  it('does not run a call whose conversation was closed while it waited: 409, and the approval expires', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}/close`, {
      cookie: admin.cookie,
    });
    expect(closed.status).toBe(200);
    const decided = await decide(admin.cookie, workspaceId, asked.body.pending_approval.id, { decision: 'approve' });
    expect(decided.status).toBe(409);
    expect(decided.body.error).toMatch(/conversation was closed/);
    expect(created).toEqual([]);
    const expired = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=expired`, { cookie: admin.cookie });
    expect(expired.body.approvals[0]).toMatchObject({ id: asked.body.pending_approval.id, reason: 'the conversation was closed' });
  });

  it('counts the cost of a paused query once: the conversation holds what the answer says', async () => {
    const { admin, workspaceId } = await setup();
    readAndWrite();
    const asked = await ask(admin.cookie, workspaceId);
    const decided = await decide(admin.cookie, workspaceId, asked.body.pending_approval.id, { decision: 'approve' });
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(conversation.body.conversation.total_cost_usd).toBeCloseTo(decided.body.cost_usd, 9);
    expect(decided.body.cost_usd).toBeGreaterThan(asked.body.cost_usd);
  });

  it('pages the list by cursor, newest first', async () => {
    const { admin, workspaceId } = await setup();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      readAndWrite();
      ids.push((await ask(admin.cookie, workspaceId, `Ticket ${index}`)).body.pending_approval.id);
    }
    const first = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?limit=2`, { cookie: admin.cookie });
    expect(first.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.total).toBe(3);
    const second = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?limit=2&cursor=${first.body.next_cursor}`, {
      cookie: admin.cookie,
    });
    expect(second.body).toMatchObject({ approvals: [{ id: ids[0] }], next_cursor: null, total: 3 });
  });

  it('ends a query too large to wait for an approval with an error saying so, not a failure to store', async () => {
    const { admin, workspaceId } = await setup();
    model.reply(
      toolUseReply([
        { name: 'search_tickets', input: { query: 'everything' } },
        { name: 'search_tickets', input: { query: 'everything' } },
        { name: 'search_tickets', input: { query: 'everything' } },
        { name: 'create_ticket', input: { title: 'Huge' } },
      ]),
    );
    const asked = await ask(admin.cookie, workspaceId);
    expect(asked.status).toBe(200);
    expect(asked.body.pending_approval).toBeNull();
    expect(asked.body.error).toBe(
      'the call to create_ticket needs approval, but this query is too large to wait for one; ask again with less',
    );
    expect(created).toEqual([]);
  });

  it('audit (approval item size): sizes a paused query in bytes, so many-byte characters that overflow the item end it saying so', async () => {
    const { admin, workspaceId } = await setup();
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'Huge' } }]));
    // 150 000 characters, half the limit in characters, but 450 000 bytes: more than a DynamoDB item
    // holds (400 KB), so the approval would fail to store on AWS (dynalite counts characters: here the answer shows it).
    const history = Array.from({ length: 5 }, (_, index) => ({ role: index % 2 ? 'assistant' : 'user', content: '票'.repeat(30_000) }));
    const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'Open a ticket', history },
    });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body.pending_approval).toBeNull();
    expect(asked.body.error).toBe(
      'the call to create_ticket needs approval, but this query is too large to wait for one; ask again with less',
    );
    expect(created).toEqual([]);
  });

  it('ends with the connection error when the server is gone at the decision, keeping what was spent', async () => {
    const doomed = await startHttpMcpServer({
      name: 'doomed-server',
      tools: [{ name: 'create_ticket', annotations: { destructiveHint: true }, run: () => 'created' }],
    });
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Doomed ${t.uniqueEmail('ws')}` });
    const connection = await t.connectMcp(admin.cookie, workspace.id, { name: 'doomed', url: doomed.url });
    await t.request('PUT', `/api/workspaces/${workspace.id}`, {
      cookie: admin.cookie,
      body: { approval: { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 } },
    });
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'x' } }], { input_tokens: 300, output_tokens: 30 }));
    const asked = await ask(admin.cookie, workspace.id);
    expect(asked.body.pending_approval).not.toBeNull();
    await doomed.stop();
    // Its live session goes too (as when the server restarts): the next use must connect again.
    await t.deps.mcp?.drop(connection.id);
    const decided = await decide(admin.cookie, workspace.id, asked.body.pending_approval.id, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(decided.body.error).toMatch(/doomed/);
    expect(decided.body.tokens).toEqual({ input: 300, output: 30, cache_read: 0, cache_write: 0 });
    const activity = await t.request('GET', `/api/workspaces/${workspace.id}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity[0]).toMatchObject({
      tokens_input: 300,
      tokens_output: 30,
      tokens: { input: 300, output: 30, cache_read: 0, cache_write: 0 },
      error: expect.stringMatching(/doomed/),
    });
    const dashboard = await t.request('GET', `/api/workspaces/${workspace.id}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.body.cost.mtd).toBeGreaterThan(0);
  });

  it('validates the setting and the decision', async () => {
    const { admin, workspaceId } = await setup();
    const bad = await t.request('PUT', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      body: { approval: { mode: 'patterns', approvers: 'admins', expires_minutes: 60 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('approval.patterns');
    const unknown = await decide(admin.cookie, workspaceId, 'appr_nope', { decision: 'approve' });
    expect(unknown.status).toBe(404);
    const invalid = await decide(admin.cookie, workspaceId, 'appr_nope', { decision: 'maybe' });
    expect(invalid.status).toBe(400);
  });
});

function eventsOf(text: string): { event: string; data: any }[] {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(text);
  return events.map((event) => ({ event: event.event ?? 'message', data: JSON.parse(event.data) }));
}
