import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startFakeModel, textReply } from '../support/fake-model.js';
import { startRuntimeProcess } from '../support/runtime-process.js';

/*
 * An evaluation's run survives the local runtime being killed mid-run: the cases it was running
 * and the ones still queued run after the restart (the job ledger sends them again), each case is
 * counted once, and the run ends.
 */

const CASES = 8;

describe('an evaluation run across a restart of the local runtime', () => {
  it('finishes after a kill -9 mid-run: every case run and counted once', async () => {
    const model = await startFakeModel();
    let slow = true;
    model.handle(() => ({ ...textReply('ok, answered'), delayMs: slow ? 1_500 : 10 }));
    const dataDir = await mkdtemp(join(tmpdir(), 'wap-eval-restart-'));
    const env = {
      DATA_DIR: dataDir,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      JOB_RETRY_BASE_MS: '50',
      MODEL_MAX_RETRIES: '0',
    };
    const first = startRuntimeProcess(env);
    let second: ReturnType<typeof startRuntimeProcess> | undefined;
    try {
      let base = await first.url;
      let cookie = '';
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, body: (await response.json()) as any, headers: response.headers };
      };
      const signup = await call('POST', '/api/signup', { name: 'Evaluator', email: 'evaluator@example.com', password: 'kill -9 survives' });
      expect(signup.status).toBe(201);
      cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const workspaceId = (await call('POST', '/api/workspaces', { name: 'Evaluated' })).body.id as string;
      const cases = Array.from({ length: CASES }, (_, index) => ({
        id: `c${index}`,
        question: `question ${index}?`,
        expect: { contains: ['answered'] },
      }));
      const evalId = (await call('POST', `/api/workspaces/${workspaceId}/evals`, { name: 'Restart', cases })).body.eval.id as string;
      const started = await call('POST', `/api/workspaces/${workspaceId}/evals/${evalId}/runs`, {});
      expect(started.status).toBe(202);
      const runPath = `/api/workspaces/${workspaceId}/evals/${evalId}/runs/${started.body.run.id}`;
      // Some cases are with the model (slow), the others queued: kill the process.
      await vi.waitFor(() => expect(model.requests.length).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 50 });
      const before = (await call('GET', runPath)).body.run;
      expect(before.status).toBe('running');
      expect(before.passed + before.failed).toBeLessThan(CASES);
      first.child.kill('SIGKILL');
      await first.exited;

      slow = false;
      second = startRuntimeProcess(env);
      base = await second.url;
      const run = await vi.waitFor(
        async () => {
          const current = (await call('GET', runPath)).body.run;
          expect(current.status).toBe('done');
          return current;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(run).toMatchObject({ passed: CASES, failed: 0, score: 1 });
      expect(run.results.map((result: { case_id: string }) => result.case_id)).toEqual(cases.map((item) => item.id));
    } finally {
      for (const runtime of [first, second]) {
        if (runtime && runtime.child.exitCode === null && runtime.child.signalCode === null) {
          runtime.child.kill('SIGTERM');
          await runtime.exited;
        }
      }
      await model.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
