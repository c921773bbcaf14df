import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * A budget of scope `routine` (issue 50, "Runs"): made for a routine of the organisation (400 for
 * any other id, another organisation's included), covering that routine's runs only, counting what
 * its runs spent this period before it was made, and refusing a run past it as a question is
 * refused (the run fails with the budget's message, without asking the model, and is not retried);
 * the organisation's, workspace's and `run_as` user's budgets still cover a run.
 */

/** A run of the balanced tier ($3 in, $15 out per million) with this usage costs $0.006. */
const USAGE = { input_tokens: 1000, output_tokens: 200 };
const RUN_USD = 0.006;
/**
 * Room for one run (a first round's bound, about $0.065, is held) and not a second ($0.064 left).
 * The same limit the consumer and user budgets are tested with (budgets.test.ts).
 */
const ONE_RUN_USD = 0.07;

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(() => textReply('All quiet.', USAGE));
});

const routinesPath = (workspaceId: string) => `/api/workspaces/${workspaceId}/routines`;

async function createRoutine(cookie: string, workspaceId: string, body: Record<string, unknown> = {}) {
  const response = await t.request('POST', routinesPath(workspaceId), {
    cookie,
    body: { name: 'Nightly check', prompt: 'Check the orders.', trigger: { webhook: true }, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.routine as { id: string; name: string };
}

/** Runs the routine now and waits for its job: the run as listed. */
async function runNow(cookie: string, workspaceId: string, routineId: string) {
  const started = await t.request('POST', `${routinesPath(workspaceId)}/${routineId}/run`, { cookie });
  expect(started.status, started.text).toBe(202);
  await t.runner.idle();
  const runs = await t.request('GET', `${routinesPath(workspaceId)}/${routineId}/runs`, { cookie });
  const run = runs.body.runs.find((candidate: { id: string }) => candidate.id === started.body.run.id);
  expect(run).toBeDefined();
  return run as { status: string; error: string | null; cost_usd: number; finished_at: string | null };
}

async function createBudget(cookie: string, body: Record<string, unknown>) {
  const response = await t.request('POST', '/api/org/budgets', { cookie, body: { period: 'day', ...body } });
  expect(response.status, response.text).toBe(201);
  return response.body.budget as { id: string; spent_usd: number };
}

async function budgetOf(cookie: string, id: string) {
  const listed = await t.request('GET', '/api/org/budgets', { cookie });
  return listed.body.budgets.find((budget: { id: string }) => budget.id === id);
}

describe('a routine budget', () => {
  it("is made for a routine of the organisation, named after it; an unknown id or another organisation's routine is 400 on scope_id", async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routine budgets');
    const routine = await createRoutine(cookie, workspaceId);
    const made = await t.request('POST', '/api/org/budgets', {
      cookie,
      body: { scope: 'routine', scope_id: routine.id, period: 'month', limit_usd: 12.5 },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.budget).toMatchObject({
      scope: 'routine',
      scope_id: routine.id,
      name: 'Nightly check',
      period: 'month',
      limit_usd: 12.5,
      spent_usd: 0,
      status: 'ok',
    });
    const other = await t.adminWithWorkspace('Not theirs');
    const theirs = await createRoutine(other.cookie, other.workspaceId, { name: 'Their routine' });
    const refusals = [];
    for (const scopeId of ['rtn_nobody', theirs.id]) {
      const refused = await t.request('POST', '/api/org/budgets', {
        cookie,
        body: { scope: 'routine', scope_id: scopeId, period: 'day', limit_usd: 5 },
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.details).toEqual([{ path: 'scope_id', message: 'must be a routine of this organisation' }]);
      refusals.push(refused.body.error.replace(scopeId, '<id>'));
    }
    // Another organisation's routine is refused exactly as a missing one: nothing tells it exists.
    expect(refusals[0]).toBe(refusals[1]);
    const missingId = await t.request('POST', '/api/org/budgets', { cookie, body: { scope: 'routine', period: 'day', limit_usd: 5 } });
    expect(missingId.status).toBe(400);
    expect(missingId.body.details.map((detail: { path: string }) => detail.path)).toContain('scope_id');
    // One per routine and period.
    const again = await t.request('POST', '/api/org/budgets', {
      cookie,
      body: { scope: 'routine', scope_id: routine.id, period: 'month', limit_usd: 3 },
    });
    expect(again.status).toBe(409);
    expect((await t.request('GET', '/api/org/budgets', { cookie: other.cookie })).body.budgets).toEqual([]);
  });

  it('counts a run against it, and refuses the run past it: failed with the budget named, the model not asked, not retried', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routine spend');
    const routine = await createRoutine(cookie, workspaceId);
    const sibling = await createRoutine(cookie, workspaceId, { name: 'Other routine' });
    const budget = await createBudget(cookie, { scope: 'routine', scope_id: routine.id, limit_usd: ONE_RUN_USD });

    const first = await runNow(cookie, workspaceId, routine.id);
    expect(first).toMatchObject({ status: 'done', error: null });
    expect(first.cost_usd).toBeCloseTo(RUN_USD, 9);
    expect(await budgetOf(cookie, budget.id)).toMatchObject({ spent_usd: RUN_USD, reserved_usd: 0, status: 'ok' });

    const asked = model.requests.length;
    const refused = await runNow(cookie, workspaceId, routine.id);
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(
      /^budget exceeded: routine "Nightly check" spent \$0\.006 of \$0\.07 this day; resets at 00:00 UTC on .+$/,
    );
    expect(refused.finished_at).not.toBeNull();
    expect(model.requests.length).toBe(asked);
    // The refusal is the run's outcome: its job completed, neither waiting for a retry nor failed.
    const queues = await t.request('GET', '/api/org/queues', { cookie });
    expect(queues.body.queues.find((queue: { name: string }) => queue.name === 'routines')).toMatchObject({ delayed: 0, failed: 0 });
    expect(await budgetOf(cookie, budget.id)).toMatchObject({ spent_usd: RUN_USD, reserved_usd: 0, status: 'exceeded' });

    // It covers its routine only: another routine of the workspace and a question still run.
    expect((await runNow(cookie, workspaceId, sibling.id)).status).toBe('done');
    const question = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'How much?' } });
    expect(question.status, question.text).toBe(200);
    expect(await budgetOf(cookie, budget.id)).toMatchObject({ spent_usd: RUN_USD });
  });

  it('counts what its runs spent this period before it was made (their audit entries name consumer routine:<id>)', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routine before');
    const routine = await createRoutine(cookie, workspaceId);
    const sibling = await createRoutine(cookie, workspaceId, { name: 'Other routine' });
    expect((await runNow(cookie, workspaceId, routine.id)).status).toBe('done');
    expect((await runNow(cookie, workspaceId, routine.id)).status).toBe('done');
    expect((await runNow(cookie, workspaceId, sibling.id)).status).toBe('done');
    const question = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'How much?' } });
    expect(question.status).toBe(200);

    const month = await createBudget(cookie, { scope: 'routine', scope_id: routine.id, period: 'month', limit_usd: 5 });
    expect(month.spent_usd).toBeCloseTo(2 * RUN_USD, 9);
    const day = await createBudget(cookie, { scope: 'routine', scope_id: sibling.id, limit_usd: 5 });
    expect(day.spent_usd).toBeCloseTo(RUN_USD, 9);
  });

  it("leaves the organisation's, the workspace's and the run_as user's budgets covering a run, each refusing it by name", async () => {
    const cases = [
      { scope: 'org', name: /^org ".+"/ },
      { scope: 'workspace', name: /^workspace "Covered 1 / },
      { scope: 'user', name: /^user "Rita Runner"/ },
    ] as const;
    for (const [index, { scope, name }] of cases.entries()) {
      const { cookie, workspaceId, orgId } = await t.adminWithWorkspace(`Covered ${index}`);
      const member = await t.addMember(cookie, { name: 'Rita Runner' });
      const routine = await createRoutine(cookie, workspaceId, { run_as: member.user.id });
      const scopeId = scope === 'org' ? undefined : scope === 'workspace' ? workspaceId : member.user.id;
      await createBudget(cookie, { scope, ...(scopeId ? { scope_id: scopeId } : {}), limit_usd: ONE_RUN_USD });
      expect((await runNow(cookie, workspaceId, routine.id)).status, `${scope} ${orgId}`).toBe('done');
      const refused = await runNow(cookie, workspaceId, routine.id);
      expect(refused.status, scope).toBe('failed');
      expect(refused.error?.replace('budget exceeded: ', ''), scope).toMatch(name);
    }
  });
});
