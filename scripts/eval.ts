/**
 * `npm run eval -- --workspace <id> --eval <id> [--fail-under 1] [--url <base>]
 * [--system-prompt-file <path>] [--model fast|balanced|powerful] [--timeout-seconds 600]`:
 * runs an evaluation of a workspace (docs/evaluations.md) and waits for it, for a CI job.
 *
 * The API key (of an `api` consumer of the workspace) comes from `WAP_API_KEY` only: a flag would
 * show in process lists. The service's address is `--url`, else `WAP_URL`, else
 * http://127.0.0.1:3000. Progress goes to stderr, the summary to stdout.
 *
 * Exit codes: 0 the score is at least `--fail-under` (default 1: every case must pass), 1 it is
 * below, 2 a usage or HTTP error (or the run itself failed), 3 the run did not finish in time.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

const EXIT = { pass: 0, below: 1, error: 2, timeout: 3 } as const;
const MODELS = ['fast', 'balanced', 'powerful'];
const POLL_MS = 1_000;
/** Polls in a row that may fail (network, 5xx) before the CLI gives up. */
const POLL_RETRIES = 3;

const USAGE = `Usage: WAP_API_KEY=<key> npm run eval -- --workspace <id> --eval <id> [options]

  --workspace <id>             the workspace (its api consumer's key is in WAP_API_KEY)
  --eval <id>                  the evaluation to run
  --fail-under <0..1>          lowest score that passes (default 1: every case must pass)
  --url <base>                 the service (default: WAP_URL, else http://127.0.0.1:3000)
  --system-prompt-file <path>  try this system prompt in this run only
  --model <tier>               try this model tier in this run only: ${MODELS.join(', ')}
  --timeout-seconds <n>        give up waiting after this long (default 600; the run goes on)

Exit codes: 0 passed, 1 score below --fail-under, 2 usage or HTTP error, 3 timed out.`;

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.error,
    readonly transient = false,
  ) {
    super(message);
  }
}

interface Options {
  workspace: string;
  evalId: string;
  failUnder: number;
  url: string;
  apiKey: string;
  timeoutMs: number;
  overrides: { system_prompt?: string; model?: string };
}

interface CaseResult {
  case_id: string;
  passed: boolean;
  failures: string[];
}

interface Run {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  overrides: { system_prompt?: string; model?: string };
  passed: number;
  failed: number;
  score: number | null;
  tokens: { input: number; output: number };
  cost_usd: number;
  compared_to: string | null;
  regressions: string[];
  results: CaseResult[];
}

function numberFlag(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || !check(parsed)) throw new CliError(`--${name} ${value} is not valid\n\n${USAGE}`);
  return parsed;
}

function baseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.toString().replace(/\/+$/, '');
  } catch {
    throw new CliError(`${value} is not an http(s) URL (--url or WAP_URL)`);
  }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        workspace: { type: 'string' },
        eval: { type: 'string' },
        'fail-under': { type: 'string' },
        url: { type: 'string' },
        'system-prompt-file': { type: 'string' },
        model: { type: 'string' },
        'timeout-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

async function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Promise<Options | undefined> {
  const flags = parseFlags(argv);
  if (flags.help) return undefined;
  if (!flags.workspace || !flags.eval) throw new CliError(`--workspace and --eval are required\n\n${USAGE}`);
  const apiKey = env.WAP_API_KEY?.trim();
  if (!apiKey) {
    throw new CliError(
      'WAP_API_KEY is not set: put the key of an api consumer of the workspace in it ' +
        `(an admin creates one with POST /api/connectors/consumer {"type":"api","workspace_id":"${flags.workspace}","credentials":{}}; ` +
        'the key is shown once). It is never taken as a flag, so that it does not show in process lists.',
    );
  }
  if (flags.model !== undefined && !MODELS.includes(flags.model)) throw new CliError(`--model must be one of ${MODELS.join(', ')}`);
  const overrides: Options['overrides'] = flags.model ? { model: flags.model } : {};
  if (flags['system-prompt-file'] !== undefined) overrides.system_prompt = await readPrompt(flags['system-prompt-file']);
  return {
    workspace: flags.workspace,
    evalId: flags.eval,
    failUnder: numberFlag(flags['fail-under'], 'fail-under', 1, (n) => n >= 0 && n <= 1),
    url: baseUrl(flags.url ?? env.WAP_URL ?? 'http://127.0.0.1:3000'),
    apiKey,
    timeoutMs: numberFlag(flags['timeout-seconds'], 'timeout-seconds', 600, (n) => n > 0) * 1000,
    overrides,
  };
}

