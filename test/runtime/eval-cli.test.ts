import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { FAST_SCRYPT } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';
import { RecordingLogger } from '../support/logger.js';
import { signUpOver } from '../support/signup.js';

/*
 * `npm run eval` (scripts/eval.ts) against the local runtime in this process, with the fake model
 * (which answers "ok"): an evaluation of one case that passes and one that fails, run by the CLI
 * as CI runs it, a child process with the key in WAP_API_KEY; its exit codes and what it prints.
 */

let model: FakeModel;
let runtime: LocalRuntime;
let workspaceId: string;
let evalId: string;
let apiKey: string;

async function call(method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed = (await response.json()) as any;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
  return parsed;
}

/** Runs the CLI in a child process (asynchronously: the runtime it calls is in this one). */
function runCli(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/eval.ts', ...args], {
    env: { ...process.env, WAP_API_KEY: undefined, WAP_URL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const evalArgs = () => ['--workspace', workspaceId, '--eval', evalId];
const withKey = () => ({ WAP_API_KEY: apiKey, WAP_URL: runtime.url });

beforeAll(async () => {
  model = await startFakeModel();
  const config = parseConfig(
    {
      DATA_DIR: 'memory',
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'eval-cli-key',
      MODEL_MAX_RETRIES: '0',
      JOB_RETRY_BASE_MS: '0',
    },
    'local',
  );
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
  const cookie = await signUpOver(runtime.url, 'eval-cli@example.com');
  workspaceId = (await call('POST', '/api/workspaces', cookie, { name: 'Evaluated support' })).id;
  const created = await call('POST', `/api/workspaces/${workspaceId}/evals`, cookie, {
    name: 'CLI basics',
    cases: [
      { id: 'says-ok', question: 'Are you there?', expect: { contains: ['ok'] } },
      { id: 'names-date', question: 'When does my parcel arrive?', expect: { contains: ['Thursday'] } },
    ],
  });
  evalId = created.eval.id;
  const consumer = await call('POST', '/api/connectors/consumer', cookie, { type: 'api', workspace_id: workspaceId, credentials: {} });
  apiKey = consumer.api_key;
});

afterAll(async () => {
  await runtime?.stop();
  await model?.stop();
});

describe('npm run eval', () => {
  it('exits 1 below --fail-under, naming the failed case and its reason, and 0 at or above it', async () => {
    const below = await runCli([...evalArgs(), '--fail-under', '0.9'], withKey());
    expect(below.code, below.stderr).toBe(1);
    expect(below.stdout).toContain('score: 0.5 (fail under 0.9) FAIL');
    expect(below.stdout).toContain('cases: 1 passed, 1 failed');
    expect(below.stdout).toMatch(/names-date\n\s+- the answer does not contain "Thursday"/);
    expect(below.stdout).not.toMatch(/^\s+says-ok/m);
    expect(below.stderr).toMatch(/\d\/2 cases, \d passed/);

    const above = await runCli([...evalArgs(), '--fail-under', '0.5', '--model', 'fast'], withKey());
    expect(above.code, above.stderr).toBe(0);
    expect(above.stdout).toContain('score: 0.5 (fail under 0.5) PASS');
    expect(above.stdout).toContain('overrides (this run only): model fast');
    // The second run is compared with the first: the same case failed both times, so none regressed.
    expect(above.stdout).toMatch(/regressions against run_\S+: none/);
  }, 60_000);

  it('exits 2 with a clear message without WAP_API_KEY, with a wrong key, and on a bad flag', async () => {
    const keyless = await runCli(evalArgs(), { WAP_URL: runtime.url });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('WAP_API_KEY is not set');

    const wrong = await runCli(evalArgs(), { WAP_API_KEY: 'wap_api_not-a-real-key', WAP_URL: runtime.url });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('the API key was refused (401: invalid or revoked API key); check WAP_API_KEY');

    const missing = await runCli(['--workspace', workspaceId, '--eval', 'eval_missing'], withKey());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('not found (404: evaluation eval_missing not found)');

    const bad = await runCli([...evalArgs(), '--model', 'huge'], withKey());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--model must be one of fast, balanced, powerful');
  }, 60_000);

  it('exits 3 when the run does not finish in time, and a second run meanwhile is refused with 2, saying to wait', async () => {
    model.handle(() => ({ ...textReply('ok'), delayMs: 3_000 }));
    try {
      const slow = await runCli([...evalArgs(), '--timeout-seconds', '1'], withKey());
      expect(slow.code, slow.stderr).toBe(3);
      expect(slow.stderr).toMatch(/run (run_\S+) did not finish within 1 s .*; it goes on in the service/);
      const runId = /run (run_\S+) did not finish/.exec(slow.stderr)?.[1];

      const busy = await runCli(evalArgs(), withKey());
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain('a run of this evaluation is already under way (409:');
      expect(busy.stderr).toContain('wait for it to finish, then run again');

      // Let the slow run end before the runtime stops.
      const path = `/api/workspaces/${workspaceId}/evals/${evalId}/runs/${runId}`;
      for (let polls = 0; polls < 100; polls += 1) {
        const { run } = await (await fetch(`${runtime.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json();
        if (run.status === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      model.handle(undefined);
    }
  }, 60_000);
});
