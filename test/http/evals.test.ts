import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getJob } from '../../shared/jobs/ledger.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { isRunKey, runKey } from '../../shared/evals/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { isStatsRequest, startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { standardTools, startHttpMcpServer, type TestTool } from '../support/mcp-servers.js';

/*
 * Evaluations (CONTRACT.md, "Evaluations"): cases run as jobs through the real loop (the fake
 * Messages API, a real MCP server on loopback), each kind of expectation scored, the judge's forced
 * schema, write tools never run, overrides for the run only, the comparison with the previous run,
 * and who may read and run them.
 */

const ran: string[] = [];
const tools: TestTool[] = standardTools().map((tool) => ({
  ...tool,
  run: (args: Record<string, unknown>) => {
    ran.push(tool.name);
    return tool.run(args);
  },
}));
const helpdesk = await startHttpMcpServer({ name: 'helpdesk', tools });
let t: TestContext;
let model: FakeModel;
/** How the fake model answers the question of each case (a regression flips it). */
let ticketAnswer = 'Ticket created for your login problem.';

const questionOf = (request: ModelRequestRecord) => {
  const first = request.body.messages.find((message) => message.role === 'user');
  return JSON.stringify(first?.content ?? '');
};
const answeringTool = (request: ModelRequestRecord) =>
  JSON.stringify(request.body.messages.at(-1)?.content ?? '').includes('"tool_result"');

function reply(request: ModelRequestRecord) {
  const body = request.body as ModelRequestRecord['body'] & { tool_choice?: { name: string } };
  if (body.tool_choice?.name === 'grade_answer') {
    return toolUseReply([{ name: 'grade_answer', input: { passed: false, score: 0.2, reason: 'Too vague about the date.' } }]);
  }
  const question = questionOf(request);
  if (question.includes('open a ticket')) {
    return answeringTool(request) ? textReply(ticketAnswer) : toolUseReply([{ name: 'create_ticket', input: { title: 'Login' } }]);
  }
  if (question.includes('search the docs')) {
    return answeringTool(request)
      ? textReply('The docs say to restart.')
      : toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }]);
  }
  return textReply('It arrives soon.');
}

const CASES = [
  { id: 'ticket', question: 'Please open a ticket about my login', expect: { tools: ['helpdesk__create_ticket'], contains: ['TICKET'] } },
  { id: 'no-search', question: 'Please search the docs for vpn', expect: { tools_not: ['search_docs'] } },
  { id: 'date', question: 'When does my parcel arrive?', expect: { contains: ['Thursday'], not_contains: ['soon'] } },
  { id: 'judged', question: 'When does my order ship?', expect: { judge: 'Gives a concrete date.' } },
];

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
  await helpdesk.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(reply);
  ran.length = 0;
  ticketAnswer = 'Ticket created for your login problem.';
});

async function workspaceWithEval() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Evaluated ${t.uniqueEmail('ws')}`, system_prompt: 'Be helpful.' });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'helpdesk', url: helpdesk.url });
  const created = await t.request('POST', `/api/workspaces/${workspace.id}/evals`, {
    cookie: admin.cookie,
    body: { name: 'Support basics', cases: CASES },
  });
  expect(created.status, created.text).toBe(201);
  return { admin, workspaceId: workspace.id, evalId: created.body.eval.id as string };
}

async function runToEnd(cookie: string, workspaceId: string, evalId: string, overrides?: Record<string, unknown>) {
  const started = await t.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, {
    cookie,
    body: overrides ? { overrides } : {},
  });
  expect(started.status, started.text).toBe(202);
  expect(started.body.run).toEqual({ id: expect.any(String), status: 'queued' });
  await t.runner.idle();
  const run = await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}/runs/${started.body.run.id}`, { cookie });
  expect(run.status, run.text).toBe(200);
  return run.body.run;
}

