import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { promptChars, startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { standardTools, startHttpMcpServer } from '../support/mcp-servers.js';

/*
 * Budgets (CONTRACT.md, "Budgets"): the API, admission before the model is called (402 naming the
 * budget), parallel queries against a nearly spent budget on the embedded store, settlement, the
 * alert webhook once per threshold, and a decision on an approval held to the budget too.
 */

/** A query of the balanced tier ($3 in, $15 out per million) with this usage costs $0.006. */
const USAGE = { input_tokens: 1000, output_tokens: 200 };
const QUERY_USD = 0.006;

const helpdesk = await startHttpMcpServer({ name: 'helpdesk', tools: standardTools() });
let t: TestContext;
let model: FakeModel;
const hooks: unknown[] = [];
const webhook = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    hooks.push(JSON.parse(text));
    res.end('ok');
  });
});

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await t.close();
  await model.stop();
  await helpdesk.stop();
  await new Promise((resolve) => webhook.close(resolve));
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(() => textReply('an answer', USAGE));
  hooks.length = 0;
});

let names = 0;
/** An organisation with one workspace that has answered one query already (its average cost is known). */
async function orgWithHistory() {
  const admin = await t.signUp();
  names += 1;
  const workspace = await t.createWorkspace(admin.cookie, { name: `Budgeted ${names}` });
  const first = await ask(admin.cookie, workspace.id);
  expect(first.status, first.text).toBe(200);
  expect(first.body.cost_usd).toBeCloseTo(QUERY_USD, 9);
  return { admin, workspaceId: workspace.id };
}

function ask(cookie: string, workspaceId: string, headers: Record<string, string> = {}) {
  return t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, headers, body: { query: 'How much?' } });
}

function createBudget(cookie: string, body: Record<string, unknown>) {
  return t.request('POST', '/api/org/budgets', { cookie, body });
}

describe('the budgets API', () => {
  it('adds, lists, changes and deletes budgets; members read them, only admins set them', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    const created = await createBudget(admin.cookie, { scope: 'workspace', scope_id: workspaceId, period: 'month', limit_usd: 200 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.budget).toMatchObject({
      scope: 'workspace',
      scope_id: workspaceId,
      name: expect.stringMatching(/^Budgeted /),
      period: 'month',
      limit_usd: 200,
      // The first query of the month counts: a budget covers the whole period.
      spent_usd: QUERY_USD,
      reserved_usd: 0,
      alert_percent: [80, 100],
      status: 'ok',
    });
    const now = t.clock.now();
    expect(created.body.budget.resets_at).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    const member = await t.addMember(admin.cookie);
    const listed = await t.request('GET', '/api/org/budgets', { cookie: member.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.budgets.map((budget: { id: string }) => budget.id)).toEqual([created.body.budget.id]);
    expect((await createBudget(member.cookie, { scope: 'org', period: 'day', limit_usd: 5 })).status).toBe(403);

    const id = created.body.budget.id;
    const changed = await t.request('PUT', `/api/org/budgets/${id}`, {
      cookie: admin.cookie,
      body: { limit_usd: 150, alert_percent: [90, 50, 90] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.budget).toMatchObject({ limit_usd: 150, alert_percent: [50, 90] });
    // Another organisation's budget is not found.
    const stranger = await t.signUp();
    expect((await t.request('PUT', `/api/org/budgets/${id}`, { cookie: stranger.cookie, body: { limit_usd: 1 } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/org/budgets/${id}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await t.request('DELETE', `/api/org/budgets/${id}`, { cookie: admin.cookie })).body).toEqual({ status: 'ok' });
    expect((await t.request('GET', '/api/org/budgets', { cookie: admin.cookie })).body).toEqual({ budgets: [] });
    expect((await t.request('DELETE', `/api/org/budgets/${id}`, { cookie: admin.cookie })).status).toBe(404);
  });

  it('refuses bad budgets with 400 naming the field, and a second budget of the same scope and period with 409', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    const stranger = await t.signUp();
    const theirs = await t.createWorkspace(stranger.cookie, { name: 'Not yours' });
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: 'org', scope_id: workspaceId, period: 'day', limit_usd: 5 }, 'scope_id'],
      [{ scope: 'workspace', period: 'day', limit_usd: 5 }, 'scope_id'],
      [{ scope: 'workspace', scope_id: theirs.id === workspaceId ? 'ws-nope' : theirs.id, period: 'day', limit_usd: 5 }, 'scope_id'],
      [{ scope: 'user', scope_id: 'usr_nobody', period: 'day', limit_usd: 5 }, 'scope_id'],
      [{ scope: 'consumer', scope_id: 'cons_nobody', period: 'day', limit_usd: 5 }, 'scope_id'],
      [{ scope: 'org', period: 'week', limit_usd: 5 }, 'period'],
      [{ scope: 'org', period: 'day', limit_usd: 0 }, 'limit_usd'],
      [{ scope: 'org', period: 'day', limit_usd: 0.001 }, 'limit_usd'],
      [{ scope: 'org', period: 'day', limit_usd: 5, alert_percent: [0] }, 'alert_percent.0'],
      [{ scope: 'team', period: 'day', limit_usd: 5 }, 'scope'],
    ];
    for (const [body, path] of cases) {
      const response = await createBudget(admin.cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.details.map((detail: { path: string }) => detail.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 5 })).status).toBe(201);
    const again = await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 9 });
    expect(again.status).toBe(409);
    expect((await createBudget(admin.cookie, { scope: 'org', period: 'month', limit_usd: 9 })).status).toBe(201);
  });
});

