import { FileBlobStore, MemoryBlobStore } from '../shared/platform/blobs.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { PasswordHasher, type ScryptParams } from '../shared/auth/passwords.js';
import type { ModelClients } from '../shared/models/providers.js';
import type { AgentDeps } from '../shared/deps.js';
import { createAgentDeps } from '../shared/wiring/deps.js';
import { createAgentParts } from '../shared/wiring/agent-parts.js';
import { ChatBridge } from '../shared/chat-bot/bridge.js';
import { TeamChatNotifier } from '../shared/chat-bot/notifier.js';
import { resendPendingStats, sendDueMoves } from '../shared/sweep/due-sweep.js';
import { agentRoutes } from '../shared/wiring/agent-routes.js';
import { createApp } from '../shared/wiring/app.js';
import { consoleApp, isApiUrl } from './console.js';
import { isMetricsUrl, metricsApp } from './metrics.js';
import { readDeclaredBody } from './request-body.js';
import { jobHandlers } from '../shared/wiring/job-handlers.js';
import { LocalJobRunner } from '../shared/jobs/local-runner.js';
import { deliveryOf } from '../shared/jobs/worker.js';
import { DueIndexScheduler } from '../shared/jobs/scheduler.js';
import { systemClock, type Clock } from '../shared/platform/clock.js';
import type { Config } from '../shared/platform/config.js';
import { createDynamoClient } from '../shared/platform/dynamo.js';
import { createLogger, type AppLogger } from '../shared/platform/logger.js';
import { Table } from '../shared/platform/table.js';
import { runMigrations } from '../shared/platform/migrations.js';
import { apiRoutes } from '../shared/wiring/api-routes.js';
import { MIGRATIONS } from '../migrations/index.js';
import { ensureTable } from '../shared/platform/table-create.js';
import { errorMessage } from '../shared/platform/errors.js';
import { EnvelopeSecrets, LocalKeyWrapper, localSecretsKey } from '../shared/platform/secrets.js';
import { PrometheusMetrics } from '../shared/platform/metrics-prometheus.js';

/** A running local runtime: the embedded store and the HTTP server. */
export interface LocalRuntime {
  url: string;
  deps: AgentDeps;
  runner: LocalJobRunner;
  bridge: ChatBridge;
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  clock?: Clock;
  logger?: AppLogger;
  scrypt?: ScryptParams;
  /** Model clients (the benchmark's zero-latency fake); by default the configured providers. */
  models?: ModelClients;
  /** The built console to serve at `/` (web/dist by default; `bin/console.ts`). */
  consoleDir?: string;
}

/**
 * The embedded store: dynalite through its public interface, an HTTP server on a free loopback
 * port that the store client reaches as it reaches DynamoDB; persisted under `dir` (leveldb), or
 * in memory when `dir` is null. Closing it stops the server and closes its database.
 */
export async function startEmbeddedStore(dir: string | null): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = dynalite({ path: dir ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('embedded store did not report its port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolvePromise, reject) => server.close((error) => (error ? reject(error) : resolvePromise()))),
  };
}

/**
 * The session secret: `SESSION_SECRET` when set; otherwise generated once and kept in the data
 * directory (mode 0600) so sessions survive a restart; with `DATA_DIR=memory`, one per process.
 */
async function loadSessionSecret(config: Config): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  if (!config.dataDir) return randomBytes(48).toString('base64url');
  const file = join(config.dataDir, 'session-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Data directories held by runtimes of this process. */
const heldDirs = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * Takes `DATA_DIR/runtime.lock` (holding our pid). The embedded store cannot be shared: a second
 * runtime on the same directory would hang on leveldb's own lock, so it is refused up front. A lock
 * left by a process that no longer runs is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, 'runtime.lock');
  const inUse = () => new Error(`DATA_DIR ${dataDir} is in use by another running instance`);
  if (heldDirs.has(dataDir)) throw inUse();
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    const holder = Number((await readFile(file, 'utf8')).trim());
    if (holder && holder !== process.pid && isRunning(holder)) throw inUse();
    await writeFile(file, String(process.pid));
  }
  heldDirs.add(dataDir);
  return async () => {
    heldDirs.delete(dataDir);
    await rm(file, { force: true });
  };
}

/**
 * Starts everything `npm start` runs, in this process: embedded store (or the one at
 * `DYNAMODB_ENDPOINT`), table, job runner, scheduler, chat bridge, HTTP server.
 */
export async function startLocalRuntime(config: Config, options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const logger = options.logger ?? createLogger(config);
  const dataDir = config.dataDir ? resolve(config.dataDir) : null;
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  try {
    return await startServices(config, dataDir, unlock, options, logger);
  } catch (error) {
    await unlock();
    throw error;
  }
}

/**
 * The HTTP server: the API answers /api and /health; /metrics is the operator's scrape (404 unless
 * METRICS_TOKEN is set); the console every other path, on the same origin so the session cookie
 * just works.
 */
async function listen(deps: AgentDeps, config: Config, options: LocalRuntimeOptions, metrics?: PrometheusMetrics): Promise<ServerType> {
  const app = createApp(deps, {
    routes: apiRoutes(deps, agentRoutes(deps)),
    serves: ['api', 'agent'],
    clientAddress: (c) => getConnInfo(c).remote.address,
  });
  const web = consoleApp(options.consoleDir);
  const scrape = metricsApp(metrics, config.metricsToken);
  const fetchOf = async (request: Request, env: HttpBindings | Http2Bindings) => {
    if (isApiUrl(request.url)) {
      await readDeclaredBody(env.incoming);
      return app.fetch(request, env);
    }
    return isMetricsUrl(request.url) ? scrape.fetch(request, env) : web.fetch(request, env);
  };
  return new Promise((resolvePromise, reject) => {
    const started = serve({ fetch: fetchOf, hostname: config.host, port: config.port }, () => resolvePromise(started));
    started.once('error', reject);
  });
}

