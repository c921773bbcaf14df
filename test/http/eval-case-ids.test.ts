import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';

/*
 * Evaluation cases by id (issue 47): a case may carry an `id` (1–64 letters, digits, `_`, `.`, `-`;
 * unique in its evaluation: 400 `{ error, details }` otherwise), and a run's regressions match cases
 * by id, so a case inserted before others reports none that are not; a case without an id is
 * `case-<n>` by its place among the cases without one, and is compared by that place.
 */

let t: TestContext;
let model: FakeModel;
/** What the fake model answers to a question containing each key. */
const answers = new Map<string, string>();

const questionOf = (request: ModelRequestRecord) =>
  JSON.stringify(request.body.messages.find((message) => message.role === 'user')?.content);

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
  answers.clear();
  answers.set('ship', 'It ships on Monday.');
  answers.set('refund', 'Order 2 is refunded.');
  answers.set('cancel', 'I cannot do that.');
  model.handle((request) => {
    const question = questionOf(request);
    const key = [...answers.keys()].find((word) => question.includes(word));
    return textReply(key ? (answers.get(key) ?? '') : 'I do not know.');
  });
});

const SHIP = { question: 'When does order 1 ship?', expect: { contains: ['Monday'] } };
const REFUND = { question: 'Please refund order 2', expect: { contains: ['refunded'] } };
const CANCEL = { question: 'Please cancel order 3', expect: { contains: ['cancelled'] } };

async function evaluation(cases: unknown[]) {
  const { cookie, workspaceId } = await t.adminWithWorkspace('Case ids');
  const created = await t.request('POST', `/api/workspaces/${workspaceId}/evals`, { cookie, body: { name: 'Orders', cases } });
  expect(created.status, created.text).toBe(201);
  const evalId = created.body.eval.id as string;
  const path = `/api/workspaces/${workspaceId}/evals/${evalId}`;
  const run = async () => {
    const started = await t.request('POST', `${path}/runs`, { cookie, body: {} });
    expect(started.status, started.text).toBe(202);
    await t.runner.idle();
    return (await t.request('GET', `${path}/runs/${started.body.run.id}`, { cookie })).body.run;
  };
  const put = (body: unknown) => t.request('PUT', path, { cookie, body });
  return { cookie, workspaceId, path, created: created.body.eval, run, put };
}

describe('evaluation case ids', () => {
  it('keeps the ids given, and names a case without one case-<n> by its place among those without', async () => {
    const { created } = await evaluation([{ id: 'ship', ...SHIP }, REFUND, { id: 'case-2', ...CANCEL }, REFUND]);
    expect(created.cases.map((item: { id: string }) => item.id)).toEqual(['ship', 'case-1', 'case-2', 'case-3']);
  });

  it('reports no regression when a case is inserted before the others, since cases are matched by id', async () => {
    const { run, put } = await evaluation([
      { id: 'ship', ...SHIP },
      { id: 'refund', ...REFUND },
    ]);
    const first = await run();
    expect(first).toMatchObject({ status: 'done', passed: 2, failed: 0 });

    const inserted = await put({
      cases: [
        { id: 'cancel', ...CANCEL },
        { id: 'ship', ...SHIP },
        { id: 'refund', ...REFUND },
      ],
    });
    expect(inserted.status, inserted.text).toBe(200);
    const second = await run();
    expect(second).toMatchObject({ compared_to: first.id, passed: 2, failed: 1, regressions: [] });
    expect(second.results.map((result: { case_id: string; passed: boolean }) => [result.case_id, result.passed])).toEqual([
      ['cancel', false],
      ['ship', true],
      ['refund', true],
    ]);

    // A case that passed and fails now is one, by its id, wherever it stands.
    answers.set('refund', 'Refunds take a while.');
    const third = await run();
    expect(third).toMatchObject({ compared_to: second.id, regressions: ['refund'] });
  });

  it('compares cases without ids by their place: inserting one before them shifts them', async () => {
    const { run, put } = await evaluation([SHIP, REFUND]);
    const first = await run();
    expect(first.results.map((result: { case_id: string }) => result.case_id)).toEqual(['case-1', 'case-2']);
    expect((await put({ cases: [CANCEL, SHIP, REFUND] })).status).toBe(200);
    const second = await run();
    // case-1 is now the cancel question, which fails: compared by place, it "regressed".
    expect(second).toMatchObject({ compared_to: first.id, regressions: ['case-1'] });
  });

  it('refuses an id used twice, or of other characters, with 400 { error, details } naming the case', async () => {
    const { put, cookie, workspaceId } = await evaluation([{ id: 'ship', ...SHIP }]);
    const refusals: [unknown[], string, RegExp][] = [
      [
        [
          { id: 'ship', ...SHIP },
          { id: 'ship', ...REFUND },
        ],
        'cases.1.id',
        /case id ship is used twice/,
      ],
      [[{ id: 'has space', ...SHIP }], 'cases.0.id', /letters, digits/],
      [[SHIP, { id: 'order/2', ...REFUND }], 'cases.1.id', /letters, digits/],
      [[{ id: '', ...SHIP }], 'cases.0.id', /letters, digits/],
      [[{ id: 'x'.repeat(65), ...SHIP }], 'cases.0.id', /letters, digits/],
      [[{ id: 7, ...SHIP }], 'cases.0.id', /./],
    ];
    for (const [cases, path, message] of refusals) {
      for (const response of [
        await put({ cases }),
        await t.request('POST', `/api/workspaces/${workspaceId}/evals`, { cookie, body: { name: 'Refused', cases } }),
      ]) {
        expect(response.status, JSON.stringify(cases)).toBe(400);
        expect(response.body.error).toEqual(expect.any(String));
        const detail = response.body.details.find((entry: { path: string }) => entry.path === path);
        expect(detail?.message, `${JSON.stringify(cases)}: ${response.text}`).toMatch(message);
      }
    }
  });
});
