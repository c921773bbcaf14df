import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeModel, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

type OAuthServer = Awaited<ReturnType<typeof startOAuthMcpServer>>;

let t: TestContext;
let model: FakeModel;
let server: OAuthServer;
beforeAll(async () => {
  model = await startFakeModel();
  server = await startOAuthMcpServer();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
});
afterAll(async () => {
  await t.close();
  await server.close();
  await model.stop();
});

/** The callback the authorization server sends the browser to, as a path of this service. */
async function grantAs(authorizationUrl: string, user: string): Promise<string> {
  const location = new URL(await server.login(authorizationUrl, user));
  expect(location.pathname).toBe('/api/connectors/mcp/oauth/callback');
  return `${location.pathname}${location.search}`;
}

async function setup() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: 'OAuth tools' });
  const saved = await t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspace.id, name: 'Tracker', transport: 'http', url: server.url, auth: 'oauth' },
  });
  expect(saved.status, saved.text).toBe(201);
  return { admin, workspace, saved: saved.body as { status: string; id: string; authorization_url: string; tools: number } };
}

async function connectionOf(cookie: string, workspaceId: string, id: string) {
  const listed = await t.request('GET', `/api/workspaces/${workspaceId}/connections`, { cookie });
  return (listed.body.connections as { id: string; status: string; last_error: string | null; tool_count: number }[]).find(
    (c) => c.id === id,
  );
}

/** A query that makes the model call whoami; answers the tool result the model got back (or the query's error). */
async function whoami(cookie: string, workspaceId: string) {
  model.reset();
  model.reply(toolUseReply([{ name: 'whoami' }]), textReply('done'));
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'who am I?' } });
  expect(response.status, response.text).toBe(200);
  const results = (model.requests[1]?.body.messages.at(-1)?.content ?? []) as { content: string; is_error: boolean }[];
  return { error: response.body.error as string | null, result: results[0] };
}

describe('OAuth 2.1 connections (workspace grant)', () => {
  it('discovers the authorization server from the 401, registers, and answers an authorization URL with PKCE and the resource', async () => {
    const { admin, workspace, saved } = await setup();
    expect(saved).toMatchObject({ status: 'authorization_required', tools: 0 });
    const url = new URL(saved.authorization_url);
    expect(url.origin).toBe(new URL(server.issuer).origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(server.url);
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/api\/connectors\/mcp\/oauth\/callback$/);
    expect(server.registeredClients().length).toBeGreaterThanOrEqual(1);
    expect(await connectionOf(admin.cookie, workspace.id, saved.id)).toMatchObject({
      status: 'needs_authorization',
      auth: 'oauth',
      credential: 'workspace',
      tool_count: 0,
    });
  });

  it('finishes the grant at the callback, lists the tools, calls them with the token, refreshes it, and asks again once the grant is revoked', async () => {
    const { admin, workspace, saved } = await setup();
    const callback = await t.request('GET', await grantAs(saved.authorization_url, 'alice'), { cookie: admin.cookie });
    expect(callback.status, callback.text).toBe(200);
    expect(callback.headers.get('content-type')).toMatch(/text\/html/);
    expect(callback.text).toContain('is connected');
    const connected = await connectionOf(admin.cookie, workspace.id, saved.id);
    expect(connected).toMatchObject({ status: 'connected', last_error: null });
    expect(connected?.tool_count).toBeGreaterThan(1);

    expect(await whoami(admin.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'alice', is_error: false } });

    // The access token expires: the transport refreshes it and the call goes through.
    const refreshesBefore = server.issuedTokens().filter((token) => token.grant === 'refresh_token').length;
    server.expireAccessTokens();
    expect(await whoami(admin.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'alice' } });
    expect(server.issuedTokens().filter((token) => token.grant === 'refresh_token').length).toBe(refreshesBefore + 1);

    // The refresh token is revoked too: a new session cannot be made, the query says what to do.
    await t.deps.mcp.drop(saved.id);
    server.revokeRefreshTokens();
    server.expireAccessTokens();
    const refused = await whoami(admin.cookie, workspace.id);
    expect(refused.error).toMatch(/"Tracker" needs authorization/);
    expect(await connectionOf(admin.cookie, workspace.id, saved.id)).toMatchObject({ status: 'needs_authorization' });

    // An admin grants it again.
    const again = await t.request('POST', `/api/connections/${saved.id}/authorize`, { cookie: admin.cookie });
    expect(again.status, again.text).toBe(200);
    const callbackAgain = await t.request('GET', await grantAs(again.body.authorization_url, 'bob'), { cookie: admin.cookie });
    expect(callbackAgain.status, callbackAgain.text).toBe(200);
    expect(await whoami(admin.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'bob' } });
    expect(await connectionOf(admin.cookie, workspace.id, saved.id)).toMatchObject({ status: 'connected' });
  });

  it('takes a callback only once, only within its time, only from the user who started it', async () => {
    const { admin, saved } = await setup();
    const member = await t.addMember(admin.cookie);
    const callback = await grantAs(saved.authorization_url, 'alice');
    const stranger = await t.request('GET', callback, { cookie: member.cookie });
    expect(stranger.status).toBe(403);
    // The state was taken by that attempt: the link is spent.
    const reused = await t.request('GET', callback, { cookie: admin.cookie });
    expect(reused.status).toBe(404);

    const later = await t.request('POST', `/api/connections/${saved.id}/authorize`, { cookie: admin.cookie });
    const lateCallback = await grantAs(later.body.authorization_url, 'alice');
    t.clock.advance(11 * 60 * 1000);
    expect((await t.request('GET', lateCallback, { cookie: admin.cookie })).status).toBe(404);
    expect((await t.request('GET', '/api/connectors/mcp/oauth/callback?error=access_denied&state=x')).status).toBe(400);
    expect((await t.request('POST', `/api/connections/${saved.id}/authorize`, { cookie: member.cookie })).status).toBe(403);
  });

  it('keeps the tokens and the registered client sealed in the table', async () => {
    const { admin, saved } = await setup();
    await t.request('GET', await grantAs(saved.authorization_url, 'carol'), { cookie: admin.cookie });
    const stored = JSON.stringify(await t.scanTable());
    const tokens = server.issuedTokens().filter((token) => token.user === 'carol');
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) {
      expect(stored).not.toContain(token.accessToken);
      if (token.refreshToken) expect(stored).not.toContain(token.refreshToken);
    }
    for (const client of server.registeredClients()) if (client.client_secret) expect(stored).not.toContain(client.client_secret);
  });

  it('refuses oauth on a stdio connection, and client credentials without oauth', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Refusals' });
    const stdio = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: {
        workspace_id: workspace.id,
        name: 'x',
        transport: 'stdio',
        command: 'node',
        args: ['servers/orders-mcp-server.mjs'],
        auth: 'oauth',
      },
    });
    expect(stdio.status).toBe(400);
    expect(stdio.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'auth' })]));
    const stray = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: workspace.id, name: 'y', transport: 'http', url: server.url, oauth_client_id: 'abc' },
    });
    expect(stray.status).toBe(400);
  });
});

