import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEmbeddedStore, startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { RecordingLogger } from '../support/logger.js';
import { FAST_SCRYPT } from '../support/context.js';
import { startRuntimeProcess } from '../support/runtime-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wap-runtime-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<LocalRuntime> {
  const config = parseConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'SILENT', ...env }, 'local');
  return startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
}

async function call(runtime: LocalRuntime, method: string, path: string, body?: unknown, cookie?: string) {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any, setCookie: response.headers.get('set-cookie') };
}

describe('local runtime', () => {
  it('keeps all data, and sessions, across a stop and a start on the same DATA_DIR', async () => {
    const dataDir = await tempDir();
    const first = await start(dataDir);
    const signup = await call(first, 'POST', '/api/signup', { name: 'Persist', email: 'persist@example.com', password: 'kept forever' });
    expect(signup.status).toBe(201);
    const cookie = (signup.setCookie ?? '').split(';')[0] ?? '';
    const created = await call(first, 'POST', '/api/workspaces', { name: 'Durable' }, cookie);
    expect(created.status).toBe(201);
    await first.stop();

    const second = await start(dataDir);
    cleanups.push(() => second.stop());
    // The session secret was kept in DATA_DIR, so the old cookie still verifies.
    const list = await call(second, 'GET', '/api/workspaces', undefined, cookie);
    expect(list.status).toBe(200);
    expect(list.body.workspaces.map((workspace: { id: string }) => workspace.id)).toEqual(['ws-durable']);
    const login = await call(second, 'POST', '/api/auth/login', { email: 'persist@example.com', password: 'kept forever' });
    expect(login.status).toBe(200);
    const duplicate = await call(second, 'POST', '/api/signup', { name: 'Again', email: 'persist@example.com', password: 'kept forever' });
    expect(duplicate.status).toBe(409);

    const secretFile = join(dataDir, 'session-secret');
    expect((await readFile(secretFile, 'utf8')).trim().length).toBeGreaterThanOrEqual(32);
    expect((await stat(secretFile)).mode & 0o077).toBe(0);
  });

  it('keeps nothing with DATA_DIR=memory', async () => {
    const first = await start('memory');
    await call(first, 'POST', '/api/signup', { name: 'Gone', email: 'gone@example.com', password: 'not kept at all' });
    await first.stop();
    const second = await start('memory');
    cleanups.push(() => second.stop());
    const login = await call(second, 'POST', '/api/auth/login', { email: 'gone@example.com', password: 'not kept at all' });
    expect(login.status).toBe(401);
  });

  it('uses the store at DYNAMODB_ENDPOINT instead of the embedded one, creating its table, and leaves it running', async () => {
    const store = await startEmbeddedStore(null);
    cleanups.push(() => store.close());
    const env = { DYNAMODB_ENDPOINT: store.endpoint, SESSION_SECRET: 'a session secret of at least thirty-two characters' };
    const first = await start('memory', env);
    const signup = await call(first, 'POST', '/api/signup', { name: 'Shared', email: 'shared@example.com', password: 'kept elsewhere' });
    expect(signup.status).toBe(201);
    const cookie = (signup.setCookie ?? '').split(';')[0] ?? '';
    expect((await call(first, 'POST', '/api/workspaces', { name: 'Outside' }, cookie)).status).toBe(201);
    await first.stop();

    // The table is in the outside store, which is still up after the runtime stopped.
    const client = new DynamoDBClient({
      endpoint: store.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    cleanups.push(async () => client.destroy());
    const described = await client.send(new DescribeTableCommand({ TableName: parseConfig({}, 'local').tableName }));
    expect(described.Table?.TableStatus).toBe('ACTIVE');

    // DATA_DIR=memory, yet a second runtime on the same store finds everything.
    const second = await start('memory', env);
    cleanups.push(() => second.stop());
    const list = await call(second, 'GET', '/api/workspaces', undefined, cookie);
    expect(list.status).toBe(200);
    expect(list.body.workspaces.map((workspace: { id: string }) => workspace.id)).toEqual(['ws-outside']);
  });

  it('refuses a second instance on a DATA_DIR in use, with a clear message', async () => {
    const dataDir = await tempDir();
    const first = await start(dataDir);
    cleanups.push(() => first.stop());
    await expect(start(dataDir)).rejects.toThrow(/in use by another running instance/);
  });
});

describe('npm start (bin/local.ts)', () => {
  it('logs one line with the URL, serves the API and the console, and exits 0 on SIGTERM', async () => {
    const dataDir = await tempDir();
    const started = startRuntimeProcess({ DATA_DIR: dataDir });
    try {
      const url = await started.url;
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const home = await fetch(`${url}/`);
      expect(home.headers.get('content-type')).toContain('text/html');
      expect(await home.text()).toMatch(/<script type="module" src="\/assets\/main-[A-Z0-9]+\.js">/);
      started.child.kill('SIGTERM');
      expect(await started.exited, started.output()).toBe(0);
    } finally {
      await started.stop();
    }
    const lines = started.output().trim().split('\n');
    expect(lines.filter((line) => line.includes('listening on'))).toHaveLength(1);
    expect(started.output()).toContain('open it for the web console');
    expect(started.output()).not.toMatch(/Warning/);
  });
});