/*
 * What a model round holds of a budget at most (query/budget.ts, `roundCostBound`): the whole output
 * limit (4 096 tokens at $15 a million) and each prompt byte as a token at the cache-write price
 * ($3.75). A question of a few words in a workspace without tools holds about $0.066.
 */

/** A reply whose input tokens are the request's prompt at 3.5 characters a token, as the Messages API counts them. */
const counted = (outputTokens: number) => (record: ModelRequestRecord) =>
  textReply('an answer', { input_tokens: Math.ceil(promptChars(record.body) / 3.5), output_tokens: outputTokens });

async function budgetView(cookie: string) {
  const [view] = (await t.request('GET', '/api/org/budgets', { cookie })).body.budgets;
  return view;
}

describe('admission', () => {
  it('refuses a query past its budget with 402 naming the budget, before the model is called (JSON and streamed)', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    // Made after the first query ($0.006): the budget counts it, leaving $0.064, less than a round's bound.
    const budget = await createBudget(admin.cookie, { scope: 'workspace', scope_id: workspaceId, period: 'day', limit_usd: 0.07 });
    expect(budget.body.budget).toMatchObject({ spent_usd: QUERY_USD, status: 'ok' });
    model.reset();
    const refused = await ask(admin.cookie, workspaceId);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatch(
      /^budget exceeded: workspace "Budgeted \d+" spent \$0\.006 of \$0\.07 this day; resets at 00:00 UTC on \d{1,2} [A-Z][a-z]+ \d{4}$/,
    );
    expect(refused.body.budget).toEqual({
      id: budget.body.budget.id,
      scope: 'workspace',
      scope_id: workspaceId,
      resets_at: expect.stringMatching(/T00:00:00\.000Z$/),
    });
    const streamed = await ask(admin.cookie, workspaceId, { accept: 'text/event-stream' });
    expect(streamed.status).toBe(402);
    expect(streamed.body.budget.id).toBe(budget.body.budget.id);
    expect(model.requests).toHaveLength(0);
    // $0.064 of room is left, but a query was refused: it shows as exceeded.
    expect(await budgetView(admin.cookie)).toMatchObject({ spent_usd: QUERY_USD, reserved_usd: 0, status: 'exceeded' });
    // Both refusals are in the audit log and its CSV: what was asked and why it was not answered, nothing spent.
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.total).toBe(3);
    const [last, beforeLast, first] = activity.body.activity;
    for (const entry of [last, beforeLast]) {
      expect(entry).toMatchObject({ query: 'How much?', error: refused.body.error, cost_usd: 0, tools_called: [], conversation_id: null });
    }
    expect(first).toMatchObject({ query: 'How much?', error: null });
    const csv = await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`, { cookie: admin.cookie });
    expect(csv.text.split('\n').filter((line) => line.includes('budget exceeded'))).toHaveLength(2);
  });

  it('admits exactly as many of 12 parallel queries as the budget has room for a round each, and settles each to its cost', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    await createBudget(admin.cookie, { scope: 'org', period: 'month', limit_usd: 0.2 });
    // The model answers slowly: every query is admitted or refused before any settles.
    model.handle(() => ({ ...textReply('an answer', USAGE), delayMs: 300 }));
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(admin.cookie, workspaceId)));
    const statuses = answers.map((answer) => answer.status).sort();
    // $0.194 of room after the first query: two rounds of about $0.066, not three.
    expect(statuses).toEqual([...Array(2).fill(200), ...Array(10).fill(402)]);
    const view = await budgetView(admin.cookie);
    expect(view.spent_usd).toBeCloseTo(3 * QUERY_USD, 9);
    expect(view.reserved_usd).toBe(0);
    expect(view.status).toBe('exceeded');
    expect(model.requests).toHaveLength(3);
  });

  it('audit 3 (budgets overshoot): 20 parallel questions far dearer than the average spend no more than the budget', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    await createBudget(admin.cookie, { scope: 'org', period: 'month', limit_usd: 1 });
    // Each question is 30 000 characters (about 8 600 tokens) and its answer 4 000 tokens: about $0.086,
    // 14 times the workspace's average of $0.006, which is all an estimate by the average held.
    model.handle(counted(4000));
    const question = `${'Summarise the incident report, please. '.repeat(750)}`.slice(0, 30_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: admin.cookie, body: { query: question } }),
      ),
    );
    const answered = answers.filter((answer) => answer.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(20 - answered.length);
    const view = await budgetView(admin.cookie);
    expect(view.spent_usd).toBeLessThanOrEqual(1);
    expect(view.spent_usd).toBeCloseTo(QUERY_USD + answered.reduce((sum, answer) => sum + answer.body.cost_usd, 0), 6);
    expect(answered[0]?.body.cost_usd).toBeGreaterThan(10 * QUERY_USD);
    expect(view.reserved_usd).toBe(0);
  });

  it('audit 3 (budgets overshoot): a tool loop stops before a model round its budget has no room for, saying so', async () => {
    const admin = await t.signUp();
    names += 1;
    const workspace = await t.createWorkspace(admin.cookie, { name: `Budgeted ${names}` });
    await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
    await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 0.1 });
    model.reset();
    // The first round ($0.063) fits; the second would need $0.063 plus its own bound (~$0.07).
    model.reply(toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }], { input_tokens: 1000, output_tokens: 4000 }));
    model.handle(() => textReply('never asked', USAGE));
    const stopped = await ask(admin.cookie, workspace.id);
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body.error).toMatch(
      /^budget exceeded: org ".+" spent \$0\.063 of \$0\.1 this day; resets .+ \(the answer stopped before the model's next round\)$/,
    );
    expect(stopped.body.tools_called).toEqual(['search_docs']);
    expect(model.requests).toHaveLength(1);
    expect(await budgetView(admin.cookie)).toMatchObject({ spent_usd: 0.063, reserved_usd: 0, status: 'exceeded' });
  });

  it('covers a user and an api key only for their own queries', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    const member = await t.addMember(admin.cookie);
    // Room for one round of the member's, then $0.064 left: not another.
    await createBudget(admin.cookie, { scope: 'user', scope_id: member.user.id, period: 'day', limit_usd: 0.07 });
    expect((await ask(member.cookie, workspaceId)).status).toBe(200);
    expect((await ask(member.cookie, workspaceId)).status).toBe(402);
    expect((await ask(admin.cookie, workspaceId)).status).toBe(200);
    const connected = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'api', workspace_id: workspaceId, credentials: {} },
    });
    expect(connected.status, connected.text).toBe(201);
    await createBudget(admin.cookie, { scope: 'consumer', scope_id: connected.body.id, period: 'day', limit_usd: 0.07 });
    const byKey = () =>
      t.request('POST', `/api/workspaces/${workspaceId}/query`, {
        headers: { authorization: `Bearer ${connected.body.api_key}` },
        body: { query: 'With my key' },
      });
    expect((await byKey()).status).toBe(200);
    const refused = await byKey();
    expect(refused.status).toBe(402);
    expect(refused.body.budget.scope).toBe('consumer');
  });

  it('defect (budget made mid-period): counts what its scope spent this period before it was made', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    const member = await t.addMember(admin.cookie);
    expect((await ask(member.cookie, workspaceId)).status).toBe(200);
    const connected = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'api', workspace_id: workspaceId, credentials: {} },
    });
    const byKey = { authorization: `Bearer ${connected.body.api_key}` };
    for (let index = 0; index < 2; index += 1) {
      const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { headers: byKey, body: { query: 'With my key' } });
      expect(answer.status, answer.text).toBe(200);
    }
    const made = async (body: Record<string, unknown>) => {
      const created = await createBudget(admin.cookie, { period: 'month', limit_usd: 5, ...body });
      expect(created.status, created.text).toBe(201);
      return created.body.budget.spent_usd;
    };
    // The organisation and the workspace: four queries; the member: one; the key: two.
    expect(await made({ scope: 'org' })).toBeCloseTo(4 * QUERY_USD, 9);
    expect(await made({ scope: 'workspace', scope_id: workspaceId })).toBeCloseTo(4 * QUERY_USD, 9);
    expect(await made({ scope: 'user', scope_id: member.user.id })).toBeCloseTo(QUERY_USD, 9);
    expect(await made({ scope: 'consumer', scope_id: connected.body.id })).toBeCloseTo(2 * QUERY_USD, 9);
    // A day budget counts today only: tomorrow it starts from nothing.
    expect(await made({ scope: 'org', period: 'day' })).toBeCloseTo(4 * QUERY_USD, 9);
    t.clock.advance(86_400_000);
    expect((await t.request('GET', '/api/org/budgets', { cookie: admin.cookie })).body.budgets.at(-1)).toMatchObject({ spent_usd: 0 });
    t.clock.advance(-86_400_000);
  });

  it('defect (whole cents): accepts every amount in cents, such as 0.07 and 1.15, and keeps it exact', async () => {
    const admin = await t.signUp();
    for (const [period, limit] of [
      ['day', 0.07],
      ['month', 1.15],
    ] as const) {
      const created = await createBudget(admin.cookie, { scope: 'org', period, limit_usd: limit });
      expect(created.status, created.text).toBe(201);
      expect(created.body.budget.limit_usd).toBe(limit);
    }
    const budgets = (await t.request('GET', '/api/org/budgets', { cookie: admin.cookie })).body.budgets;
    const changed = await t.request('PUT', `/api/org/budgets/${budgets[0].id}`, { cookie: admin.cookie, body: { limit_usd: 19.99 } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.budget.limit_usd).toBe(19.99);
    for (const limit of [0.001, 1.155, 0.0701]) {
      const refused = await t.request('PUT', `/api/org/budgets/${budgets[0].id}`, { cookie: admin.cookie, body: { limit_usd: limit } });
      expect(refused.status, String(limit)).toBe(400);
      expect(refused.body.details[0]).toMatchObject({ path: 'limit_usd', message: 'at most 2 decimals (cents)' });
    }
  });
});

describe('alerts', () => {
  it('posts each threshold crossed once a period to the alerts webhook', async () => {
    const { admin, workspaceId } = await orgWithHistory();
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hooks`;
    const set = await t.request('PUT', '/api/org/settings/alerts_webhook_url', { cookie: admin.cookie, body: { value: url } });
    expect(set.status, set.text).toBe(200);
    const bad = await t.request('PUT', '/api/org/settings/alerts_webhook_url', { cookie: admin.cookie, body: { value: 'ftp://x' } });
    expect(bad.status).toBe(400);
    await createBudget(admin.cookie, { scope: 'workspace', scope_id: workspaceId, period: 'day', limit_usd: 0.2, alert_percent: [50] });
    // $0.033 a query: $0.006 + 3 × $0.033 = $0.105 crosses 50% once; each had room for a round.
    model.handle(() => textReply('an answer', { input_tokens: 1000, output_tokens: 2000 }));
    for (let index = 0; index < 3; index += 1) expect((await ask(admin.cookie, workspaceId)).status).toBe(200);
    await t.runner.idle();
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({
      type: 'budget_alert',
      percent: 50,
      budget: { scope: 'workspace', scope_id: workspaceId, limit_usd: 0.2 },
    });
    expect((hooks[0] as { budget: { spent_usd: number } }).budget.spent_usd).toBeGreaterThanOrEqual(0.1);
  });
});