describe('OAuth 2.1 connections (per-user grants)', () => {
  it('gives each person their own grant: a query without one answers the authorization URL, and tools act as whoever asks', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Per user' });
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: workspace.id, name: 'Mailbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
    });
    expect(saved.status, saved.text).toBe(201);
    const listed = await t.request('GET', `/api/workspaces/${workspace.id}/connections`, { cookie: member.cookie });
    expect(listed.body.connections).toMatchObject([{ id: saved.body.id, auth: 'oauth', credential: 'per_user' }]);
    // The admin's own grant, started by the save.
    expect((await t.request('GET', await grantAs(saved.body.authorization_url, 'alice'), { cookie: admin.cookie })).status).toBe(200);
    expect(await whoami(admin.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'alice' } });

    // The member has no grant: the query says so and answers a URL only they can finish.
    model.reset();
    const asked = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: member.cookie, body: { query: 'who am I?' } });
    expect(asked.status).toBe(200);
    expect(asked.body.error).toMatch(/"Mailbox" needs your authorization/);
    expect(asked.body.authorization_url).toEqual(expect.stringContaining('code_challenge='));
    expect(model.requests).toEqual([]);
    const memberCallback = await grantAs(asked.body.authorization_url, 'bob');
    expect((await t.request('GET', memberCallback, { cookie: admin.cookie })).status).toBe(403);

    // They grant it themselves (a member may start their own grant of a per-user connection).
    const own = await t.request('POST', `/api/connections/${saved.body.id}/authorize`, { cookie: member.cookie });
    expect(own.status, own.text).toBe(200);
    expect((await t.request('GET', await grantAs(own.body.authorization_url, 'bob'), { cookie: member.cookie })).status).toBe(200);
    expect(await whoami(member.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'bob' } });
    // Neither uses the other's token.
    expect(await whoami(admin.cookie, workspace.id)).toMatchObject({ error: null, result: { content: 'alice' } });
    const calls = server.toolCalls
      .filter((call) => call.tool === 'whoami')
      .slice(-3)
      .map((call) => call.user);
    expect(calls).toEqual(['alice', 'bob', 'alice']);
  });

  it("keeps a member from starting a grant of a connection's own (workspace) access", async () => {
    const { admin, saved } = await setup();
    const member = await t.addMember(admin.cookie);
    expect((await t.request('POST', `/api/connections/${saved.id}/authorize`, { cookie: member.cookie })).status).toBe(403);
  });
});
