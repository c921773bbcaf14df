import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';
import {
  startFakeModel,
  textReply,
  toolUseReply,
  type FakeModel,
  type FakeReply,
  type ModelRequestRecord,
  isStatsRequest,
} from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';

const MINUTE = 60_000;
const STATS_TOOL = 'record_conversation_stats';
/** Usage of every stats call: at the fast tier ($1 in / $5 out per million) it costs this much. */
const STATS_USAGE = { input_tokens: 2000, output_tokens: 300 };
const STATS_COST = (2000 * 1 + 300 * 5) / 1e6;
/** The knowledge prompt budget of the issue: 8000 estimated tokens of about four characters. */
const BUDGET_CHARS = 8000 * 4;
const ALL_TOOLS = ['create_ticket', 'fail_tool', 'plain_tool', 'search_docs', 'slow_tool'];

let model: FakeModel;
let mcp: Awaited<ReturnType<typeof startHttpMcpServer>>;
let t: TestContext;
/** Replies to stats requests, answered in order; then a resolved "support" conversation. */
let statsReplies: FakeReply[];

function statsReply(input: Record<string, unknown> = {}): FakeReply {
  return toolUseReply(
    [
      {
        name: STATS_TOOL,
        input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'support', summary: 'Asked and answered.', ...input },
      },
    ],
    STATS_USAGE,
  );
}

const queryRequests = () => model.requests.filter((request) => !isStatsRequest(request));
const statsRequests = () => model.requests.filter(isStatsRequest);
const toolNames = (request: ModelRequestRecord | undefined) => (request?.body.tools ?? []).map((tool) => tool.name);
const systemText = (request: ModelRequestRecord | undefined) => (request?.body.system ?? []).map((block) => block.text).join('\n');
const pathsOf = (response: ApiResponse) => (response.body?.details ?? []).map((detail: { path: string }) => detail.path);
/** The text of the last message sent to the model (the question, or the tool results). */
const lastMessage = (request: ModelRequestRecord | undefined) =>
  request?.body.messages.at(-1)?.content as { type: string; text?: string; content?: string; is_error?: boolean }[];

beforeAll(async () => {
  model = await startFakeModel();
  mcp = await startHttpMcpServer({ name: 'helpdesk-server' });
});
afterAll(async () => {
  await Promise.all([model.stop(), mcp.stop()]);
});

// A fresh service per test: the scheduler and the job runner are per service, and the dashboard
// test moves the clock and fires schedules.
beforeEach(async () => {
  model.reset();
  statsReplies = [];
  model.handle((request) => (isStatsRequest(request) ? (statsReplies.shift() ?? statsReply()) : textReply('Here is the answer.')));
  t = await createTestContext({
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', JOB_RETRY_BASE_MS: '1', MODEL_MAX_RETRIES: '0' },
  });
});
afterEach(async () => {
  await t.close();
});

async function setup(body: Record<string, unknown> = {}) {
  const admin = await t.signUp();
  // A plain name: the workspace name is in the default system prompt, which tests search for addresses.
  const workspace = await t.createWorkspace(admin.cookie, { name: 'Support desk', ...body });
  return { admin, workspaceId: workspace.id };
}

async function connectHelpdesk(cookie: string, workspaceId: string) {
  await t.connectMcp(cookie, workspaceId, { name: 'helpdesk', url: mcp.url });
}

function ask(cookie: string, workspaceId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body });
}

async function askOk(cookie: string, workspaceId: string, body: Record<string, unknown>) {
  const response = await ask(cookie, workspaceId, body);
  expect(response.status, response.text).toBe(200);
  return response.body as {
    answer: string;
    error: string | null;
    conversation_id: string;
    cost_usd: number;
    tools_called: string[];
    connections_hit: string[];
  };
}

async function get(cookie: string, path: string) {
  const response = await t.request('GET', path, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const knowledgeOf = (cookie: string, workspaceId: string) => get(cookie, `/api/workspaces/${workspaceId}/knowledge`);
const complianceOf = (cookie: string, workspaceId: string, query = '') => get(cookie, `/api/workspaces/${workspaceId}/compliance${query}`);
const dashboardOf = (cookie: string, workspaceId: string) => get(cookie, `/api/workspaces/${workspaceId}/dashboard`);
const conversationOf = (cookie: string, workspaceId: string, cid: string) =>
  get(cookie, `/api/workspaces/${workspaceId}/conversations/${cid}`);
const messagesOf = async (cookie: string, workspaceId: string, cid: string) =>
  ((await conversationOf(cookie, workspaceId, cid)).messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);

async function knowledgeCount(cookie: string, workspaceId: string): Promise<number> {
  const list = await get(cookie, '/api/workspaces');
  return list.workspaces.find((workspace: { id: string }) => workspace.id === workspaceId).knowledge_count;
}

/** Adds an entry and waits for it to be read into the workspace's index (an entry is a document too). */
async function addKnowledge(cookie: string, workspaceId: string, title: string, content: string) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge`, { cookie, body: { title, content } });
  expect(response.status, response.text).toBe(201);
  await t.runner.idle();
  return response.body.knowledge as { id: string; title: string; content: string; created_at: string; updated_at: string };
}

async function addGuardrail(cookie: string, workspaceId: string, body: Record<string, unknown>) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, { cookie, body });
  expect(response.status, response.text).toBe(201);
  return response.body.guardrail as {
    id: string;
    name: string;
    type: string;
    pattern: string;
    action: string;
    applies_to: string;
    enabled: boolean;
  };
}

/** Closes a conversation by hand, the stats model answering `stats`, and waits for the stats job. */
async function closeWithStats(cookie: string, workspaceId: string, cid: string, stats: Record<string, unknown>) {
  statsReplies.push(statsReply(stats));
  const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${cid}/close`, { cookie });
  expect(closed.status, closed.text).toBe(200);
  await t.runner.idle();
  expect((await conversationOf(cookie, workspaceId, cid)).conversation.stats_status).toBe('complete');
}

