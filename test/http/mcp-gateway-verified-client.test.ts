import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { consentThroughApi, initializeWith, MemoryOAuthClient, openAuthorization } from '../support/mcp-oauth.js';
import { serveOnLoopback } from '../support/served.js';

/*
 * A client identified by its Client ID Metadata Document (issue 48): the MCP SDK's own OAuth
 * client names the document's HTTPS URL as its client_id, the service fetches it (through the
 * address policy: the local runtime's, which allows this machine) and the consent page shows the
 * client as verified, its name with the domain that serves it. The document's server has a
 * certificate of the tests' own CA (test/fixtures/tls, trusted through NODE_EXTRA_CA_CERTS set by
 * vitest.config.ts).
 */

const CALLBACK = 'http://127.0.0.1:33418/callback';

let t: TestContext;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let documents: Server;
let documentUrl = '';
let fetched = 0;

/** An MCP client identified by its metadata document instead of a registration. */
class DocumentClient extends MemoryOAuthClient {
  constructor(readonly clientMetadataUrl: string) {
    super(CALLBACK, 'Acme Agent');
  }
}

beforeAll(async () => {
  t = await createTestContext();
  served = await serveOnLoopback(t);
  const tls = { key: readFileSync('test/fixtures/tls/server-key.pem'), cert: readFileSync('test/fixtures/tls/server.pem') };
  documents = createServer(tls, (req, res) => {
    fetched += 1;
    if (req.url !== '/acme/client.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: 'Acme Agent',
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/acme/client.json`;
});
afterAll(async () => {
  documents.closeAllConnections();
  await new Promise<void>((resolve) => documents.close(() => resolve()));
  await served.close();
  await t.close();
});

describe('a client identified by its metadata document', () => {
  it('is fetched, shown as verified with the domain that serves it, and signs the person in without registering', async () => {
    const ada = await t.signUp({ name: 'Ada Verified' });
    const workspaceId = (await t.createWorkspace(ada.cookie, { name: 'Verified' })).id;
    const mcpUrl = `${served.base}/api/workspaces/${workspaceId}/mcp`;
    const client = new DocumentClient(documentUrl);
    expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
    expect(client.authorizationUrl?.searchParams.get('client_id')).toBe(documentUrl);
    const { uid, cookies } = await openAuthorization(client.authorizationUrl as URL);
    expect(fetched).toBeGreaterThan(0);
    const shown = await fetch(`${served.base}/api/oauth/interactions/${uid}`, { headers: { cookie: `${ada.cookie}; ${cookies}` } });
    expect(await shown.json()).toMatchObject({
      client: { id: documentUrl, name: `Acme Agent (${new URL(documentUrl).host})`, verified: true, redirect_host: '127.0.0.1:33418' },
    });
    const callback = await consentThroughApi(served.base, client.authorizationUrl as URL, ada.cookie);
    expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: callback.searchParams.get('code') ?? '' })).toBe('AUTHORIZED');
    expect((await initializeWith(mcpUrl, client.saved?.access_token ?? '')).status).toBe(200);
    const listed = await t.request('GET', '/api/me/clients', { cookie: ada.cookie });
    expect(listed.body.clients).toEqual([expect.objectContaining({ verified: true, name: `Acme Agent (${new URL(documentUrl).host})` })]);
  });

  it('refuses a client whose document is not there (404), without redirecting', async () => {
    const ada = await t.signUp({ name: 'Ada Missing' });
    const workspaceId = (await t.createWorkspace(ada.cookie, { name: 'Missing' })).id;
    const url = new URL(`${served.base}/oauth/authorize`);
    const query = {
      client_id: documentUrl.replace('client.json', 'missing.json'),
      redirect_uri: CALLBACK,
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'mcp',
      resource: `${served.base}/api/workspaces/${workspaceId}/mcp`,
    };
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('invalid_client');
  });
});
