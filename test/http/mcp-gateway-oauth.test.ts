import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPasswordSessions } from '../../shared/auth/sessions.js';
import { createTestContext, TEST_ADDRESS_HEADER, type TestContext } from '../support/context.js';
import { consentThroughApi, initializeWith, MemoryOAuthClient, openAuthorization } from '../support/mcp-oauth.js';
import { serveOnLoopback } from '../support/served.js';

/*
 * The MCP gateway's sign-in (issue 48): the MCP SDK's own OAuth client against the running
 * service, and the attacks on it. The person's consent is given through the console's API here
 * (test/browser/mcp-gateway.test.ts gives it on the page).
 */

type Person = { cookie: string };
type Admin = Awaited<ReturnType<TestContext['signUp']>>;

let t: TestContext;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let base: string;
let ada: Admin;
let outsider: Person;
let workspaceId: string;
let otherWorkspaceId: string;
let outsiderWorkspaceId: string;

const CALLBACK = 'http://127.0.0.1:33418/callback';
const mcpUrl = (id: string) => `${base}/api/workspaces/${id}/mcp`;

const initialize = (id: string, token: string) => initializeWith(mcpUrl(id), token);

/** A client signed in as `person` to workspace `id`: its tokens. */
async function signIn(person: Person, id: string, client = new MemoryOAuthClient(CALLBACK)) {
  expect(await auth(client, { serverUrl: mcpUrl(id) })).toBe('REDIRECT');
  const callback = await consentThroughApi(base, client.authorizationUrl as URL, person.cookie);
  const code = callback.searchParams.get('code');
  expect(code).toBeTruthy();
  expect(await auth(client, { serverUrl: mcpUrl(id), authorizationCode: code ?? '' })).toBe('AUTHORIZED');
  return { client, tokens: client.saved as NonNullable<MemoryOAuthClient['saved']>, callback };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

beforeAll(async () => {
  t = await createTestContext();
  ada = await t.signUp({ name: 'Ada Gateway' });
  outsider = await t.signUp({ name: 'Olga Outsider' });
  workspaceId = (await t.createWorkspace(ada.cookie, { name: 'Gateway' })).id;
  otherWorkspaceId = (await t.createWorkspace(ada.cookie, { name: 'Gateway two' })).id;
  outsiderWorkspaceId = (await t.createWorkspace(outsider.cookie, { name: 'Elsewhere' })).id;
  served = await serveOnLoopback(t);
  base = served.base;
});
afterAll(async () => {
  await served.close();
  await t.close();
});

describe('discovery', () => {
  it('answers an MCP request without a token with 401 naming the protected resource metadata, which names the service', async () => {
    const response = await fetch(mcpUrl(workspaceId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    const metadataUrl = `${base}/.well-known/oauth-protected-resource/api/workspaces/${workspaceId}/mcp`;
    expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: mcpUrl(workspaceId), authorization_servers: [base], scopes_supported: ['mcp'] });
    const server = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
    });
  });
});

describe('the challenge behind the front door', () => {
  it('names the metadata at the host the front door forwarded (the stream function is not told its public address), and ignores one that is not a host', async () => {
    const challenge = async (forwarded: string) =>
      (
        await fetch(mcpUrl(workspaceId), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-host': forwarded },
          body: '{}',
        })
      ).headers.get('www-authenticate');
    expect(await challenge('d111.cloudfront.net')).toContain(
      `resource_metadata="https://d111.cloudfront.net/.well-known/oauth-protected-resource/api/workspaces/${workspaceId}/mcp"`,
    );
    expect(await challenge('evil.example/"x')).toContain(`resource_metadata="${base}/.well-known/`);
  });
});

describe('sign-in', () => {
  it('signs a person in through registration, consent and PKCE: the code comes back with iss, the token works at its workspace', async () => {
    const { tokens, callback } = await signIn(ada, workspaceId);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('iss')).toBe(base);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBeLessThanOrEqual(600);
    const response = await initialize(workspaceId, tokens.access_token);
    expect(response.status).toBe(200);
    const clients = await t.request('GET', '/api/me/clients', { cookie: ada.cookie });
    expect(clients.body.clients).toEqual([
      expect.objectContaining({ name: 'Test MCP client', verified: false, redirect_host: '127.0.0.1:33418', workspaces: [workspaceId] }),
    ]);
  });

  it.each(['2025-06-18', '2025-11-25'])('speaks protocol version %s with a person signed in', async (version) => {
    const { tokens } = await signIn(ada, workspaceId);
    const response = await initializeWith(mcpUrl(workspaceId), tokens.access_token, version);
    expect(response.status).toBe(200);
    expect((await response.json()).result.protocolVersion).toBe(version);
  });

  it('rotates the refresh token: the old one is refused after its use', async () => {
    const { client, tokens } = await signIn(ada, workspaceId);
    const clientId = client.information?.client_id ?? '';
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: clientId }),
    );
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await initialize(workspaceId, next.access_token)).status).toBe(200);
    const again = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: clientId }),
    );
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
  });

  it('shows the consent request: the client as self-declared, its redirect host and the workspace', async () => {
    const client = new MemoryOAuthClient(CALLBACK, 'Cursor');
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const { uid, cookies } = await openAuthorization(client.authorizationUrl as URL);
    // Through the served address (the issuer is the origin the client found: no PUBLIC_BASE_URL in
    // tests), from the browser that opened the authorization (its cookies).
    const shown = await fetch(`${base}/api/oauth/interactions/${uid}`, { headers: { cookie: `${ada.cookie}; ${cookies}` } });
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      client: { name: 'Cursor', verified: false, redirect_host: '127.0.0.1:33418' },
      workspace: { id: workspaceId, name: 'Gateway' },
    });
    expect((await fetch(`${base}/api/oauth/interactions/${uid}`, { headers: { cookie: cookies } })).status).toBe(401);
  });

  it('sends access_denied when the person denies', async () => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const callback = await consentThroughApi(base, client.authorizationUrl as URL, ada.cookie, 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});

