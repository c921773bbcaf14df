import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientMetadataFetch } from '../../shared/oauth/provider.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Client ID Metadata Documents (issue 48): a client identified by a URL the service fetches. The
 * fetch goes through the address policy (no loopback, private or link-local address) and is
 * bounded in size and time. The service here runs as on AWS: private addresses refused.
 */

let t: TestContext;
let trap: Server;
let connections = 0;
let trapPort = 0;

const authorizeUrl = (clientId: string) => {
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:33418/callback',
    response_type: 'code',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    scope: 'mcp',
    resource: 'http://127.0.0.1:9/api/workspaces/ws-any/mcp',
  });
  return `http://127.0.0.1:9/oauth/authorize?${query}`;
};

beforeAll(async () => {
  t = await createTestContext({ env: { MCP_ALLOW_PRIVATE_URLS: 'false' } });
  trap = createServer((_req, res) => res.end('{}'));
  trap.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
});
afterAll(async () => {
  trap.closeAllConnections();
  await new Promise<void>((resolve) => trap.close(() => resolve()));
  await t.close();
});

describe('client metadata documents', () => {
  it.each([
    ['loopback', () => `https://127.0.0.1:${trapPort}/client.json`],
    ['a loopback name', () => `https://localhost:${trapPort}/client.json`],
    ['link-local', () => 'https://169.254.169.254/latest/meta-data.json'],
    ['a private address', () => 'https://10.0.0.1/client.json'],
  ])('refuses a client whose metadata document is at %s, without connecting', async (_where, clientId) => {
    const response = await t.app.request(authorizeUrl(clientId()), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('invalid_client');
    expect(connections).toBe(0);
  });
});

describe('the metadata fetch', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect.json') {
        res.writeHead(302, { location: `http://127.0.0.1:${trapPort}/client.json` }).end();
        return;
      }
      if (req.url === '/huge.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const push = () => {
          while (sent < 10 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
          if (sent >= 10 * 1024 * 1024) res.end();
          else res.once('drain', push);
        };
        push();
        return;
      }
      // Never ends: a first byte, then nothing.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // Where private addresses are allowed (the local runtime), the bounds still hold.
  const fetchDocument = clientMetadataFetch(true);

  it('cuts a 10 MB document before it is read whole', async () => {
    const response = await fetchDocument(`${base}/huge.json`, { method: 'GET', signal: AbortSignal.timeout(2500) });
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('gives up on a document that never ends within the provider bound', async () => {
    const started = performance.now();
    const response = await fetchDocument(`${base}/slow.json`, { method: 'GET', signal: AbortSignal.timeout(500) });
    await expect(response.text()).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('never follows a redirect: the provider asks for it as it is (redirect: manual), and a 302 is not a document', async () => {
    const response = await fetchDocument(`${base}/redirect.json`, { method: 'GET', redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(connections).toBe(0);
  });

  it('refuses loopback where private addresses are not allowed', async () => {
    await expect(clientMetadataFetch(false)(`${base}/huge.json`, { method: 'GET' })).rejects.toThrow(
      /refused|not allowed|private|loopback/i,
    );
  });
});