describe('knowledge entries', () => {
  it('creates, changes and deletes entries, answers 404 for unknown or deleted ones, and keeps knowledge_count', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/knowledge`;
    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(0);

    const createdAt = t.clock.now().toISOString();
    const created = await t.request('POST', base, {
      cookie: admin.cookie,
      body: { title: 'Refund policy', content: 'Refunds are accepted within 30 days.' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      knowledge: {
        id: expect.stringMatching(/^kn_/),
        title: 'Refund policy',
        content: 'Refunds are accepted within 30 days.',
        created_at: createdAt,
        updated_at: createdAt,
      },
    });
    const refund = created.body.knowledge;
    const hours = await addKnowledge(admin.cookie, workspaceId, 'Opening hours', 'Monday to Friday, 9 to 17.');
    expect(hours.id).not.toBe(refund.id);
    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(2);
    let list = await knowledgeOf(admin.cookie, workspaceId);
    expect(list.gaps).toEqual([]);
    expect(list.knowledge).toHaveLength(2);
    expect(list.knowledge).toEqual(expect.arrayContaining([refund, hours]));

    // A partial update: the title only; the content stays, updated_at moves with the clock.
    t.clock.advance(5 * MINUTE);
    const updated = await t.request('PUT', `${base}/${refund.id}`, { cookie: admin.cookie, body: { title: 'Refunds' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({ knowledge: { ...refund, title: 'Refunds', updated_at: t.clock.now().toISOString() } });
    expect(updated.body.knowledge.updated_at).not.toBe(refund.updated_at);
    list = await knowledgeOf(admin.cookie, workspaceId);
    expect(list.knowledge.find((entry: { id: string }) => entry.id === refund.id)).toEqual(updated.body.knowledge);

    const deleted = await t.request('DELETE', `${base}/${hours.id}`, { cookie: admin.cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'ok' });
    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(1);
    expect((await knowledgeOf(admin.cookie, workspaceId)).knowledge).toEqual([updated.body.knowledge]);

    for (const kid of [hours.id, 'kn_does_not_exist']) {
      const put = await t.request('PUT', `${base}/${kid}`, { cookie: admin.cookie, body: { title: 'Back again' } });
      expect(put.status, `PUT ${kid}`).toBe(404);
      expect(put.body.error).toEqual(expect.any(String));
      const remove = await t.request('DELETE', `${base}/${kid}`, { cookie: admin.cookie });
      expect(remove.status, `DELETE ${kid}`).toBe(404);
    }
    // A failed delete does not move the counter, and a failed update does not bring an entry back.
    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(1);
    expect((await knowledgeOf(admin.cookie, workspaceId)).knowledge).toHaveLength(1);
  });

  it('validates entries with 400 and details', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/knowledge`;
    for (const [body, path] of [
      [{ title: '', content: 'text' }, 'title'],
      [{ title: '    ', content: 'text' }, 'title'],
      [{ content: 'text' }, 'title'],
      [{ title: 'Big', content: 'x'.repeat(100_001) }, 'content'],
      [{ title: 'Empty', content: '' }, 'content'],
      [{ title: 'No content' }, 'content'],
    ] as const) {
      const response = await t.request('POST', base, { cookie: admin.cookie, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(pathsOf(response)).toContain(path);
    }
    // 100000 characters is the limit, not over it.
    const largest = await addKnowledge(admin.cookie, workspaceId, 'Largest', 'y'.repeat(100_000));
    expect(largest.content).toHaveLength(100_000);

    const emptyPut = await t.request('PUT', `${base}/${largest.id}`, { cookie: admin.cookie, body: {} });
    expect(emptyPut.status).toBe(400);
    expect(emptyPut.body.details).toEqual(expect.any(Array));
    const blankTitle = await t.request('PUT', `${base}/${largest.id}`, { cookie: admin.cookie, body: { title: ' ' } });
    expect(blankTitle.status).toBe(400);
    expect(pathsOf(blankTitle)).toContain('title');
    const tooLong = await t.request('PUT', `${base}/${largest.id}`, { cookie: admin.cookie, body: { content: 'z'.repeat(100_001) } });
    expect(tooLong.status).toBe(400);
    expect(pathsOf(tooLong)).toContain('content');

    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(1);
    expect((await knowledgeOf(admin.cookie, workspaceId)).knowledge).toEqual([largest]);
  });

  it('lets members read but not write entries; another organisation gets 404', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/knowledge`;
    const entry = await addKnowledge(admin.cookie, workspaceId, 'Refund policy', 'Within 30 days.');
    const member = await t.addMember(admin.cookie);
    const other = await t.signUp();

    const writes = [
      ['POST', base, { title: 'Member entry', content: 'text' }],
      ['PUT', `${base}/${entry.id}`, { title: 'Changed' }],
      ['DELETE', `${base}/${entry.id}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      const byMember = await t.request(method, path, { cookie: member.cookie, body });
      expect(byMember.status, `member ${method}`).toBe(403);
      const byOther = await t.request(method, path, { cookie: other.cookie, body });
      expect(byOther.status, `other organisation ${method}`).toBe(404);
    }
    expect(await knowledgeOf(member.cookie, workspaceId)).toEqual({ knowledge: [entry], gaps: [] });
    const foreign = await t.request('GET', base, { cookie: other.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('Within 30 days');
    expect(await knowledgeCount(admin.cookie, workspaceId)).toBe(1);
  });
});

describe('knowledge in queries', () => {
  it('puts knowledge that fits the budget into the cached system prompt, without a search tool', async () => {
    const { admin, workspaceId } = await setup({ system_prompt: 'You answer support questions.' });
    const refund = await addKnowledge(admin.cookie, workspaceId, 'Refund policy', 'Refunds are accepted within 30 days.');
    const hours = await addKnowledge(admin.cookie, workspaceId, 'Opening hours', 'We are open Monday to Friday, 9 to 17.');
    model.reply(textReply('Within 30 days.'));
    const response = await askOk(admin.cookie, workspaceId, { query: 'Can I get a refund?' });
    expect(response).toMatchObject({ answer: 'Within 30 days.', error: null, tools_called: [] });

    const [request] = queryRequests();
    const system = request?.body.system ?? [];
    expect(system).toHaveLength(1);
    expect(system[0]?.cache_control).toEqual({ type: 'ephemeral' });
    const text = system[0]?.text ?? '';
    expect(text.startsWith('You answer support questions.')).toBe(true);
    expect(text).toContain('## Workspace knowledge');
    for (const entry of [refund, hours]) {
      expect(text).toContain(entry.title);
      expect(text).toContain(entry.content);
    }
    expect(toolNames(request)).not.toContain('search_knowledge');
    // Knowledge stays in the system prefix: the question is sent as asked.
    expect(lastMessage(request)).toEqual([{ type: 'text', text: 'Can I get a refund?', cache_control: { type: 'ephemeral' } }]);

    // Changes reach the next query.
    await t.request('PUT', `/api/workspaces/${workspaceId}/knowledge/${hours.id}`, {
      cookie: admin.cookie,
      body: { content: 'We are open every day.' },
    });
    await t.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/${refund.id}`, { cookie: admin.cookie });
    await askOk(admin.cookie, workspaceId, { query: 'When are you open?' });
    const next = systemText(queryRequests()[1]);
    expect(next).toContain('We are open every day.');
    expect(next).not.toContain('Monday to Friday');
    expect(next).not.toContain('Refund policy');
  });

  it('switches to the search_knowledge tool when the knowledge outgrows the budget, ranking title matches first', async () => {
    const { admin, workspaceId } = await setup({ system_prompt: 'You answer support questions.' });
    const sentence = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
    // Just under the budget: still in the prompt.
    const manual = await addKnowledge(
      admin.cookie,
      workspaceId,
      'Manual',
      sentence.repeat(Math.floor((BUDGET_CHARS - 1_500) / sentence.length)).trim(),
    );
    await askOk(admin.cookie, workspaceId, { query: 'warm up' });
    expect(systemText(queryRequests()[0])).toContain(manual.content);
    expect(toolNames(queryRequests()[0])).not.toContain('search_knowledge');

    // Two more entries take the total over 8000 × 4 characters.
    await addKnowledge(
      admin.cookie,
      workspaceId,
      'Billing FAQ',
      `Ask billing for a refund. A refund takes five days. ${'Invoices are sent monthly. '.repeat(60)}`.trim(),
    );
    await addKnowledge(admin.cookie, workspaceId, 'Refund policy', 'Refunds are accepted within 30 days of purchase.');
    const total = (await knowledgeOf(admin.cookie, workspaceId)).knowledge.reduce(
      (sum: number, entry: { title: string; content: string }) => sum + entry.title.length + entry.content.length,
      0,
    );
    expect(total).toBeGreaterThan(BUDGET_CHARS);

    model.reply(toolUseReply([{ name: 'search_knowledge', input: { query: 'refund policy' } }]), textReply('Refunds within 30 days.'));
    const response = await askOk(admin.cookie, workspaceId, { query: 'What is your refund policy?' });
    const [, first, second] = queryRequests();
    const system = first?.body.system ?? [];
    // Cached, for 5 minutes or an hour by the month's query rate (query/run.ts): the warm-up alone
    // makes an hour in a month's first hour, so the time to live is not this test's.
    expect(system[0]?.cache_control).toMatchObject({ type: 'ephemeral' });
    expect(systemText(first)).not.toContain('Lorem ipsum');
    expect(systemText(first)).not.toContain('Refunds are accepted within 30 days');
    expect(systemText(first)).not.toContain('Ask billing for a refund');
    expect(toolNames(first)).toEqual(['search_knowledge']);

    const [result] = lastMessage(second);
    expect(result).toMatchObject({ type: 'tool_result', is_error: false });
    const found = String(result?.content);
    expect(found).toContain('Refunds are accepted within 30 days of purchase.');
    expect(found).not.toContain('Lorem ipsum');
    // The title match ranks first, ahead of an entry that only mentions "refund" in its content.
    expect(found.indexOf('Refund policy')).toBeGreaterThanOrEqual(0);
    if (found.includes('Billing FAQ')) expect(found.indexOf('Refund policy')).toBeLessThan(found.indexOf('Billing FAQ'));

    expect(response).toMatchObject({ answer: 'Refunds within 30 days.', error: null, connections_hit: [] });
    expect(response.tools_called).toContain('search_knowledge');
  });

  it('offers search_knowledge beside the MCP tools, and reports no connection for it', async () => {
    const { admin, workspaceId } = await setup();
    await connectHelpdesk(admin.cookie, workspaceId);
    await addKnowledge(admin.cookie, workspaceId, 'Huge manual', `${'word '.repeat(BUDGET_CHARS / 4).trim()} shipping takes three days`);
    await addKnowledge(admin.cookie, workspaceId, 'Huge appendix', 'term '.repeat(BUDGET_CHARS / 4).trim());
    model.reply(
      toolUseReply([
        { name: 'search_knowledge', input: { query: 'shipping' } },
        { name: 'search_docs', input: { query: 'shipping' } },
      ]),
      textReply('Three days.'),
    );
    const response = await askOk(admin.cookie, workspaceId, { query: 'How long is shipping?' });
    expect(toolNames(queryRequests()[0]).sort()).toEqual([...ALL_TOOLS, 'search_knowledge'].sort());
    const results = lastMessage(queryRequests()[1]);
    expect(String(results[0]?.content)).toContain('shipping takes three days');
    expect(String(results[0]?.content)).not.toContain('term term');
    expect(response.tools_called.sort()).toEqual(['search_docs', 'search_knowledge']);
    expect(response.connections_hit).toEqual(['helpdesk']);
  });
});

describe('knowledge gaps', () => {
  it('records a gap with the first question of an unresolved conversation, and none for a resolved one', async () => {
    const { admin, workspaceId } = await setup();
    const first = await askOk(admin.cookie, workspaceId, { query: 'How do I export my data?' });
    await askOk(admin.cookie, workspaceId, { query: 'Is there an API for it?', session_id: first.conversation_id });
    t.clock.advance(MINUTE);
    const closedAt = t.clock.now().toISOString();
    await closeWithStats(admin.cookie, workspaceId, first.conversation_id, {
      resolution_status: 'unresolved',
      category: 'issue',
      sentiment_score: -0.4,
    });

    const { gaps } = await knowledgeOf(admin.cookie, workspaceId);
    expect(gaps).toEqual([
      {
        id: expect.stringMatching(/^gap_/),
        question: 'How do I export my data?',
        conversation_id: first.conversation_id,
        created_at: closedAt,
      },
    ]);
    let board = await dashboardOf(admin.cookie, workspaceId);
    expect(board.knowledge_gaps).toEqual({ count: 1, recent: gaps });

    const resolved = await askOk(admin.cookie, workspaceId, { query: 'Where is my invoice?' });
    await closeWithStats(admin.cookie, workspaceId, resolved.conversation_id, { resolution_status: 'resolved' });
    expect((await knowledgeOf(admin.cookie, workspaceId)).gaps).toEqual(gaps);
    board = await dashboardOf(admin.cookie, workspaceId);
    expect(board.knowledge_gaps).toEqual({ count: 1, recent: gaps });
    expect(statsRequests()).toHaveLength(2);
  });
});

describe('guardrails', () => {
  it('creates the presets and explicit guardrails, and counts them on the dashboard', async () => {
    const { admin, workspaceId } = await setup();
    const email = await addGuardrail(admin.cookie, workspaceId, { preset: 'email' });
    expect(email).toEqual({
      id: expect.stringMatching(/^gr_/),
      name: 'E-mail addresses',
      type: 'redact_pattern',
      pattern: expect.any(String),
      action: 'redact',
      applies_to: 'both',
      enabled: true,
    });
    expect(new RegExp(email.pattern).test('ada@example.com')).toBe(true);
    const card = await addGuardrail(admin.cookie, workspaceId, { preset: 'card_number', action: 'block' });
    expect(card).toMatchObject({ name: 'Card numbers', type: 'block_pattern', action: 'block', applies_to: 'both', enabled: true });
    const phone = await addGuardrail(admin.cookie, workspaceId, { preset: 'phone_number', name: 'Phones', applies_to: 'output' });
    expect(phone).toMatchObject({ name: 'Phones', type: 'redact_pattern', action: 'redact', applies_to: 'output', enabled: true });
    const secret = await addGuardrail(admin.cookie, workspaceId, {
      name: 'Secret projects',
      type: 'block_pattern',
      pattern: 'secret project \\w+',
      applies_to: 'input',
    });
    expect(secret).toEqual({
      id: expect.stringMatching(/^gr_/),
      name: 'Secret projects',
      type: 'block_pattern',
      pattern: 'secret project \\w+',
      action: 'block',
      applies_to: 'input',
      enabled: true,
    });
    const tools = await addGuardrail(admin.cookie, workspaceId, { name: 'No creation', type: 'block_tool', pattern: 'create_*' });
    expect(tools).toMatchObject({ type: 'block_tool', pattern: 'create_*', action: 'block', applies_to: 'tools', enabled: true });
    const disabled = await addGuardrail(admin.cookie, workspaceId, {
      name: 'Codes',
      type: 'redact_pattern',
      pattern: 'CODE-\\d+',
      enabled: false,
    });
    expect(disabled).toMatchObject({ action: 'redact', applies_to: 'both', enabled: false });
    expect(new Set([email, card, phone, secret, tools, disabled].map((guardrail) => guardrail.id)).size).toBe(6);

    const compliance = await complianceOf(admin.cookie, workspaceId);
    expect(compliance.violations).toEqual([]);
    expect(compliance.next_cursor).toBeNull();
    expect(compliance.guardrails).toHaveLength(6);
    expect(compliance.guardrails).toEqual(expect.arrayContaining([email, card, phone, secret, tools, disabled]));
    const detail = await get(admin.cookie, `/api/workspaces/${workspaceId}`);
    expect(detail.guardrails).toEqual(expect.arrayContaining([email, card, phone, secret, tools, disabled]));
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance).toEqual({ violations: 0, guardrails: 6 });
  });

  it('rejects invalid guardrails with 400 and the path of the problem', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/guardrails`;
    const badRegex = await t.request('POST', base, { cookie: admin.cookie, body: { name: 'Bad', type: 'block_pattern', pattern: 'a(' } });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.details).toEqual([{ path: 'pattern', message: expect.stringMatching(/regular expression/) }]);
    for (const [body, path] of [
      [{ name: 'Tools', type: 'block_tool', pattern: 'create_*', applies_to: 'input' }, 'applies_to'],
      [{ name: 'Tools', type: 'block_tool', pattern: 'create_*', applies_to: 'both' }, 'applies_to'],
      [{ name: 'Pattern', type: 'redact_pattern', pattern: 'abc', applies_to: 'tools' }, 'applies_to'],
      [{ name: 'Pattern', type: 'block_pattern', pattern: 'abc', applies_to: 'tools' }, 'applies_to'],
      [{ name: 'Contradiction', type: 'redact_pattern', pattern: 'abc', action: 'block' }, 'action'],
      [{ name: 'Contradiction', type: 'block_pattern', pattern: 'abc', action: 'redact' }, 'action'],
      [{ name: 'Contradiction', type: 'block_tool', pattern: 'create_*', action: 'redact' }, 'action'],
      [{ type: 'block_pattern', pattern: 'abc' }, 'name'],
      [{ name: 'No type', pattern: 'abc' }, 'type'],
      [{ name: 'No pattern', type: 'block_pattern' }, 'pattern'],
      [{ name: 'Unknown type', type: 'allow_all', pattern: 'abc' }, 'type'],
      [{ name: '  ', type: 'block_pattern', pattern: 'abc' }, 'name'],
      [{ name: 'Glob', type: 'block_tool', pattern: 'create ticket' }, 'pattern'],
      [{ preset: 'passport' }, 'preset'],
      [{ preset: 'email', applies_to: 'tools' }, 'applies_to'],
    ] as const) {
      const response = await t.request('POST', base, { cookie: admin.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(pathsOf(response), JSON.stringify(body)).toContain(path);
    }
    const empty = await t.request('POST', base, { cookie: admin.cookie, body: {} });
    expect(empty.status).toBe(400);
    expect(pathsOf(empty)).toEqual(expect.arrayContaining(['name', 'type', 'pattern']));

    expect((await complianceOf(admin.cookie, workspaceId)).guardrails).toEqual([]);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.guardrails).toBe(0);
  });

  it('runs patterns on a linear-time engine: x(a+)+y and (a+)+$ are accepted, and a question crafted against them is answered at once', async () => {
    const { admin, workspaceId } = await setup();
    const member = await t.addMember(admin.cookie);
    /** A member's question, and how long the service took to answer it. */
    const timedAsk = async (query: string) => {
      const started = performance.now();
      const answer = await askOk(member.cookie, workspaceId, { query });
      return { answer, ms: performance.now() - started };
    };
    // On a backtracking engine each `a` doubles the time on this question: 27 of them held the
    // whole process for 6 s. The pattern needs the `x`, so probing with runs of `a` missed it.
    const prefixed = await addGuardrail(admin.cookie, workspaceId, { name: 'Prefixed', type: 'block_pattern', pattern: 'x(a+)+y' });
    expect(prefixed).toMatchObject({ type: 'block_pattern', pattern: 'x(a+)+y', action: 'block', applies_to: 'both', enabled: true });
    const crafted = await timedAsk(`x${'a'.repeat(27)}!`);
    expect(crafted.answer).toMatchObject({ answer: 'Here is the answer.', error: null });
    expect(crafted.ms).toBeLessThan(1_000);

    await addGuardrail(admin.cookie, workspaceId, { name: 'Anchored', type: 'block_pattern', pattern: '(a+)+$' });
    for (const query of [`x${'a'.repeat(27)}!`, `x${'a'.repeat(5_000)}!`, `${'a'.repeat(5_000)}!`]) {
      const { answer, ms } = await timedAsk(query);
      expect(answer.error, `${query.length} characters`).toBeNull();
      expect(ms, `${query.length} characters`).toBeLessThan(1_000);
    }
    expect(queryRequests()).toHaveLength(4);

    // The patterns still block what they match.
    expect((await askOk(member.cookie, workspaceId, { query: 'xaaay' })).error).toBe('blocked by guardrail "Prefixed"');
    expect((await askOk(member.cookie, workspaceId, { query: 'ends in aaa' })).error).toBe('blocked by guardrail "Anchored"');
    expect(queryRequests()).toHaveLength(4);
  });

  it('refuses lookaround, backreferences and other syntax RE2 lacks with 400 naming it, on create and on change', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/guardrails`;
    for (const [pattern, feature] of [
      ['(?<=a)b', /^not a valid regular expression: lookbehind .*lookaround and backreferences are not supported/],
      ['(a)\\1', /^not a valid regular expression: backreference .*lookaround and backreferences are not supported/],
      ['secret(?! project)', /^not a valid regular expression: lookahead .*lookaround and backreferences are not supported/],
      ['a++', /^not a valid regular expression: possessive quantifier/],
    ] as const) {
      const response = await t.request('POST', base, {
        cookie: admin.cookie,
        body: { name: 'JavaScript only', type: 'block_pattern', pattern },
      });
      expect(response.status, pattern).toBe(400);
      expect(response.body.details, pattern).toEqual([{ path: 'pattern', message: expect.stringMatching(feature) }]);
    }
    // A pattern whose counted repetitions compile too large is refused too: matching time grows with it.
    const huge = await t.request('POST', base, {
      cookie: admin.cookie,
      body: { name: 'Huge', type: 'block_pattern', pattern: `${'.{0,1000}'.repeat(55)}z` },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.details).toEqual([
      { path: 'pattern', message: expect.stringMatching(/^too large once its repetitions are written out/) },
    ]);

    const fine = await addGuardrail(admin.cookie, workspaceId, { name: 'Tickets', type: 'redact_pattern', pattern: 'TICKET-\\d+' });
    const changed = await t.request('PUT', `${base}/${fine.id}`, { cookie: admin.cookie, body: { pattern: '(?<!OLD-)TICKET-\\d+' } });
    expect(changed.status).toBe(400);
    expect(changed.body.details).toEqual([{ path: 'pattern', message: expect.stringMatching(/lookbehind/) }]);
    // Nothing was written: the guardrail kept its pattern, and it still works.
    expect((await complianceOf(admin.cookie, workspaceId)).guardrails).toEqual([fine]);
    await askOk(admin.cookie, workspaceId, { query: 'About ticket-42 and OLD-TICKET-7' });
    expect(lastMessage(queryRequests()[0])).toEqual([
      { type: 'text', text: 'About [redacted] and OLD-[redacted]', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('changes, disables and deletes a guardrail; a disabled or deleted one is not enforced', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/guardrails`;
    const secret = await addGuardrail(admin.cookie, workspaceId, {
      name: 'Secret projects',
      type: 'block_pattern',
      pattern: 'secret project \\w+',
    });
    const question = { query: 'Tell me about secret project Falcon' };
    expect((await askOk(admin.cookie, workspaceId, question)).error).toBe('blocked by guardrail "Secret projects"');
    expect(model.requests).toHaveLength(0);

    const disabled = await t.request('PUT', `${base}/${secret.id}`, { cookie: admin.cookie, body: { enabled: false } });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toEqual({ guardrail: { ...secret, enabled: false } });
    expect((await complianceOf(admin.cookie, workspaceId)).guardrails).toEqual([{ ...secret, enabled: false }]);
    model.reply(textReply('Falcon is our new app.'));
    const passed = await askOk(admin.cookie, workspaceId, question);
    expect(passed).toMatchObject({ answer: 'Falcon is our new app.', error: null });
    expect(lastMessage(queryRequests()[0])).toEqual([
      { type: 'text', text: 'Tell me about secret project Falcon', cache_control: { type: 'ephemeral' } },
    ]);

    const renamed = await t.request('PUT', `${base}/${secret.id}`, { cookie: admin.cookie, body: { name: 'Codenames', enabled: true } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.guardrail).toEqual({ ...secret, name: 'Codenames', enabled: true });
    expect((await askOk(admin.cookie, workspaceId, question)).error).toBe('blocked by guardrail "Codenames"');
    expect(queryRequests()).toHaveLength(1);

    const invalid = await t.request('PUT', `${base}/${secret.id}`, { cookie: admin.cookie, body: { pattern: 'a(' } });
    expect(invalid.status).toBe(400);
    expect(pathsOf(invalid)).toContain('pattern');
    const contradiction = await t.request('PUT', `${base}/${secret.id}`, { cookie: admin.cookie, body: { action: 'redact' } });
    expect(contradiction.status).toBe(400);
    expect(pathsOf(contradiction)).toContain('action');
    const unknown = await t.request('PUT', `${base}/gr_does_not_exist`, { cookie: admin.cookie, body: { enabled: false } });
    expect(unknown.status).toBe(404);
    expect((await complianceOf(admin.cookie, workspaceId)).guardrails).toEqual([renamed.body.guardrail]);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.guardrails).toBe(1);

    const deleted = await t.request('DELETE', `${base}/${secret.id}`, { cookie: admin.cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ status: 'ok' });
    expect((await complianceOf(admin.cookie, workspaceId)).guardrails).toEqual([]);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.guardrails).toBe(0);
    expect((await t.request('DELETE', `${base}/${secret.id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await t.request('PUT', `${base}/${secret.id}`, { cookie: admin.cookie, body: { enabled: true } })).status).toBe(404);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.guardrails).toBe(0);
    expect((await askOk(admin.cookie, workspaceId, question)).error).toBeNull();
    expect(queryRequests()).toHaveLength(2);
  });

  it('lets members read guardrails but not write them; another organisation gets 404', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/guardrails`;
    const email = await addGuardrail(admin.cookie, workspaceId, { preset: 'email' });
    const member = await t.addMember(admin.cookie);
    const other = await t.signUp();
    const writes = [
      ['POST', base, { preset: 'card_number' }],
      ['PUT', `${base}/${email.id}`, { enabled: false }],
      ['DELETE', `${base}/${email.id}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      expect((await t.request(method, path, { cookie: member.cookie, body })).status, `member ${method}`).toBe(403);
      expect((await t.request(method, path, { cookie: other.cookie, body })).status, `other organisation ${method}`).toBe(404);
    }
    expect(await complianceOf(member.cookie, workspaceId)).toEqual({ guardrails: [email], violations: [], next_cursor: null });
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/compliance`, { cookie: other.cookie })).status).toBe(404);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.guardrails).toBe(1);
  });
});

