import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJob } from '../../shared/jobs/ledger.js';
import { isRunKey, runKey } from '../../shared/evals/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * The case job of an evaluation run reads its run first. A failed read is an error of the job, never
 * "no run": it is tried again (evals.test.ts, one failed read), and once its attempts are used up
 * the case fails with the read's error as its reason, so the run still ends.
 */

let t: TestContext;

beforeAll(async () => {
  // Retries a few milliseconds apart: this test uses up every attempt.
  t = await createTestContext({ env: { JOB_RETRY_BASE_MS: '5', ANTHROPIC_API_KEY: 'k' } });
});
afterAll(async () => {
  await t.close();
});

describe('evalCaseHandler', () => {
  it('fails the case with the read’s error once every attempt failed to read the run, and the run ends', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Evaluated', system_prompt: 'Be helpful.' });
    const evals = `/api/workspaces/${workspace.id}/evals`;
    const body = { name: 'One case', cases: [{ id: 'only', question: 'When does my parcel arrive?', expect: { contains: ['Thursday'] } }] };
    const created = await t.request('POST', evals, { cookie: admin.cookie, body });
    expect(created.status, created.text).toBe(201);
    const evalId = created.body.eval.id as string;
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput'), {
      name: 'ProvisionedThroughputExceededException',
    });
    const maxAttempts = t.deps.config.jobMaxAttempts;
    const get = t.deps.table.get.bind(t.deps.table);
    let failed = 0;
    // Every attempt's read of the run fails; the failure hook's read, after them, succeeds.
    const spy = vi.spyOn(t.deps.table, 'get').mockImplementation(async (key, consistent) => {
      if (failed < maxAttempts && isRunKey(key)) {
        failed += 1;
        throw throttled;
      }
      return get(key, consistent);
    });
    try {
      const started = await t.request('POST', `${evals}/${evalId}/runs`, { cookie: admin.cookie, body: {} });
      expect(started.status, started.text).toBe(202);
      const runId = started.body.run.id as string;
      await vi.waitFor(async () => expect((await get(runKey(evalId, runId), true))?.status).toBe('done'), {
        timeout: 10_000,
        interval: 20,
      });
      expect(failed).toBe(maxAttempts);
      const job = await getJob(t.deps, `eval-${runId}-0`);
      expect(job).toMatchObject({ state: 'failed', attempts: maxAttempts, last_error: throttled.message });
      const run = (await t.request('GET', `${evals}/${evalId}/runs/${runId}`, { cookie: admin.cookie })).body.run;
      expect(run).toMatchObject({ status: 'done', passed: 0, failed: 1 });
      expect(run.results).toEqual([
        expect.objectContaining({ case_id: 'only', passed: false, failures: [`the case could not run: ${throttled.message}`] }),
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