describe('evaluations', () => {
  it('scores each kind of expectation, never runs a write tool, and is not counted as queries', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const run = await runToEnd(admin.cookie, workspaceId, evalId);
    expect(run).toMatchObject({ status: 'done', passed: 1, failed: 3, score: 0.25, compared_to: null, regressions: [] });
    const byCase = Object.fromEntries(run.results.map((result: { case_id: string }) => [result.case_id, result]));
    expect(byCase.ticket).toMatchObject({ passed: true, failures: [], tools_called: ['create_ticket'] });
    expect(byCase['no-search']).toMatchObject({ passed: false, failures: ['called search_docs, which it must not'] });
    expect(byCase.date.failures).toEqual(['the answer does not contain "Thursday"', 'the answer contains "soon", which it must not']);
    expect(byCase.judged.failures).toEqual(['the judge failed it (score 0.2): Too vague about the date.']);
    // The write tool was not run (the read tool was), and the model was told so.
    expect(ran).toEqual(['search_docs']);
    const told = model.requests.find((request) =>
      JSON.stringify(request.body.messages).includes('write tools never run during an evaluation'),
    );
    expect(told).toBeDefined();
    // The judge's call is forced to its schema.
    const judged = model.requests.find((request) => (request.body as { tool_choice?: unknown }).tool_choice !== undefined);
    expect((judged?.body as { tool_choice?: unknown } | undefined)?.tool_choice).toEqual({ type: 'tool', name: 'grade_answer' });
    expect(judged?.body.tools?.map((tool) => tool.name)).toEqual(['grade_answer']);
    expect(run.cost_usd).toBeGreaterThan(0);
    const listed = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(listed.body.workspaces[0]).toMatchObject({ id: workspaceId, queries_today: 0 });
    const conversations = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie: admin.cookie });
    expect(conversations.body.total ?? conversations.body.conversations.length).toBe(0);
    const evals = await t.request('GET', `/api/workspaces/${workspaceId}/evals`, { cookie: admin.cookie });
    expect(evals.body.evals).toEqual([
      { id: evalId, name: 'Support basics', case_count: 4, last_run: expect.objectContaining({ id: run.id, score: 0.25 }) },
    ]);
  });

  it('tries overrides in the run only, and names the cases that passed before and fail now', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const first = await runToEnd(admin.cookie, workspaceId, evalId);
    ticketAnswer = 'Done.';
    model.reset();
    model.handle(reply);
    const second = await runToEnd(admin.cookie, workspaceId, evalId, { system_prompt: 'You are terse.', model: 'fast' });
    expect(second).toMatchObject({ compared_to: first.id, regressions: ['ticket'], passed: 0, failed: 4, overrides: { model: 'fast' } });
    const asked = model.requests.filter((request) => !(request.body as { tool_choice?: unknown }).tool_choice);
    expect(asked.length).toBeGreaterThan(0);
    for (const request of asked) {
      expect(request.body.system?.[0]?.text.startsWith('You are terse.')).toBe(true);
      expect(request.body.model).toBe('claude-haiku-4-5');
    }
    const workspace = await t.request('GET', `/api/workspaces/${workspaceId}/summary`, { cookie: admin.cookie });
    expect(workspace.body.workspace).toMatchObject({ system_prompt: 'Be helpful.', model: 'balanced' });
    const runs = await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie: admin.cookie });
    expect(runs.body.runs.map((run: { id: string }) => run.id)).toEqual([second.id, first.id]);
  });

  it('lets members read evaluations and runs but not change or run them; another organisation finds none', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const member = await t.addMember(admin.cookie);
    expect(
      (await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}`, { cookie: member.cookie })).body.eval.cases,
    ).toHaveLength(4);
    for (const [method, path, body] of [
      ['POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, {}],
      ['PUT', `/api/workspaces/${workspaceId}/evals/${evalId}`, { name: 'x' }],
      ['DELETE', `/api/workspaces/${workspaceId}/evals/${evalId}`, undefined],
      ['POST', `/api/workspaces/${workspaceId}/evals`, { name: 'x', cases: CASES }],
    ] as const) {
      expect((await t.request(method, path, { cookie: member.cookie, body })).status, `${method} ${path}`).toBe(403);
    }
    const stranger = await t.signUp();
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/evals`, { cookie: stranger.cookie })).status).toBe(404);
  });

  it('refuses bad cases with 400 naming them, and a second run while one is under way with 409', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const post = (body: unknown) => t.request('POST', `/api/workspaces/${workspaceId}/evals`, { cookie: admin.cookie, body });
    const bad = [
      [{ name: 'x', cases: [] }, 'cases'],
      [{ name: 'x', cases: [{ question: ' ', expect: {} }] }, 'cases.0.question'],
      [
        {
          name: 'x',
          cases: [
            { id: 'a', question: 'q', expect: {} },
            { id: 'a', question: 'q', expect: {} },
          ],
        },
        'cases.1.id',
      ],
      [{ name: 'x', cases: [{ question: 'q', expect: { judge: '' } }] }, 'cases.0.expect.judge'],
    ] as const;
    for (const [body, path] of bad) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    const first = await t.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie: admin.cookie, body: {} });
    expect(first.status).toBe(202);
    const second = await t.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie: admin.cookie, body: {} });
    expect(second.status).toBe(409);
    await t.runner.idle();
  });
});