describe('guardrail enforcement', () => {
  it('refuses a question matching a block_pattern without calling the model, keeping no trace of the text', async () => {
    const { admin, workspaceId } = await setup();
    const secret = await addGuardrail(admin.cookie, workspaceId, {
      name: 'Secret projects',
      type: 'block_pattern',
      pattern: 'secret project \\w+',
      applies_to: 'input',
    });
    const at = t.clock.now().toISOString();
    const response = await ask(admin.cookie, workspaceId, { query: 'Tell me about secret project Falcon, please' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      error: 'blocked by guardrail "Secret projects"',
      tools_called: [],
      connections_hit: [],
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      cost_usd: 0,
    });
    expect(response.body.answer).toContain('Secret projects');
    expect(model.requests).toHaveLength(0);
    const cid = response.body.conversation_id;

    const messages = await messagesOf(admin.cookie, workspaceId, cid);
    expect(messages[0]?.[0]).toBe('user');
    for (const [, content] of messages) {
      expect(content).not.toContain('Falcon');
      // (The refusal names the guardrail, "Secret projects"; the question's own words must be gone.)
      expect(content).not.toContain('secret project');
    }
    const activity = (await get(admin.cookie, `/api/workspaces/${workspaceId}/activity`)).activity;
    expect(activity[0].query).not.toContain('Falcon');
    expect(activity[0].error).toBe('blocked by guardrail "Secret projects"');

    const { violations } = await complianceOf(admin.cookie, workspaceId);
    expect(violations).toEqual([
      {
        id: expect.stringMatching(/^viol_/),
        guardrail_id: secret.id,
        guardrail_name: 'Secret projects',
        conversation_id: cid,
        direction: 'input',
        action: 'block',
        excerpt: expect.stringContaining('[redacted]'),
        created_at: at,
      },
    ]);
    expect(violations[0].excerpt).not.toContain('Falcon');
    expect(violations[0].excerpt).not.toContain('secret project');
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance).toEqual({ violations: 1, guardrails: 1 });

    // A question without the pattern goes through, and an input-only guardrail leaves the answer alone.
    model.reply(textReply('The secret project Falcon is public now.'));
    const allowed = await askOk(admin.cookie, workspaceId, { query: 'What about public projects?' });
    expect(allowed).toMatchObject({ answer: 'The secret project Falcon is public now.', error: null });
    expect(model.requests).toHaveLength(1);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance.violations).toBe(1);
  });

  it('redacts e-mail addresses on the way in and out: sent, returned, stored and recorded redacted', async () => {
    const { admin, workspaceId } = await setup();
    const email = await addGuardrail(admin.cookie, workspaceId, { preset: 'email' });
    model.reply(textReply('Sure, I will write to ada@example.com today.'));
    const response = await askOk(admin.cookie, workspaceId, { query: 'mail me at ada@example.com' });
    const [request] = queryRequests();
    expect(lastMessage(request)).toEqual([{ type: 'text', text: 'mail me at [redacted]', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(request?.body)).not.toContain('ada@example.com');
    expect(response).toMatchObject({ answer: 'Sure, I will write to [redacted] today.', error: null });
    const cid = response.conversation_id;

    expect(await messagesOf(admin.cookie, workspaceId, cid)).toEqual([
      ['user', 'mail me at [redacted]'],
      ['assistant', 'Sure, I will write to [redacted] today.'],
    ]);
    const activity = (await get(admin.cookie, `/api/workspaces/${workspaceId}/activity`)).activity;
    expect(activity[0].query).toBe('mail me at [redacted]');

    const { violations } = await complianceOf(admin.cookie, workspaceId);
    expect(violations).toHaveLength(2);
    const common = {
      id: expect.stringMatching(/^viol_/),
      guardrail_id: email.id,
      guardrail_name: 'E-mail addresses',
      conversation_id: cid,
      action: 'redact',
      excerpt: expect.any(String),
      created_at: expect.any(String),
    };
    expect(violations).toEqual(
      expect.arrayContaining([
        { ...common, direction: 'input' },
        { ...common, direction: 'output' },
      ]),
    );
    for (const violation of violations) {
      expect(violation.excerpt).toContain('[redacted]');
      expect(violation.excerpt).not.toContain('@');
    }
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance).toEqual({ violations: 2, guardrails: 1 });

    // The follow-up's context and the statistics transcript are the stored, redacted messages.
    await askOk(admin.cookie, workspaceId, { query: 'thanks', session_id: cid });
    expect(JSON.stringify(queryRequests()[1]?.body)).not.toContain('@example.com');
    await closeWithStats(admin.cookie, workspaceId, cid, {});
    expect(JSON.stringify(statsRequests()[0]?.body)).not.toContain('@example.com');
    expect(JSON.stringify(statsRequests()[0]?.body)).toContain('[redacted]');
  });

  it('redacts the history sent with a new conversation before it reaches the model or the store', async () => {
    const { admin, workspaceId } = await setup();
    await addGuardrail(admin.cookie, workspaceId, { preset: 'email' });
    const response = await askOk(admin.cookie, workspaceId, {
      query: 'Did you note it?',
      history: [
        { role: 'user', content: 'My address is ada@example.com' },
        { role: 'assistant', content: 'Thanks, I noted ada@example.com.' },
      ],
    });
    // Soft: a failure reports both where the address went (to the model, into the store).
    expect.soft(JSON.stringify(queryRequests()[0]?.body.messages), 'sent to the model').not.toContain('ada@example.com');
    const messages = await messagesOf(admin.cookie, workspaceId, response.conversation_id);
    expect(messages).toHaveLength(4);
    expect.soft(JSON.stringify(messages), 'stored').not.toContain('ada@example.com');
  });

  it('withholds an answer matching an output block_pattern, recording the violation', async () => {
    const { admin, workspaceId } = await setup();
    const internal = await addGuardrail(admin.cookie, workspaceId, {
      name: 'Internal hosts',
      type: 'block_pattern',
      pattern: '\\w+\\.internal\\.example',
      applies_to: 'output',
    });
    model.reply(textReply('Connect to db1.internal.example with your password.'));
    const response = await askOk(admin.cookie, workspaceId, { query: 'Where is the database?' });
    expect(model.requests).toHaveLength(1);
    expect(response.answer).toContain('Internal hosts');
    expect(response.answer).not.toContain('internal.example');
    expect(response.error).toBe('answer withheld by guardrail "Internal hosts"');
    const messages = await messagesOf(admin.cookie, workspaceId, response.conversation_id);
    expect(messages[0]).toEqual(['user', 'Where is the database?']);
    expect(JSON.stringify(messages)).not.toContain('internal.example');
    const { violations } = await complianceOf(admin.cookie, workspaceId);
    expect(violations).toEqual([
      expect.objectContaining({
        guardrail_id: internal.id,
        direction: 'output',
        action: 'block',
        conversation_id: response.conversation_id,
      }),
    ]);
    expect(violations[0].excerpt).not.toContain('internal.example');
  });

  it('blocks card numbers with the card_number preset and redacts phone numbers with phone_number', async () => {
    const { admin, workspaceId } = await setup();
    await addGuardrail(admin.cookie, workspaceId, { preset: 'card_number', action: 'block' });
    await addGuardrail(admin.cookie, workspaceId, { preset: 'phone_number' });
    const blocked = await askOk(admin.cookie, workspaceId, { query: 'my card is 4111 1111 1111 1111' });
    expect(blocked.error).toBe('blocked by guardrail "Card numbers"');
    expect(model.requests).toHaveLength(0);

    await askOk(admin.cookie, workspaceId, { query: 'call me on +44 20 7946 0958 tomorrow' });
    const text = lastMessage(queryRequests()[0])[0]?.text ?? '';
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('7946');
    expect(text).toMatch(/^call me on .*tomorrow$/);
    const { violations } = await complianceOf(admin.cookie, workspaceId);
    expect(violations.map((v: { guardrail_name: string; action: string }) => [v.guardrail_name, v.action]).sort()).toEqual([
      ['Card numbers', 'block'],
      ['Phone numbers', 'redact'],
    ]);
  });

  it('never offers tools a block_tool guardrail names, and refuses calls to them', async () => {
    const { admin, workspaceId } = await setup();
    await connectHelpdesk(admin.cookie, workspaceId);
    const noCreate = await addGuardrail(admin.cookie, workspaceId, { name: 'No creation', type: 'block_tool', pattern: 'create_*' });
    const callsBefore = mcp.stats.toolCalls;
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'sneaky' } }]), textReply('I cannot open tickets.'));
    const response = await askOk(admin.cookie, workspaceId, { query: 'Open a ticket for me' });
    const [first, second] = queryRequests();
    expect(toolNames(first)).toEqual(ALL_TOOLS.filter((name) => name !== 'create_ticket'));
    expect(toolNames(first)).toContain('search_docs');
    expect(lastMessage(second)[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(mcp.stats.toolCalls).toBe(callsBefore);
    expect(response.connections_hit).toEqual([]);
    // The attempt is a violation of the guardrail.
    const compliance = await t.request('GET', `/api/workspaces/${workspaceId}/compliance`, { cookie: admin.cookie });
    expect(compliance.body.violations).toEqual([
      expect.objectContaining({ guardrail_id: noCreate.id, direction: 'tools', action: 'block', excerpt: 'call to tool create_ticket' }),
    ]);

    // Disabled, it no longer filters.
    const disabled = await t.request('PUT', `/api/workspaces/${workspaceId}/guardrails/${noCreate.id}`, {
      cookie: admin.cookie,
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    await askOk(admin.cookie, workspaceId, { query: 'list the tools' });
    expect(toolNames(queryRequests()[2])).toEqual(ALL_TOOLS);
  });

  it('lists violations newest first, a page at a time, and counts them on the dashboard', async () => {
    const { admin, workspaceId } = await setup();
    await addGuardrail(admin.cookie, workspaceId, { name: 'Secret projects', type: 'block_pattern', pattern: 'secret project \\w+' });
    await addGuardrail(admin.cookie, workspaceId, { preset: 'email' });
    const times: string[] = [];
    for (const query of ['about secret project Alpha', 'write to bob@example.org', 'and secret project Beta']) {
      times.push(t.clock.now().toISOString());
      await askOk(admin.cookie, workspaceId, { query });
      t.clock.advance(MINUTE);
    }

    const all = await complianceOf(admin.cookie, workspaceId);
    expect(all.guardrails).toHaveLength(2);
    expect(all.next_cursor).toBeNull();
    expect(
      all.violations.map((v: { created_at: string; guardrail_name: string; action: string }) => [v.created_at, v.guardrail_name, v.action]),
    ).toEqual([
      [times[2], 'Secret projects', 'block'],
      [times[1], 'E-mail addresses', 'redact'],
      [times[0], 'Secret projects', 'block'],
    ]);

    const page1 = await complianceOf(admin.cookie, workspaceId, '?limit=1');
    expect(page1.violations).toEqual([all.violations[0]]);
    expect(page1.next_cursor).toEqual(expect.any(String));
    expect(page1.guardrails).toHaveLength(2);
    const page2 = await complianceOf(admin.cookie, workspaceId, `?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`);
    expect(page2.violations).toEqual([all.violations[1]]);
    expect(page2.next_cursor).toEqual(expect.any(String));
    const page3 = await complianceOf(admin.cookie, workspaceId, `?limit=1&cursor=${encodeURIComponent(page2.next_cursor)}`);
    expect(page3.violations).toEqual([all.violations[2]]);
    expect(page3.next_cursor).toBeNull();
    expect((await complianceOf(admin.cookie, workspaceId, '?limit=1&offset=1')).violations).toEqual([all.violations[1]]);

    expect((await t.request('GET', `/api/workspaces/${workspaceId}/compliance?limit=-1`, { cookie: admin.cookie })).status).toBe(400);
    expect((await dashboardOf(admin.cookie, workspaceId)).compliance).toEqual({ violations: 3, guardrails: 2 });
  });
});