async function readPrompt(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --system-prompt-file ${path}: ${(error as Error).message}`);
  }
}

/** The message of an HTTP error, saying what to do about it. */
function httpError(status: number, error: string, options: Options): CliError {
  const said = `${status}: ${error}`;
  if (status === 401) return new CliError(`the API key was refused (${said}); check WAP_API_KEY`);
  if (status === 403) {
    return new CliError(`the API key may not do this (${said}); use the key of an api consumer of workspace ${options.workspace}`);
  }
  if (status === 404) {
    return new CliError(`not found (${said}); check --workspace and --eval (a key sees its own workspace only) and --url`);
  }
  if (status === 409) return new CliError(`a run of this evaluation is already under way (${said}); wait for it to finish, then run again`);
  return new CliError(`the service answered ${said}`, EXIT.error, status >= 500);
}

async function call<T>(options: Options, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const url = `${options.url}/api/workspaces/${encodeURIComponent(options.workspace)}/evals/${encodeURIComponent(options.evalId)}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${options.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new CliError(`cannot reach ${options.url}: ${cause}`, EXIT.error, true);
  }
  const text = await response.text();
  let parsed: { error?: unknown } | undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw httpError(response.status, String(parsed?.error ?? (text.slice(0, 200) || response.statusText)), options);
  if (!parsed) throw new CliError(`${method} ${url} did not answer JSON`);
  return parsed as T;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the run every second until it is over (a progress line on stderr each time it moves). */
async function waitForRun(options: Options, runId: string, total: number): Promise<Run> {
  const deadline = Date.now() + options.timeoutMs;
  let shown = '';
  let failedPolls = 0;
  for (;;) {
    const run = await call<{ run: Run }>(options, 'GET', `/runs/${encodeURIComponent(runId)}`).then(
      (answer) => answer.run,
      (error: unknown) => {
        if (!(error instanceof CliError && error.transient && failedPolls < POLL_RETRIES)) throw error;
        failedPolls += 1;
        process.stderr.write(`(${error.message}; trying again)\n`);
        return undefined;
      },
    );
    if (run) failedPolls = 0;
    if (run && (run.status === 'done' || run.status === 'failed')) return run;
    const line = run ? `${run.status}: ${run.passed + run.failed}/${total} cases, ${run.passed} passed` : shown;
    if (line !== shown) process.stderr.write(`${line}\n`);
    shown = line;
    if (Date.now() + POLL_MS > deadline) {
      throw new CliError(
        `run ${runId} did not finish within ${options.timeoutMs / 1000} s (${shown || 'no answer'}); it goes on in the service`,
        EXIT.timeout,
      );
    }
    await pause(POLL_MS);
  }
}

function overridesLine(overrides: Run['overrides']): string | undefined {
  const parts = [
    ...(overrides.model ? [`model ${overrides.model}`] : []),
    ...(overrides.system_prompt !== undefined ? [`system prompt (${overrides.system_prompt.length} characters)`] : []),
  ];
  return parts.length ? `overrides (this run only): ${parts.join(', ')}` : undefined;
}

/** The summary on stdout: score and verdict, counts, cost, regressions, and each failed case with its reasons. */
function summary(run: Run, evalName: string, failUnder: number, elapsedMs: number): string {
  const verdict = run.score !== null && run.score >= failUnder ? 'PASS' : 'FAIL';
  const lines = [
    `evaluation ${evalName}, run ${run.id}: ${run.status}`,
    `score: ${run.score ?? 'none'} (fail under ${failUnder}) ${verdict}`,
    `cases: ${run.passed} passed, ${run.failed} failed`,
    `cost: $${run.cost_usd.toFixed(4)} (${run.tokens.input} input, ${run.tokens.output} output tokens), ${(elapsedMs / 1000).toFixed(1)} s`,
    run.compared_to
      ? `regressions against ${run.compared_to}: ${run.regressions.length ? run.regressions.join(', ') : 'none'}`
      : 'regressions: none (no earlier finished run to compare with)',
  ];
  const overrides = overridesLine(run.overrides);
  if (overrides) lines.push(overrides);
  const failed = run.results.filter((result) => !result.passed);
  if (failed.length) lines.push('', 'failed cases:');
  for (const result of failed) {
    lines.push(`  ${result.case_id}${run.regressions.includes(result.case_id) ? ' (regression)' : ''}`);
    for (const failure of result.failures) lines.push(`    - ${failure}`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const options = await parseOptions(process.argv.slice(2), process.env);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.pass;
  }
  const { eval: evaluation } = await call<{ eval: { name: string; cases: unknown[] } }>(options, 'GET', '');
  const body = Object.keys(options.overrides).length ? { overrides: options.overrides } : {};
  const began = Date.now();
  const { run: started } = await call<{ run: { id: string } }>(options, 'POST', '/runs', body);
  process.stderr.write(`started run ${started.id} of ${evaluation.name} (${evaluation.cases.length} cases) on ${options.url}\n`);
  const run = await waitForRun(options, started.id, evaluation.cases.length);
  process.stdout.write(summary(run, evaluation.name, options.failUnder, Date.now() - began));
  if (run.status === 'failed') throw new CliError(`run ${run.id} failed: it could not finish, so it has no score`);
  return run.score !== null && run.score >= options.failUnder ? EXIT.pass : EXIT.below;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`eval: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof CliError ? error.code : EXIT.error;
  },
);