describe('evaluation runs under attack (audit 5) and the case job (its defect)', () => {
  const startRun = (cookie: string, workspaceId: string, evalId: string) =>
    t.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie, body: {} });
  const runsOf = async (cookie: string, workspaceId: string, evalId: string) =>
    (await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie })).body.runs as {
      id: string;
      status: string;
      passed: number;
      failed: number;
    }[];

  it('audit 5 (evaluation runs race): 10 parallel starts make one run', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const starts = await Promise.all(Array.from({ length: 10 }, () => startRun(admin.cookie, workspaceId, evalId)));
    expect(starts.map((start) => start.status).sort()).toEqual([202, ...Array(9).fill(409)]);
    for (const refused of starts.filter((start) => start.status === 409)) {
      expect(refused.body.error).toMatch(/run \S+ of this evaluation is (still queued|still running|already under way)/);
    }
    await t.runner.idle();
    const runs = await runsOf(admin.cookie, workspaceId, evalId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'done', passed: 1, failed: 3 });
    // The finished run let go of the evaluation: the next start is accepted.
    const next = await startRun(admin.cookie, workspaceId, evalId);
    expect(next.status, next.text).toBe(202);
    await t.runner.idle();
    expect(await runsOf(admin.cookie, workspaceId, evalId)).toHaveLength(2);
  });

  it('audit 5 (evaluation runs starve others): a 200-case run holds no other organisation’s stats job', async () => {
    let caseDelayMs = 40;
    model.reset();
    model.handle((request) => {
      if (isStatsRequest(request)) {
        return toolUseReply([
          {
            name: 'record_conversation_stats',
            input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'query', summary: 'Asked; answered.' },
          },
        ]);
      }
      return questionOf(request).includes('bulk case') ? { ...textReply('ok'), delayMs: caseDelayMs } : textReply('An answer.');
    });
    const busy = await t.signUp();
    const busyWorkspace = await t.createWorkspace(busy.cookie, { name: `Busy ${t.uniqueEmail('ws')}` });
    const cases = Array.from({ length: 200 }, (_, index) => ({ id: `bulk-${index}`, question: `bulk case ${index}`, expect: {} }));
    const created = await t.request('POST', `/api/workspaces/${busyWorkspace.id}/evals`, {
      cookie: busy.cookie,
      body: { name: 'Bulk', cases },
    });
    expect(created.status, created.text).toBe(201);
    const bulkId = created.body.eval.id as string;

    const other = await t.adminWithWorkspace('Other');
    const asked = await t.request('POST', `/api/workspaces/${other.workspaceId}/query`, {
      cookie: other.cookie,
      body: { query: 'Where is it?' },
    });
    expect(asked.status, asked.text).toBe(200);
    const conversationId = asked.body.conversation_id as string;

    const started = await startRun(busy.cookie, busyWorkspace.id, bulkId);
    expect(started.status, started.text).toBe(202);
    const runPath = `/api/workspaces/${busyWorkspace.id}/evals/${bulkId}/runs/${started.body.run.id}`;
    const since = performance.now();
    const closed = await t.request('POST', `/api/workspaces/${other.workspaceId}/conversations/${conversationId}/close`, {
      cookie: other.cookie,
    });
    expect(closed.status, closed.text).toBe(200);
    await vi.waitFor(
      async () => {
        const conversation = await t.deps.table.get(conversationKey(other.orgId, other.workspaceId, conversationId), true);
        expect(conversation?.stats_status).toBe('complete');
      },
      { timeout: 30_000, interval: 20 },
    );
    const waited = performance.now() - since;
    const progress = (await t.request('GET', runPath, { cookie: busy.cookie })).body.run;
    // The other organisation's job did not wait for the run: most of its cases are still to come.
    expect(progress.passed + progress.failed, `stats waited ${Math.round(waited)} ms`).toBeLessThan(100);
    // The rest of the run is not this test's: its cases are drained.
    caseDelayMs = 0;
    expect((await t.request('POST', '/api/org/queues/evals/drain', { cookie: busy.cookie })).status).toBe(200);
    await t.runner.idle();
  }, 60_000);

  it('defect (case job swallows a failed read): a store failure reading the run fails the job, which is retried, and the run completes', async () => {
    const { admin, workspaceId, evalId } = await workspaceWithEval();
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
      name: 'ProvisionedThroughputExceededException',
    });
    const get = t.deps.table.get.bind(t.deps.table);
    let failed = 0;
    const spy = vi.spyOn(t.deps.table, 'get').mockImplementation(async (key, consistent) => {
      if (failed === 0 && isRunKey(key)) {
        failed += 1;
        throw throttled;
      }
      return get(key, consistent);
    });
    try {
      const started = await startRun(admin.cookie, workspaceId, evalId);
      expect(started.status, started.text).toBe(202);
      const runId = started.body.run.id as string;
      // The run is read here past the spy, so that the one failed read is a case job's.
      await vi.waitFor(async () => expect((await get(runKey(evalId, runId), true))?.status).toBe('done'), {
        timeout: 10_000,
        interval: 50,
      });
      const run = (await t.request('GET', `/api/workspaces/${workspaceId}/evals/${evalId}/runs/${runId}`, { cookie: admin.cookie })).body
        .run;
      expect(failed).toBe(1);
      expect(run).toMatchObject({ passed: 1, failed: 3 });
      expect(run.results).toHaveLength(4);
      // The job whose read failed was tried again: one of the run's jobs took two attempts.
      const jobs = await Promise.all([0, 1, 2, 3].map((index) => getJob(t.deps, `eval-${runId}-${index}`)));
      expect(jobs.map((job) => job?.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
      expect(jobs.map((job) => job?.attempts).sort()).toEqual([1, 1, 1, 2]);
    } finally {
      spy.mockRestore();
    }
  });
});