describe('approvals', () => {
  it('holds a decision to the budget: 402 and nothing decided when it has no room, decided once it has', async () => {
    const admin = await t.signUp();
    names += 1;
    const workspace = await t.createWorkspace(admin.cookie, { name: `Budgeted ${names}` });
    await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
    const approval = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
    expect((await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { approval } })).status).toBe(200);
    const budget = await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 0.1 });
    model.reset();
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'Broken' } }], { input_tokens: 1000, output_tokens: 4000 }));
    const paused = await ask(admin.cookie, workspace.id);
    expect(paused.body.pending_approval, paused.text).toBeTruthy();
    // The paused query's first part ($0.063) is spent: $0.037 of room is less than another round's bound.
    const decide = () =>
      t.request('POST', `/api/workspaces/${workspace.id}/approvals/${paused.body.pending_approval.id}`, {
        cookie: admin.cookie,
        body: { decision: 'approve' },
      });
    const refused = await decide();
    expect(refused.status, refused.text).toBe(402);
    const listed = await t.request('GET', `/api/workspaces/${workspace.id}/approvals?status=pending`, { cookie: admin.cookie });
    expect(listed.body.total).toBe(1);
    const raised = await t.request('PUT', `/api/org/budgets/${budget.body.budget.id}`, { cookie: admin.cookie, body: { limit_usd: 1 } });
    expect(raised.body.budget.status).toBe('ok');
    model.handle(() => textReply('Opened.', USAGE));
    const decided = await decide();
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.answer).toBe('Opened.');
  });
});