/**
 * The store and its client, with its table. DYNAMODB_ENDPOINT: a store run elsewhere (DynamoDB
 * Local, dynalite in its own process) instead of the embedded one; the table is created there if
 * missing, and the store is left running when the runtime stops.
 */
async function openStore(config: Config, dataDir: string | null, logger: AppLogger) {
  const store = config.dynamoEndpoint
    ? { endpoint: config.dynamoEndpoint, close: async () => {} }
    : await startEmbeddedStore(dataDir ? join(dataDir, 'dynamodb') : null);
  const client = createDynamoClient(config, store.endpoint);
  const close = async () => {
    // The client's kept-alive sockets first: the embedded store's server waits for its connections.
    client.destroy();
    await store.close();
  };
  try {
    // A table of an earlier version is rebuilt with this version's indexes (a progress line each way).
    await ensureTable(client, config.tableName, (message) => logger.info(message));
  } catch (error) {
    await close();
    throw error;
  }
  return { client, close };
}

async function startServices(
  config: Config,
  dataDir: string | null,
  unlock: () => Promise<void>,
  options: LocalRuntimeOptions,
  logger: AppLogger,
): Promise<LocalRuntime> {
  const store = await openStore(config, dataDir, logger);
  try {
    return await startOnStore(
      config,
      dataDir,
      store,
      async () => {
        await store.close();
        await unlock();
      },
      options,
      logger,
    );
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function startOnStore(
  config: Config,
  dataDir: string | null,
  { client }: { client: DynamoDBClient },
  closeStore: () => Promise<void>,
  options: LocalRuntimeOptions,
  logger: AppLogger,
): Promise<LocalRuntime> {
  const clock = options.clock ?? systemClock;
  const secrets = new EnvelopeSecrets(new LocalKeyWrapper(await localSecretsKey(dataDir)));
  const core = { table: new Table(client, config.tableName, clock), clock, secrets };
  // Data stored by an earlier version is brought to this one's keys before anything reads it.
  await runMigrations(core.table, MIGRATIONS, { clock, logger, secrets });
  const settings = { maxAttempts: config.jobMaxAttempts, retryBaseMs: config.jobRetryBaseMs };
  // A routine's run mostly waits for the model, and a schedule fires many at one minute (1 000
  // routines due at once: docs/routines-bench.md): those two queues run more at once. An
  // organisation's queries in flight still bound its own runs.
  const concurrencyOf = { routines: 16, lifecycle: 8 };
  const runner = new LocalJobRunner({ ...core, logger }, { concurrency: 4, concurrencyOf, ...settings });
  // Timed moves wait in the store's due index; the scheduler holds one timer, for the earliest.
  const scheduler: DueIndexScheduler = new DueIndexScheduler(
    clock,
    // A routine's time fired arms the next (routines/fire-job.ts): through this very scheduler.
    (now): Promise<Date | undefined> => sendDueMoves({ ...core, jobs: runner, config, scheduler }, now),
    (error) => logger.error('due conversation moves could not be sent', { error: errorMessage(error) }),
  );
  // Metrics are kept only when someone may read them (`METRICS_TOKEN`, bin/metrics.ts).
  const metrics = config.metricsToken ? new PrometheusMetrics({ byWorkspace: config.metricsByWorkspace }) : undefined;
  const deps = createAgentDeps({
    ...createAgentParts(config, logger),
    ...core,
    config: { ...config, dataDir },
    logger,
    blobs: dataDir ? new FileBlobStore(join(dataDir, 'blobs')) : new MemoryBlobStore(),
    passwords: new PasswordHasher(options.scrypt),
    sessionSecret: await loadSessionSecret({ ...config, dataDir }),
    ...(options.models ? { models: options.models } : {}),
    jobs: runner,
    scheduler,
    chat: new TeamChatNotifier(core, config.slackApiUrl),
    metrics,
  });
  runner.start(deliveryOf(deps, jobHandlers, settings));
  const resumed = await runner.resumePending();
  if (resumed) logger.info(`resumed ${resumed} pending job${resumed === 1 ? '' : 's'}`);
  // Stats jobs are in the ledger once claimed: those this runtime held when it stopped are sent again from the due index.
  const resent = await resendPendingStats(deps);
  if (resent) logger.info(`sent again ${resent} pending stats job${resent === 1 ? '' : 's'}`);
  // What fell due while the runtime was stopped is sent now; the periodic wake-up is a backstop
  // (a schedule written by another runtime sharing DYNAMODB_ENDPOINT, say).
  scheduler.wakeNow();
  const sweeper = setInterval(() => scheduler.wakeNow(), config.sweepIntervalMs);
  sweeper.unref();
  const bridge = new ChatBridge(deps, { pollMs: config.chatBridgePollMs });
  await bridge.start();
  const server = await listen(deps, config, options, metrics);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    deps,
    runner,
    bridge,
    async stop() {
      clearInterval(sweeper);
      await bridge.stop();
      await scheduler.stop();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      await runner.stop();
      await deps.mcp.closeAll();
      await closeStore();
    },
  };
}