describe('permissions', () => {
  it("sets a role's tool patterns, lists them in the detail, and sends each role only its tools", async () => {
    const { admin, workspaceId } = await setup();
    await connectHelpdesk(admin.cookie, workspaceId);
    const member = await t.addMember(admin.cookie);

    const saved = await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['search_*'] },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ permission: { role: 'member', tool_patterns: '["search_*"]' } });
    const detail = await get(admin.cookie, `/api/workspaces/${workspaceId}`);
    expect(detail.permissions).toEqual([
      { role: 'admin', tool_patterns: '["*"]' },
      { role: 'member', tool_patterns: '["search_*"]' },
    ]);

    await askOk(member.cookie, workspaceId, { query: 'as a member' });
    expect(toolNames(queryRequests()[0])).toEqual(['search_docs']);
    await askOk(admin.cookie, workspaceId, { query: 'as an admin' });
    expect(toolNames(queryRequests()[1])).toEqual(ALL_TOOLS);

    // The admin role can be narrowed too, and a role can be given no tools at all.
    const narrowed = await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/admin`, {
      cookie: admin.cookie,
      body: { tool_patterns: ['create_*', 'plain_tool'] },
    });
    expect(narrowed.body).toEqual({ permission: { role: 'admin', tool_patterns: '["create_*","plain_tool"]' } });
    await askOk(admin.cookie, workspaceId, { query: 'as a narrowed admin' });
    expect(toolNames(queryRequests()[2])).toEqual(['create_ticket', 'plain_tool']);
    const none = await t.request('PUT', `/api/workspaces/${workspaceId}/permissions/member`, {
      cookie: admin.cookie,
      body: { tool_patterns: [] },
    });
    expect(none.body).toEqual({ permission: { role: 'member', tool_patterns: '[]' } });
    await askOk(member.cookie, workspaceId, { query: 'as a member without tools' });
    expect(toolNames(queryRequests()[3])).toEqual([]);
  });

  it('validates permission writes; members get 403 and other organisations 404', async () => {
    const { admin, workspaceId } = await setup();
    const base = `/api/workspaces/${workspaceId}/permissions`;
    const owner = await t.request('PUT', `${base}/owner`, { cookie: admin.cookie, body: { tool_patterns: ['*'] } });
    expect(owner.status).toBe(400);
    expect(pathsOf(owner)).toContain('role');
    for (const body of [
      { tool_patterns: ['search docs'] },
      { tool_patterns: 'search_*' },
      { tool_patterns: [1] },
      { tool_patterns: [''] },
      {},
    ]) {
      const response = await t.request('PUT', `${base}/member`, { cookie: admin.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        pathsOf(response).some((path: string) => path.startsWith('tool_patterns')),
        JSON.stringify(body),
      ).toBe(true);
    }
    const member = await t.addMember(admin.cookie);
    expect((await t.request('PUT', `${base}/member`, { cookie: member.cookie, body: { tool_patterns: ['*'] } })).status).toBe(403);
    const other = await t.signUp();
    expect((await t.request('PUT', `${base}/member`, { cookie: other.cookie, body: { tool_patterns: ['*'] } })).status).toBe(404);
    expect((await get(admin.cookie, `/api/workspaces/${workspaceId}`)).permissions).toEqual([
      { role: 'admin', tool_patterns: '["*"]' },
      { role: 'member', tool_patterns: '["*"]' },
    ]);
  });
});

describe('dashboard', () => {
  it('adds up a scripted history: tickets, sentiment, resolution, categories, cost, usage, recent conversations and gaps', async () => {
    // The history takes 37 minutes of one day: the test clock's day (UTC), from 10:00, so that it
    // stays within that day, its week and its month from any start (even a minute before midnight).
    const day = t.clock.now().toISOString().slice(0, 10);
    t.clock.set(`${day}T10:00:00.000Z`);
    const { admin, workspaceId } = await setup();
    const costs: number[] = [];
    const query = async (body: Record<string, unknown>, usage: { input_tokens: number; output_tokens: number }) => {
      model.reply(textReply('An answer.', usage));
      const response = await askOk(admin.cookie, workspaceId, body);
      expect(response.error).toBeNull();
      expect(response.cost_usd).toBeCloseTo((usage.input_tokens * 3 + usage.output_tokens * 15) / 1e6, 9);
      costs.push(response.cost_usd);
      return response.conversation_id;
    };

    // D: asked first, then left to go cold.
    const d = await query({ query: 'An old question' }, { input_tokens: 1000, output_tokens: 100 });
    t.clock.advance(30 * MINUTE);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect((await conversationOf(admin.cookie, workspaceId, d)).conversation.status).toBe('cold');

    t.clock.advance(MINUTE);
    const a = await query({ query: 'How do I reset my password?', session_id: 'dash-a' }, { input_tokens: 2000, output_tokens: 200 });
    t.clock.advance(MINUTE);
    const b = await query(
      {
        query: 'Can you refund one of them?',
        session_id: 'dash-b',
        history: [
          { role: 'user', content: 'I was charged twice.' },
          { role: 'assistant', content: 'Sorry to hear that.' },
        ],
      },
      { input_tokens: 1500, output_tokens: 100 },
    );
    t.clock.advance(MINUTE);
    // A follow-up on A: its history is ignored, as the conversation exists.
    await query(
      { query: 'It worked, thanks', session_id: 'dash-a', history: [{ role: 'user', content: 'ignored' }] },
      { input_tokens: 3000, output_tokens: 300 },
    );
    t.clock.advance(MINUTE);
    const c = await query({ query: 'Just browsing' }, { input_tokens: 500, output_tokens: 50 });
    t.clock.advance(MINUTE);
    const e = await query({ query: 'What are your opening hours?' }, { input_tokens: 800, output_tokens: 80 });
    expect([a, b]).toEqual(['dash-a', 'dash-b']);
    expect((await conversationOf(admin.cookie, workspaceId, a)).conversation.message_count).toBe(4);

    t.clock.advance(MINUTE);
    await closeWithStats(admin.cookie, workspaceId, a, { resolution_status: 'resolved', category: 'support', sentiment_score: 0.8 });
    await closeWithStats(admin.cookie, workspaceId, b, { resolution_status: 'unresolved', category: 'issue', sentiment_score: -0.6 });
    await closeWithStats(admin.cookie, workspaceId, e, { resolution_status: 'resolved', category: 'support', sentiment_score: 0 });
    expect(statsRequests()).toHaveLength(3);

    const board = await dashboardOf(admin.cookie, workspaceId);
    expect(board.tickets).toEqual({ open: 1, cold: 1, closed: 3, total: 5 });
    expect(board.sentiment).toMatchObject({ positive: 1, neutral: 1, negative: 1 });
    expect(board.sentiment.average).toBeCloseTo((0.8 - 0.6 + 0) / 3, 9);
    expect(board.resolution).toMatchObject({ resolved: 2, unresolved: 1 });
    expect(board.resolution.rate).toBeCloseTo(2 / 3, 9);
    expect(board.categories).toEqual([
      { category: 'support', count: 2 },
      { category: 'issue', count: 1 },
    ]);
    expect(board.channels).toEqual([]);
    expect(board.compliance).toEqual({ violations: 0, guardrails: 0 });

    const spent = costs.reduce((sum, cost) => sum + cost, 0) + 3 * STATS_COST;
    expect(board.cost.mtd).toBeCloseTo(spent, 6);
    expect(board.cost.today).toBeCloseTo(spent, 6);
    expect(board.cost.per_conversation).toBeCloseTo(spent / 5, 6);

    expect(costs).toHaveLength(6);
    expect(board.usage).toMatchObject({ queries_today: 6, week: 6, month: 6 });
    expect(board.usage.by_day).toHaveLength(30);
    const today = board.usage.by_day.at(-1);
    expect(today.date).toBe(day);
    expect(today.queries).toBe(6);
    expect(today.cost).toBeCloseTo(spent, 6);
    expect(board.usage.by_day.slice(0, -1).every((day: { queries: number; cost: number }) => day.queries === 0 && day.cost === 0)).toBe(
      true,
    );

    // Newest activity first: E, C, then A (its follow-up came after B), B, and the cold D.
    expect(board.recent_conversations.map((conversation: { id: string }) => conversation.id)).toEqual([e, c, a, b, d]);
    expect(board.recent_conversations[2]).toMatchObject({
      id: a,
      status: 'closed',
      category: 'support',
      resolution_status: 'resolved',
      sentiment_score: 0.8,
    });
    expect(board.recent_conversations[4]).toMatchObject({ id: d, status: 'cold' });

    // B was unresolved: its first user message (from the history it was started with) is the gap.
    expect(board.knowledge_gaps).toEqual({
      count: 1,
      recent: [
        { id: expect.stringMatching(/^gap_/), question: 'I was charged twice.', conversation_id: b, created_at: expect.any(String) },
      ],
    });
  });
});
