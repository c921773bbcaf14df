import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { standardTools, startHttpMcpServer } from '../test/support/mcp-servers.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { percentile, type Row } from './report.js';

/**
 * Tenants that push back (issue 28), measured from outside against `npm start` with its defaults:
 * 1. One organisation floods: `BENCH_FLOOD_QUERIES` (280) streaming queries it never reads, each
 *    calling a tool that never answers (its timeout raised to 600 s), while a second organisation
 *    lists its workspaces. Its p50/p99 quiet and under the flood, the flood's answers by status, and
 *    the service's open files and RSS.
 * 2. Ten queries in parallel whose tool answers 40 MB each: the service's peak RSS (VmHWM, a fresh
 *    process), against the goal of 400 MB.
 */

const FLOOD = Number(process.env.BENCH_FLOOD_QUERIES ?? 280);
const LISTS = Number(process.env.BENCH_FLOOD_LISTS ?? 300);
const BIG_ANSWER_BYTES = 40 * 1024 * 1024;

/** The model's side: call the workspace's one tool (the hanging one or the big one), then answer. */
function modelReply(request: ModelRequestRecord) {
  const last = request.body.messages.at(-1)?.content;
  if (Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result')) return textReply('done');
  const tool = request.body.tools?.find((each) => each.name === 'big_answer' || each.name === 'slow_tool')?.name;
  return tool ? toolUseReply([{ name: tool, input: {} }]) : textReply('no tool');
}

/** What /proc says of a process: open files, resident memory now and at its peak (MB). */
function processFacts(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return {
    files: readdirSync(`/proc/${pid}/fd`).length,
    rssMb: Math.round(kb('VmRSS') / 1024),
    peakMb: Math.round(kb('VmHWM') / 1024),
  };
}

/** A service process (`npm start` defaults, its store on disk) with a signed-in organisation's helpers. */
async function startService(modelUrl: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-flood-'));
  const service = startRuntimeProcess({ DATA_DIR: dataDir, ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'bench' });
  const url = await service.url;
  const pid = service.child.pid ?? 0;
  const organisation = async (email: string) => {
    const cookie = await signUpOver(url, email);
    const call = async (method: string, path: string, body?: unknown, accept = 'application/json') => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { cookie, accept, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const workspaceWith = async (name: string, mcpUrl?: string) => {
      const id = String((await call('POST', '/api/workspaces', { name })).id);
      if (mcpUrl) await call('POST', '/api/connectors/mcp', { workspace_id: id, name: 'tools', transport: 'http', url: mcpUrl });
      return id;
    };
    return { cookie, call, workspaceWith };
  };
  const stop = async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { url, pid, organisation, stop };
}

async function timedLists(url: string, cookie: string): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < LISTS; run += 1) {
    const started = performance.now();
    const response = await fetch(`${url}/api/workspaces`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`list answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function floodRows(modelUrl: string, slowUrl: string): Promise<Row[]> {
  const service = await startService(modelUrl);
  const clients = new AbortController();
  try {
    const flooder = await service.organisation('flooder@example.com');
    const slow = await flooder.workspaceWith('Never answers', slowUrl);
    await flooder.call('PUT', `/api/workspaces/${slow}`, { tool_timeout_seconds: 600 });
    const quiet = await service.organisation('quiet@example.com');
    await quiet.workspaceWith('Quiet');
    await timedLists(service.url, quiet.cookie);
    const before = processFacts(service.pid);
    const quietMs = await timedLists(service.url, quiet.cookie);

    // The flood: streaming queries nobody reads, all sent at once.
    const statuses = await Promise.all(
      Array.from({ length: FLOOD }, async () => {
        const response = await fetch(`${service.url}/api/workspaces/${slow}/query`, {
          method: 'POST',
          headers: { cookie: flooder.cookie, accept: 'text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'wait for it' }),
          signal: clients.signal,
        });
        return response.status;
      }),
    );
    const floodedMs = await timedLists(service.url, quiet.cookie);
    const during = processFacts(service.pid);
    // The refused queries' connections stay open as idle keep-alives until the server's keep-alive
    // timeout (5 s) closes them; what is left after it is what the flood holds.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const held = processFacts(service.pid);
    const count = (status: number) => statuses.filter((each) => each === status).length;
    const row = (setup: string, samples: number[], facts: ReturnType<typeof processFacts>): Row => ({
      setup,
      list_p50_ms: percentile(samples, 50),
      list_p99_ms: percentile(samples, 99),
      open_files: facts.files,
      rss_mb: facts.rssMb,
      p99_vs_quiet: '',
      open_files_6s_later: '',
    });
    return [
      row(`quiet: the second organisation lists its workspaces (${LISTS} times)`, quietMs, before),
      {
        ...row(`flood: ${FLOOD} unread streaming queries of the first (200: ${count(200)}, 429: ${count(429)})`, floodedMs, during),
        p99_vs_quiet: Math.round((percentile(floodedMs, 99) / percentile(quietMs, 99)) * 100) / 100,
        open_files_6s_later: held.files,
      },
    ];
  } finally {
    clients.abort();
    await service.stop();
  }
}

async function bigAnswerRows(modelUrl: string, bigUrl: string): Promise<Row[]> {
  const service = await startService(modelUrl);
  try {
    const tenant = await service.organisation('big@example.com');
    const workspace = await tenant.workspaceWith('Big answers', bigUrl);
    const started = processFacts(service.pid);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => tenant.call('POST', `/api/workspaces/${workspace}/query`, { query: 'everything please' })),
    );
    const after = processFacts(service.pid);
    const failed = answers.filter((answer) => answer.error).length;
    return [
      {
        setup: `10 parallel queries, each tool answer ${BIG_ANSWER_BYTES / 1024 / 1024} MB (fresh process; ${failed} answered an error)`,
        rss_at_start_mb: started.rssMb,
        peak_rss_mb: after.peakMb,
        goal_mb: 400,
      },
    ];
  } finally {
    await service.stop();
  }
}

export async function benchFlood(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle(modelReply);
  const slow = await startHttpMcpServer({ name: 'never-answers', tools: standardTools({ hangMs: 30 * 60_000 }) });
  try {
    return await floodRows(model.url, slow.url);
  } finally {
    await Promise.all([slow.stop(), model.stop()]);
  }
}

export async function benchBigAnswers(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle(modelReply);
  const answer = 'x'.repeat(BIG_ANSWER_BYTES);
  const big = await startHttpMcpServer({
    name: 'big-answers',
    tools: [{ name: 'big_answer', description: 'Answers 40 MB', annotations: { readOnlyHint: true }, run: () => answer }],
  });
  try {
    return await bigAnswerRows(model.url, big.url);
  } finally {
    await Promise.all([big.stop(), model.stop()]);
  }
}