describe('attacks', () => {
  it('refuses a token of workspace A at workspace B, and at another organisation', async () => {
    const { tokens } = await signIn(ada, workspaceId);
    const atB = await initialize(otherWorkspaceId, tokens.access_token);
    expect(atB.status).toBe(401);
    expect(atB.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await initialize(outsiderWorkspaceId, tokens.access_token)).status).toBe(401);
  });

  it("refuses a person's consent to another organisation's workspace (404)", async () => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(outsiderWorkspaceId) });
    const { uid, cookies } = await openAuthorization(client.authorizationUrl as URL);
    const browser = `${ada.cookie}; ${cookies}`;
    expect((await fetch(`${base}/api/oauth/interactions/${uid}`, { headers: { cookie: browser } })).status).toBe(404);
    const decided = await fetch(`${base}/api/oauth/interactions/${uid}`, {
      method: 'POST',
      headers: { cookie: browser, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow' }),
    });
    expect(decided.status).toBe(404);
  });

  it('refuses a replayed code, and revokes what the first exchange gave', async () => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const callback = await consentThroughApi(base, client.authorizationUrl as URL, ada.cookie);
    const exchange = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
      client_id: client.information?.client_id ?? '',
      code_verifier: client.verifier,
      resource: mcpUrl(workspaceId),
    };
    const first = await fetch(`${base}/oauth/token`, form(exchange));
    expect(first.status).toBe(200);
    const { access_token } = await first.json();
    const replay = await fetch(`${base}/oauth/token`, form(exchange));
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await initialize(workspaceId, access_token)).status).toBe(401);
  });

  it("refuses a code exchanged without its verifier, or with another client's id", async () => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const other = new MemoryOAuthClient(CALLBACK);
    await auth(other, { serverUrl: mcpUrl(workspaceId) });
    const callback = await consentThroughApi(base, client.authorizationUrl as URL, ada.cookie);
    const exchange = {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
      client_id: client.information?.client_id ?? '',
      resource: mcpUrl(workspaceId),
    };
    const noVerifier = await fetch(`${base}/oauth/token`, form(exchange));
    expect(noVerifier.status).toBe(400);
    const wrongClient = await fetch(
      `${base}/oauth/token`,
      form({ ...exchange, client_id: other.information?.client_id ?? '', code_verifier: client.verifier }),
    );
    expect(wrongClient.status).toBe(400);
    expect((await wrongClient.json()).error).toBe('invalid_grant');
  });

  it.each([
    ['a path segment', 'http://127.0.0.1:33418/callback/more'],
    ['a port', 'http://127.0.0.1:33419/callback'],
    ['a trailing slash', 'http://127.0.0.1:33418/callback/'],
  ])('refuses a redirect URI that differs by %s, without redirecting', async (_difference, redirect) => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const url = new URL(client.authorizationUrl as URL);
    url.searchParams.set('redirect_uri', redirect);
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri');
  });

  it('refuses an authorization without a resource, or for a resource that is not a workspace endpoint', async () => {
    const client = new MemoryOAuthClient(CALLBACK);
    await auth(client, { serverUrl: mcpUrl(workspaceId) });
    const url = new URL(client.authorizationUrl as URL);
    url.searchParams.delete('resource');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(400);
    url.searchParams.set('resource', `${base}/api/workspaces/${workspaceId}/query`);
    const elsewhere = await fetch(url, { redirect: 'manual' });
    expect(new URL(elsewhere.headers.get('location') ?? '', base).searchParams.get('error')).toBe('invalid_target');
  });

  it('bounds dynamic client registrations per address', async () => {
    const register = () =>
      fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TEST_ADDRESS_HEADER]: '203.0.113.77' },
        body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', client_name: 'flood' }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await register()).status);
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('ends a revoked client at once, and its refresh token', async () => {
    const { client, tokens } = await signIn(ada, otherWorkspaceId, new MemoryOAuthClient(CALLBACK, 'To revoke'));
    expect((await initialize(otherWorkspaceId, tokens.access_token)).status).toBe(200);
    const listed = await t.request('GET', '/api/me/clients', { cookie: ada.cookie });
    const record = listed.body.clients.find((entry: { name: string }) => entry.name === 'To revoke');
    expect((await t.request('DELETE', `/api/me/clients/${record.id}`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await t.request('DELETE', `/api/me/clients/${record.id}`, { cookie: ada.cookie })).status).toBe(200);
    expect((await initialize(otherWorkspaceId, tokens.access_token)).status).toBe(401);
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: client.information?.client_id ?? '' }),
    );
    expect(refreshed.status).toBe(400);
  });

  it("lets an admin see and revoke any person's client, and a member only their own", async () => {
    const member = await t.addMember(ada.cookie, { name: 'Mo Member' });
    const { tokens } = await signIn(member, workspaceId, new MemoryOAuthClient(CALLBACK, 'Member client'));
    expect((await t.request('GET', '/api/org/clients', { cookie: member.cookie })).status).toBe(403);
    const mine = await t.request('GET', '/api/me/clients', { cookie: member.cookie });
    expect(mine.body.clients.map((entry: { name: string }) => entry.name)).toEqual(['Member client']);
    const all = await t.request('GET', '/api/org/clients', { cookie: ada.cookie });
    const record = all.body.clients.find((entry: { name: string }) => entry.name === 'Member client');
    expect(record.user_id).toBe(member.user.id);
    expect((await t.request('DELETE', `/api/org/clients/${record.id}`, { cookie: ada.cookie })).status).toBe(200);
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(401);
  });

  it('revokes a refresh token through the revocation endpoint (RFC 7009)', async () => {
    const { client, tokens } = await signIn(ada, workspaceId);
    const clientId = client.information?.client_id ?? '';
    const revoked = await fetch(`${base}/oauth/revoke`, form({ token: tokens.refresh_token ?? '', client_id: clientId }));
    expect(revoked.status).toBe(200);
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: clientId }),
    );
    expect(refreshed.status).toBe(400);
  });

  it("refuses a removed person's token at once, and their refresh token", async () => {
    const member = await t.addMember(ada.cookie, { name: 'Leaving Member' });
    const { client, tokens } = await signIn(member, workspaceId, new MemoryOAuthClient(CALLBACK, 'Leaver client'));
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(200);
    expect((await t.request('DELETE', `/api/org/users/${member.user.id}`, { cookie: ada.cookie })).status).toBe(200);
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(401);
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: client.information?.client_id ?? '' }),
    );
    expect(refreshed.status).toBe(400);
    expect((await refreshed.json()).error).toBe('invalid_grant');
  });

  it('ends an access token revoked alone (RFC 7009) at once in this process', async () => {
    const { client, tokens } = await signIn(ada, workspaceId);
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(200);
    const revoked = await fetch(
      `${base}/oauth/revoke`,
      form({ token: tokens.access_token, client_id: client.information?.client_id ?? '' }),
    );
    expect(revoked.status).toBe(200);
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(401);
  });

  it('ends a grant given in a password session once the organisation requires single sign-on', async () => {
    const member = await t.addMember(ada.cookie, { name: 'Pat Password' });
    const { client, tokens } = await signIn(member, workspaceId, new MemoryOAuthClient(CALLBACK, 'Password client'));
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(200);
    // What PUT /api/org/sso with required does to everyone but the admin who sets it (test/http/sso.test.ts).
    await endPasswordSessions(t.deps, ada.org.id, [member.user.id]);
    expect((await initialize(workspaceId, tokens.access_token)).status).toBe(401);
    const refreshed = await fetch(
      `${base}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: client.information?.client_id ?? '' }),
    );
    expect((await refreshed.json()).error).toBe('invalid_grant');
  });

  it('refuses a consent given in another browser than the one that started the authorization (a link sent to a victim)', async () => {
    // The attacker starts an authorization with a client of theirs (a loopback redirect, which looks
    // like the victim's own tool) and sends the victim the consent page's address.
    const attacker = new MemoryOAuthClient(CALLBACK, 'Claude Code');
    await auth(attacker, { serverUrl: mcpUrl(workspaceId) });
    const { uid, cookies } = await openAuthorization(attacker.authorizationUrl as URL);
    // The victim, signed in, opens it and allows: their browser holds none of the authorization's cookies.
    const shown = await fetch(`${base}/api/oauth/interactions/${uid}`, { headers: { cookie: ada.cookie } });
    expect(shown.status).toBe(404);
    const decided = await fetch(`${base}/api/oauth/interactions/${uid}`, {
      method: 'POST',
      headers: { cookie: ada.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow' }),
    });
    expect(decided.status).toBe(404);
    // The attacker's browser goes back to the provider: no code for the victim.
    const back = await fetch(`${base}/oauth/authorize/${uid}`, { headers: { cookie: cookies }, redirect: 'manual' });
    expect(new URL(back.headers.get('location') ?? '', base).searchParams.get('code')).toBeNull();
  });
});