describe('evaluations', () => {
  /** Runs a one-case evaluation of the workspace to its end; answers the case's result. */
  async function runCase(cookie: string, workspaceId: string, evalCase: Record<string, unknown>) {
    const created = await t.request('POST', `/api/workspaces/${workspaceId}/evals`, {
      cookie,
      body: { name: 'Budgeted', cases: [evalCase] },
    });
    expect(created.status, created.text).toBe(201);
    const started = await t.request('POST', `/api/workspaces/${workspaceId}/evals/${created.body.eval.id}/runs`, { cookie, body: {} });
    expect(started.status, started.text).toBe(202);
    await t.runner.idle();
    const run = await t.request('GET', `/api/workspaces/${workspaceId}/evals/${created.body.eval.id}/runs/${started.body.run.id}`, {
      cookie,
    });
    expect(run.body.run.status, run.text).toBe('done');
    return run.body.run.results[0];
  }

  it('audit (budgets overshoot): the judge of a case is not called past the room its budget has', async () => {
    const admin = await t.signUp();
    names += 1;
    const workspace = await t.createWorkspace(admin.cookie, { name: `Budgeted ${names}` });
    await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 0.07 });
    model.reset();
    // The answer ($0.063) fits the round's bound (~$0.066); a judge of it ($0.015) would pass the $0.07.
    model.reply(textReply('A long answer.', { input_tokens: 1000, output_tokens: 4000 }));
    model.handle(() =>
      toolUseReply([{ name: 'grade_answer', input: { passed: true, score: 1, reason: 'Fine.' } }], {
        input_tokens: 2000,
        output_tokens: 600,
      }),
    );
    const result = await runCase(admin.cookie, workspace.id, {
      id: 'judged',
      question: 'Tell me all of it',
      expect: { judge: 'Complete.' },
    });
    expect(await budgetView(admin.cookie)).toMatchObject({ spent_usd: 0.063, reserved_usd: 0, status: 'exceeded' });
    expect(model.requests).toHaveLength(1);
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual([
      expect.stringMatching(/^the judge could not grade it: budget exceeded: org ".+" spent \$0\.063 of \$0\.07 this day/),
    ]);
  });

  it('fails a case its budget has no room for without asking the model', async () => {
    const admin = await t.signUp();
    names += 1;
    const workspace = await t.createWorkspace(admin.cookie, { name: `Budgeted ${names}` });
    await createBudget(admin.cookie, { scope: 'org', period: 'day', limit_usd: 0.05 });
    model.reset();
    const result = await runCase(admin.cookie, workspace.id, { id: 'refused', question: 'Anything?', expect: { contains: ['x'] } });
    expect(result).toMatchObject({ passed: false, cost_usd: 0 });
    expect(result.failures).toEqual([expect.stringMatching(/^budget exceeded: org ".+" spent \$0 of \$0\.05 this day/)]);
    expect(model.requests).toHaveLength(0);
  });
});
