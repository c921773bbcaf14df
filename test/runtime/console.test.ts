import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { API_TYPES_FILE, apiTypesSource } from '../../scripts/api-types.js';
import { CONSOLE_DIST } from '../../bin/console.js';
import { RecordingLogger } from '../support/logger.js';
import { FAST_SCRYPT } from '../support/context.js';

/** The web console as the local runtime serves it (the browser tests drive it: test/browser/). */

let runtime: LocalRuntime;
let dir: string;
const BIG_CHUNK = `export const words = ${JSON.stringify('console '.repeat(2000))};`;
beforeAll(async () => {
  // A console build of its own: three files are enough to see what is served how.
  dir = await mkdtemp(join(tmpdir(), 'wap-console-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><title>console</title><script type="module" src="/assets/main-ABC.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'main-ABC.js'), 'console.log("console");');
  await writeFile(join(dir, 'build-stamp.json'), '{"hash":"secret-ish"}');
  // A chunk as web/build.ts leaves it: with its Brotli and gzip forms next to it.
  await writeFile(join(dir, 'assets', 'chunk-BIG.js'), BIG_CHUNK);
  await writeFile(join(dir, 'assets', 'chunk-BIG.js.br'), brotliCompressSync(BIG_CHUNK));
  await writeFile(join(dir, 'assets', 'chunk-BIG.js.gz'), gzipSync(BIG_CHUNK));
  const config = parseConfig({ DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT' }, 'local');
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT, consoleDir: dir });
});
afterAll(async () => {
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(`${runtime.url}${path}`, init);

/** A GET of `path` exactly as written (no URL normalisation, nothing decoded): the headers and the bytes the server answers. */
function rawResponse(path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(runtime.url);
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    httpGet({ host: hostname, port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** A GET of `path` exactly as written: the body the server answers. */
const rawGet = async (path: string) => (await rawResponse(path)).body.toString();

describe('the console at /', () => {
  it("answers index.html for / and for the app's own routes, never cached, with a CSP that allows only this origin", async () => {
    for (const path of ['/', '/workspaces', '/workspaces/ws-1/dashboard', '/org/team-chat?x=1']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'; script-src 'self'");
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await response.text()).toContain('/assets/main-ABC.js');
    }
  });

  it('serves hashed assets cached for a year, and 404 for a missing one (not index.html)', async () => {
    const asset = await get('/assets/main-ABC.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("console");');
    const missing = await get('/assets/main-OLD.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBeNull();
  });

  it('sends a script compressed as the browser accepts it (Brotli first, then gzip, else as it is), saying it varies by Accept-Encoding', async () => {
    const brotli = await rawResponse('/assets/chunk-BIG.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(BIG_CHUNK);
    const gzip = await rawResponse('/assets/chunk-BIG.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(BIG_CHUNK);
    const identity = await rawResponse('/assets/chunk-BIG.js');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(BIG_CHUNK);
    for (const response of [brotli, gzip, identity]) {
      expect(response.headers['content-type']).toContain('javascript');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
    }
    expect(brotli.body.length).toBeLessThan(BIG_CHUNK.length / 10);
    // A file without compressed forms (too small to be worth it) goes as it is, whatever is accepted.
    const small = await rawResponse('/assets/main-ABC.js', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('Accept-Encoding');
    const page = await rawResponse('/workspaces', { 'accept-encoding': 'br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toBe('Accept-Encoding');
  });

  it('serves nothing outside the build: no traversal, no file but index.html and assets', async () => {
    // Sent as written: fetch would resolve the dot segments before the server saw them.
    for (const path of ['/assets/../build-stamp.json', '/assets/%2e%2e/build-stamp.json', '/assets/..%2fbuild-stamp.json']) {
      expect(await rawGet(path), path).not.toContain('secret-ish');
    }
    // Any other path is the app's (index.html), so the stamp never leaves as itself.
    expect(await (await get('/build-stamp.json')).text()).not.toContain('secret-ish');
  });

  it('leaves /api and /health to the API, and answers other methods with a JSON 404', async () => {
    expect(await (await get('/health')).json()).toEqual({ status: 'ok' });
    const api = await get('/api/workspaces');
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ error: 'authentication required' });
    const post = await get('/workspaces', { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ error: 'no route for POST /workspaces' });
  });

  it('says how to build the console when there is no build', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'wap-console-empty-'));
    const config = parseConfig({ DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT' }, 'local');
    const bare = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT, consoleDir: empty });
    try {
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build:web');
    } finally {
      await bare.stop();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('the console build (web/dist, built before the tests as npm start builds it)', () => {
  it('holds index.html pointing at its hashed entry script and stylesheet', async () => {
    const html = await readFile(join(CONSOLE_DIST, 'index.html'), 'utf8');
    const assets = await readdir(join(CONSOLE_DIST, 'assets'));
    const script = /src="\/assets\/(main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const style = /href="\/assets\/(main-[A-Z0-9]+\.css)"/.exec(html)?.[1];
    expect(script && assets.includes(script)).toBe(true);
    expect(style && assets.includes(style)).toBe(true);
  });
});

describe("the console's sources", () => {
  it('never render what the API returns as HTML (no dangerouslySetInnerHTML, innerHTML or eval)', async () => {
    const root = join(CONSOLE_DIST, '..', 'src');
    const files = (await readdir(root, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = await readFile(join(root, file), 'utf8');
      expect(source, file).not.toMatch(/dangerouslySetInnerHTML|\.innerHTML|outerHTML|insertAdjacentHTML|\beval\(|new Function\(/);
    }
  });
});

describe("the console's API types (web/src/api/schema.d.ts)", () => {
  it('are what the OpenAPI document generates today: run `npm run api-types` after changing a route', async () => {
    const document = (await (await get('/api/openapi.json')).json()) as Parameters<typeof apiTypesSource>[0];
    expect(await readFile(API_TYPES_FILE, 'utf8')).toBe(await apiTypesSource(document));
  });
});
