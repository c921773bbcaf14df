import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import dynalite from 'dynalite';
import { PasswordHasher, type ScryptParams } from '../shared/auth/passwords.js';
import { sessionKey } from '../shared/auth/tokens.js';
import type { Deps } from '../shared/deps.js';
import { createApp } from '../shared/http/app.js';
import { systemClock, type Clock } from '../shared/platform/clock.js';
import type { Config } from '../shared/platform/config.js';
import { createDynamoClient } from '../shared/platform/dynamo.js';
import { createLogger, type AppLogger } from '../shared/platform/logger.js';
import { Table, ensureTable } from '../shared/platform/table.js';

/** A running local runtime: the embedded store and the HTTP server. */
export interface LocalRuntime {
  url: string;
  deps: Deps;
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  clock?: Clock;
  logger?: AppLogger;
  scrypt?: ScryptParams;
}

/** Starts dynalite on a free loopback port; persisted under `dir`, or in memory when `dir` is null. */
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
export async function loadSessionSecret(config: Config): Promise<string> {
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

/** Starts everything `npm start` runs, in this process: embedded store, table, HTTP server. */
export async function startLocalRuntime(config: Config, options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const logger = options.logger ?? createLogger(config);
  const dataDir = config.dataDir ? resolve(config.dataDir) : null;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  let store;
  try {
    store = await startEmbeddedStore(dataDir ? join(dataDir, 'dynamodb') : null);
  } catch (error) {
    if (error instanceof Error && /lock/i.test(`${error.message} ${String(error.cause ?? '')}`)) {
      throw new Error(`DATA_DIR ${dataDir} is in use by another running instance`, { cause: error });
    }
    throw error;
  }
  const client = createDynamoClient(config, store.endpoint);
  await ensureTable(client, config.tableName);
  const clock = options.clock ?? systemClock;
  const deps: Deps = {
    config: { ...config, dataDir },
    table: new Table(client, config.tableName, clock),
    clock,
    logger,
    passwords: new PasswordHasher(options.scrypt),
    sessionKey: sessionKey(await loadSessionSecret({ ...config, dataDir })),
  };
  const app = createApp(deps);
  const server: ServerType = await new Promise((resolvePromise, reject) => {
    const started = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolvePromise(started));
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    deps,
    async stop() {
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      client.destroy();
      await store.close();
    },
  };
}
