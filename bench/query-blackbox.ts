import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { percentile, type Row } from './report.js';
import { LIMITS_OUT_OF_THE_WAY, poster } from './service-client.js';

/**
 * The query as a user runs it, measured from outside: `npm start` in a process of its own with its
 * defaults (INFO logs, the embedded store on disk), `@modelcontextprotocol/server-everything` over
 * streamable HTTP as the tool server (a dozen tools with real schemas), a zero-latency fake model.
 * Each query is two model calls and one tool call (`echo`). Next to it, in the same run, a naive
 * client does the same work with the SDKs and stores nothing: a new MCP session, a tool list, two
 * model calls, one tool call.
 */

const QUERIES = Number(process.env.BENCH_BLACKBOX_QUERIES ?? 150);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** server-everything over streamable HTTP, in its own process; answers its /mcp URL once it listens. */
export async function startEverything(): Promise<{ url: string; child: ChildProcess }> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** The model's side: call the tool whose name ends with `echo`, then answer once its result is back. */
export function modelReply(request: ModelRequestRecord) {
  const last = request.body.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
  const echo = request.body.tools?.find((tool) => tool.name.endsWith('echo'))?.name ?? 'echo';
  return answered ? textReply('Here is what I found.') : toolUseReply([{ name: echo, input: { message: 'hello' } }]);
}

/** What a client without the service does for the same question: every step, nothing stored. */
export async function naiveQuery(modelUrl: string, mcpUrl: string): Promise<number> {
  const started = performance.now();
  const anthropic = new Anthropic({ apiKey: 'bench', baseURL: modelUrl, maxRetries: 0 });
  const client = new Client({ name: 'naive', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const { tools } = await client.listTools();
  const specs = tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
  }));
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hello' }];
  const first = await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools: specs, messages });
  const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
  const result = await client.callTool({ name: call?.name ?? 'echo', arguments: (call?.input ?? {}) as Record<string, unknown> });
  messages.push({ role: 'assistant', content: first.content });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id ?? '', content: JSON.stringify(result.content) }] });
  await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools: specs, messages });
  await client.close();
  return performance.now() - started;
}

export async function benchQueryBlackBox(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle(modelReply);
  const everything = await startEverything();
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-blackbox-'));
  // BENCH_PROFILE_DIR: the service writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const service = startRuntimeProcess(
    {
      DATA_DIR: dataDir,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'bench',
      ...LIMITS_OUT_OF_THE_WAY,
    },
    profile,
  );
  try {
    const url = await service.url;
    const cookie = await signUpOver(url, 'blackbox@example.com');
    const posted = poster(url, cookie);
    const post = async (path: string, body: unknown) => {
      const { json, headers } = await posted(path, body);
      return { json, timing: headers.get('server-timing') ?? '' };
    };
    const workspace = String((await post('/api/workspaces', { name: 'Black box' })).json.id);
    await post('/api/connectors/mcp', { workspace_id: workspace, name: 'everything', transport: 'http', url: everything.url });
    const serviceMs: number[] = [];
    const overheadMs: number[] = [];
    const naiveMs: number[] = [];
    for (let run = 0; run < QUERIES + 10; run += 1) {
      const started = performance.now();
      const { json, timing } = await post(`/api/workspaces/${workspace}/query`, { query: 'Say hello' });
      const took = performance.now() - started;
      if (json.error) throw new Error(`query failed: ${String(json.error)}`);
      const naive = await naiveQuery(model.url, everything.url);
      // The first ten warm both up (sessions, JIT).
      if (run < 10) continue;
      serviceMs.push(took);
      naiveMs.push(naive);
      overheadMs.push(Number(/overhead;dur=([\d.]+)/.exec(timing)?.[1] ?? Number.NaN));
    }
    const p50 = (samples: number[]) => percentile(samples, 50);
    return [
      {
        setup: `npm start defaults, server-everything (streamable HTTP), ${QUERIES} queries`,
        overhead_p50_ms: p50(overheadMs),
        overhead_p99_ms: percentile(overheadMs, 99),
        query_p50_ms: p50(serviceMs),
        naive_p50_ms: p50(naiveMs),
        ratio_p50: Math.round((p50(serviceMs) / p50(naiveMs)) * 100) / 100,
      },
    ];
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    everything.child.kill('SIGTERM');
    await model.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
