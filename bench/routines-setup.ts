import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel, textReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { startDelayedStore } from './latency-proxy.js';
import { apiOf } from './report.js';

/*
 * The setup `routines.ts` measures in: `npm start` (bin/local.ts) in its own process with its
 * defaults (the local job runner, the due-index scheduler, the organisations' query limits), its
 * store 5 ms away (dynalite behind the latency proxy, each call 5 ms with dynalite's time inside),
 * the fake Messages API answering each call after 300 ms. Organisations are signed up over HTTP and
 * routines made through the API, as an admin would.
 */

const STORE_MS = 5;
const MODEL_MS = 300;

/** What each routine's prompt carries, so the fake model can tell whose run asked it. */
const MARK = /\[bench routine ([\w-]+)\]/;

/** An organisation signed up for the benchmark: its admin's API and its workspace. */
export interface BenchOrg {
  api: ReturnType<typeof apiOf>;
  workspace: string;
}

/** A routine made for the benchmark. */
export interface BenchRoutine {
  id: string;
  mark: string;
  org: BenchOrg;
  /** A webhook routine's: its secret and path. */
  secret?: string;
  hookPath?: string;
}

/** The store, the fake model and the service; `modelCalls`: the model calls each routine's runs made, by mark. */
export async function startRoutineService() {
  const store = await startDelayedStore(STORE_MS, 'floor');
  const model = await startFakeModel();
  const modelCalls = new Map<string, number>();
  model.handle((request: ModelRequestRecord) => {
    const mark = MARK.exec(JSON.stringify(request.body.messages))?.[1] ?? '(none)';
    modelCalls.set(mark, (modelCalls.get(mark) ?? 0) + 1);
    return { ...textReply('Nothing unusual: 3 failed orders, all card declines.'), delayMs: MODEL_MS };
  });
  // The fake model keeps each request; this benchmark counts them itself.
  const forget = setInterval(() => model.requests.splice(0), 5_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-routines-'));
  // `npm start`'s settings: only where the store and the model are.
  const service = startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'bench',
  });
  const stop = async () => {
    clearInterval(forget);
    await service.stop();
    await model.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    return { store, model, modelCalls, service, url: await service.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Signs up `count` organisations (one admin each) with a workspace each. */
export async function signUpOrgs(url: string, count: number, prefix: string): Promise<BenchOrg[]> {
  const orgs: BenchOrg[] = [];
  for (let n = 0; n < count; n += 1) {
    const api = apiOf(url, await signUpOver(url, `${prefix}-${n}@example.com`, `Admin ${prefix} ${n}`));
    const workspace = String((await api.call('POST', '/api/workspaces', { name: `Ops ${prefix} ${n}` })).id);
    orgs.push({ api, workspace });
  }
  return orgs;
}

/** Runs `work` on each item, at most `width` at a time; answers the results in order. */
export async function inParallel<T, R>(items: T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as T, index);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** Makes `perOrg` routines of `trigger` in each organisation, through the API (`width` requests at a time). */
export async function createRoutines(
  orgs: BenchOrg[],
  perOrg: number,
  trigger: Record<string, unknown>,
  prefix: string,
  width = 40,
): Promise<BenchRoutine[]> {
  const wanted = orgs.flatMap((org, o) => Array.from({ length: perOrg }, (_, n) => ({ org, mark: `${prefix}-${o}-${n}` })));
  return inParallel(wanted, width, async ({ org, mark }) => {
    const body = await org.api.call('POST', `/api/workspaces/${org.workspace}/routines`, {
      name: `Failed orders ${mark}`,
      prompt: `Summarise the failed orders of the last hour: how many, the main causes, anything unusual. [bench routine ${mark}]`,
      trigger,
    });
    const routine = body.routine as { id: string; hook_path: string | null };
    return { id: routine.id, mark, org, secret: body.secret as string | undefined, hookPath: routine.hook_path ?? undefined };
  });
}

/** The routines of each organisation's workspace as listed (`last_run` and all), by routine id. */
export async function listed(orgs: BenchOrg[]): Promise<Map<string, { last_run: { id: string; status: string } | null }>> {
  const pages = await Promise.all(orgs.map((org) => org.api.call('GET', `/api/workspaces/${org.workspace}/routines`)));
  return new Map(
    pages.flatMap((page) => (page.routines as { id: string; last_run: { id: string; status: string } | null }[]).map((r) => [r.id, r])),
  );
}

/** A run as `GET …/routines/:id/runs` lists it (the fields the benchmark reads). */
export interface ListedRun {
  id: string;
  status: string;
  scheduled_at: string | null;
  delivery_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Each routine's runs, as listed (`width` requests at a time). */
export async function runsOf(routines: BenchRoutine[], width = 20): Promise<ListedRun[][]> {
  return inParallel(routines, width, async (routine) => {
    const body = await routine.org.api.call('GET', `/api/workspaces/${routine.org.workspace}/routines/${routine.id}/runs`);
    return body.runs as ListedRun[];
  });
}

/** POSTs a webhook delivery as docs/routines.md says: `X-Signature-256` over `<X-Timestamp>.<raw body>`. */
export async function deliver(url: string, routine: BenchRoutine, deliveryId: string, body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', routine.secret ?? '')
    .update(`${timestamp}.${body}`)
    .digest('hex');
  const response = await fetch(`${url}${routine.hookPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-timestamp': timestamp,
      'x-delivery-id': deliveryId,
      'x-signature-256': `sha256=${signature}`,
    },
    body,
  });
  const json = (await response.json()) as { run?: { id: string } };
  return { status: response.status, runId: json.run?.id ?? `(none: ${JSON.stringify(json)})` };
}

/** The store's write calls, and all its calls, so far (the latency proxy counts them by operation). */
export const WRITE_OPERATIONS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'] as const;

export function storeCalls(store: { operations: Map<string, number>; calls: number }): Record<string, number> {
  return Object.fromEntries([...WRITE_OPERATIONS.map((op) => [op, store.operations.get(op) ?? 0]), ['all', store.calls]]);
}
