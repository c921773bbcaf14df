import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { startDelayedStore, type DelayMode } from './latency-proxy.js';
import { modelReply, startEverything } from './query-blackbox.js';
import { LIMITS_OUT_OF_THE_WAY, poster } from './service-client.js';

/**
 * The AWS-shaped setup that `aws-shaped.ts` and `memory.ts` measure in: `npm start` in its own
 * process with its store 5 ms away (dynalite behind the latency proxy), the fake model answering
 * each call after 300 ms, server-everything over streamable HTTP, and a workspace connected to it
 * (the limits out of the way: the benchmarks measure the service, not its refusals).
 */

const STORE_MS = 5;
const MODEL_MS = 300;

export async function startAwsShaped(name: string, mode: DelayMode = 'request', env: Record<string, string> = {}) {
  const store = await startDelayedStore(STORE_MS, mode);
  const model = await startFakeModel();
  model.handle((request) => ({ ...modelReply(request), delayMs: MODEL_MS }));
  const everything = await startEverything();
  const dataDir = await mkdtemp(join(tmpdir(), `wap-${name}-`));
  const service = startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'bench',
    ...LIMITS_OUT_OF_THE_WAY,
    ...env,
  });
  const stop = async () => {
    await service.stop();
    everything.child.kill('SIGTERM');
    await model.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await service.url;
    const cookie = await signUpOver(url, `${name}@example.com`);
    const posted = poster(url, cookie);
    const post = async (path: string, body: unknown) => (await posted(path, body)).json;
    const workspace = String((await post('/api/workspaces', { name })).id);
    await post('/api/connectors/mcp', { workspace_id: workspace, name: 'everything', transport: 'http', url: everything.url });
    /** One query of the benchmark's workspace; answers how long it took, in ms. */
    const ask = async () => {
      const started = performance.now();
      const json = await post(`/api/workspaces/${workspace}/query`, { query: 'Say hello' });
      if (json.error) throw new Error(`query failed: ${JSON.stringify(json.error)}`);
      return performance.now() - started;
    };
    return { store, model, everything, service, pid: service.child.pid ?? 0, ask, stop, settings: { STORE_MS, MODEL_MS } };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** User + system CPU of a process so far, in ms (/proc/<pid>/stat, all threads). */
export async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / clockTicks();
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  return ticksPerSecond;
}
