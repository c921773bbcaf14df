import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getJob, messageOf, type JobItem } from '../../shared/jobs/ledger.js';
import { evaluationKey } from '../../shared/evals/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * What bounds an organisation's evaluations (audit 5): evaluations per workspace, cases under way
 * per organisation, and the organisation's query rate, which evaluation cases count against (a
 * case over it waits for the next minute, it does not fail). Queries are limited to 3 a minute here.
 */

let t: TestContext;
let model: FakeModel;
const QUERIES_PER_MINUTE = 3;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({
    env: {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      MODEL_MAX_RETRIES: '0',
      JOB_RETRY_BASE_MS: '1',
      QUERY_RATE_LIMIT_PER_MINUTE: String(QUERIES_PER_MINUTE),
    },
  });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(() => textReply('answered'));
});

const casesOf = (count: number, prefix = 'case') =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    question: `question ${index}?`,
    expect: { contains: ['answered'] },
  }));

async function createEval(cookie: string, workspaceId: string, name: string, cases: unknown[]) {
  return t.request('POST', `/api/workspaces/${workspaceId}/evals`, { cookie, body: { name, cases } });
}

async function evalOf(cookie: string, workspaceId: string, name: string, cases: unknown[]): Promise<string> {
  const created = await createEval(cookie, workspaceId, name, cases);
  expect(created.status, created.text).toBe(201);
  return created.body.eval.id;
}

const startRun = (cookie: string, workspaceId: string, evalId: string) =>
  t.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie, body: {} });

/** The ledger entries of a run's case jobs. */
async function caseJobs(runId: string, count: number): Promise<(JobItem | undefined)[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => getJob(t.deps, `eval-${runId}-${index}`)));
}

describe('evaluation limits (audit 5)', () => {
  it('audit 5 (cases do not count against the query rate): cases count as queries, and a case over the rate waits for the next minute', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Rated');
    const evalId = await evalOf(cookie, workspaceId, 'Five', casesOf(5));
    const started = await startRun(cookie, workspaceId, evalId);
    expect(started.status, started.text).toBe(202);
    const runId = started.body.run.id as string;
    const runPath = `/api/workspaces/${workspaceId}/evals/${evalId}/runs/${runId}`;
    await t.runner.idle();

    // Three cases were this minute's queries; the other two wait, neither failed nor run.
    const halfway = (await t.request('GET', runPath, { cookie })).body.run;
    expect(halfway).toMatchObject({ status: 'running', passed: QUERIES_PER_MINUTE, failed: 0 });
    const waiting = (await caseJobs(runId, 5)).filter((job) => job?.state === 'delayed') as JobItem[];
    expect(waiting).toHaveLength(5 - QUERIES_PER_MINUTE);
    for (const job of waiting) {
      expect(job.attempts).toBe(0);
      expect(job.last_error).toMatch(/too many queries/);
    }
    const query = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'And me?' } });
    expect(query.status, query.text).toBe(429);

    // The next minute: the waiting cases run (their timers are real time, so they are sent now).
    t.clock.advance(60_000);
    for (const job of waiting) await t.runner.redeliver(messageOf(job));
    await t.runner.idle();
    const done = (await t.request('GET', runPath, { cookie })).body.run;
    expect(done).toMatchObject({ status: 'done', passed: 5, failed: 0, score: 1 });
  });

  it('audit 5 (evaluations per organisation are unbounded): a workspace holds at most 50, also when created at once', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Many');
    const one = casesOf(1);
    for (let made = 0; made < 45; made += 15) {
      const batch = await Promise.all(Array.from({ length: 15 }, (_, index) => createEval(cookie, workspaceId, `E${made + index}`, one)));
      expect(batch.map((response) => response.status)).toEqual(Array(15).fill(201));
    }
    const racing = await Promise.all(Array.from({ length: 10 }, (_, index) => createEval(cookie, workspaceId, `R${index}`, one)));
    expect(racing.map((response) => response.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    const refused = racing.find((response) => response.status === 409);
    expect(refused?.body.error).toBe('a workspace may have at most 50 evaluations; delete one first');
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/evals`, { cookie });
    expect(listed.body.evals).toHaveLength(50);

    // A deleted evaluation makes room for one more, and only one.
    const deleted = await t.request('DELETE', `/api/workspaces/${workspaceId}/evals/${listed.body.evals[0].id}`, { cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await createEval(cookie, workspaceId, 'After', one)).status).toBe(201);
    expect((await createEval(cookie, workspaceId, 'Past', one)).status).toBe(409);
    // Another workspace of the organisation has its own 50.
    const second = await t.createWorkspace(cookie, { name: `Second ${t.uniqueEmail('ws')}` });
    expect((await createEval(cookie, second.id, 'Elsewhere', one)).status).toBe(201);
  });
});

describe('cases under way per organisation (audit 5)', () => {
  let u: TestContext;
  let caseDelayMs = 2_000;
  beforeAll(async () => {
    u = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  });
  afterAll(async () => {
    await u.close();
  });

  it('audit 5 (queued cases per organisation are unbounded): a run past 400 cases under way is refused 429, and runs that died give their room back', async () => {
    // The first cases take a while with the model, so the others wait in the queue.
    model.handle(() => ({ ...textReply('answered'), delayMs: caseDelayMs }));
    const { cookie, orgId, workspaceId } = await u.adminWithWorkspace('Bulk');
    const create = async (name: string, cases: unknown[]) => {
      const created = await u.request('POST', `/api/workspaces/${workspaceId}/evals`, { cookie, body: { name, cases } });
      expect(created.status, created.text).toBe(201);
      return created.body.eval.id as string;
    };
    const start = (evalId: string) => u.request('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, { cookie, body: {} });
    const [first, second, third] = await Promise.all([
      create('First', casesOf(200, 'a')),
      create('Second', casesOf(200, 'b')),
      create('Third', casesOf(1)),
    ]);
    const firstRun = await start(first as string);
    expect(firstRun.status, firstRun.text).toBe(202);
    expect((await start(second as string)).status).toBe(202);
    const refused = await start(third as string);
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body.error).toBe(
      'too many evaluation cases under way in this organisation: 400 of at most 400, and this run has 1; try again when a run has finished',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refused start left its evaluation free: nothing of it is under way, and it may start later.
    expect((await u.request('GET', `/api/workspaces/${workspaceId}/evals/${third}/runs`, { cookie })).body.runs).toEqual([]);
    expect(await u.deps.table.get(evaluationKey(orgId, workspaceId, third as string), true)).not.toHaveProperty('active_run');

    // Drained, the waiting cases never run, and their runs can never end.
    const drained = await u.request('POST', '/api/org/queues/evals/drain', { cookie });
    expect(drained.status, drained.text).toBe(200);
    expect(drained.body.removed).toBeGreaterThan(200);
    caseDelayMs = 0;
    await u.runner.idle();
    // A run whose cases are gone is found when the room is needed: failed, and its room given back.
    u.clock.advance(2 * 60_000);
    const after = await start(third as string);
    expect(after.status, after.text).toBe(202);
    const runs = (await u.request('GET', `/api/workspaces/${workspaceId}/evals/${first}/runs`, { cookie })).body.runs;
    expect(runs).toMatchObject([{ id: firstRun.body.run.id, status: 'failed' }]);
    // And its evaluation is free to run again.
    expect(await u.deps.table.get(evaluationKey(orgId, workspaceId, first as string), true)).not.toHaveProperty('active_run');
    await u.runner.idle();
  }, 60_000);
});
