import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealedSecrets } from '../../migrations/009-sealed-secrets.js';
import { connectionById, grantsOfConnection, oauthTokensKey } from '../../shared/connections/entities.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { QueryInput, Table } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeModel, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

/*
 * Issue 28, hole 1: an OAuth grant belongs to the origin it was made for. Before the fix, an admin
 * who changed a per-user OAuth connection's url to a server of their own got 200 `connected`, and
 * the member's next query sent `Authorization: Bearer <the member's token>` there.
 */

type OAuthServer = Awaited<ReturnType<typeof startOAuthMcpServer>>;
type OpenServer = Awaited<ReturnType<typeof startHttpMcpServer>>;

let t: TestContext;
let model: FakeModel;
let server: OAuthServer;
let elsewhere: OpenServer;
beforeAll(async () => {
  model = await startFakeModel();
  server = await startOAuthMcpServer();
  // Another origin that answers anyone, and records every Authorization header it is sent.
  elsewhere = await startHttpMcpServer({ name: 'elsewhere' });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
});
afterAll(async () => {
  await t.close();
  await elsewhere.stop();
  await server.close();
  await model.stop();
});

async function grant(authorizationUrl: string, user: string, cookie: string) {
  const location = new URL(await server.login(authorizationUrl, user));
  const callback = await t.request('GET', `${location.pathname}${location.search}`, { cookie });
  expect(callback.status, callback.text).toBe(200);
}

async function whoami(cookie: string, workspaceId: string) {
  model.reset();
  model.reply(toolUseReply([{ name: 'whoami' }]), textReply('done'));
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'who am I?' } });
  expect(response.status, response.text).toBe(200);
  return response.body as { error: string | null; authorization_url?: string };
}

/** A per-user OAuth connection that the admin and a member have each granted. */
async function grantedByTwo() {
  const admin = await t.signUp();
  const member = await t.addMember(admin.cookie);
  const workspace = await t.createWorkspace(admin.cookie, { name: 'Mail' });
  const saved = await t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspace.id, name: 'Mailbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
  });
  expect(saved.status, saved.text).toBe(201);
  await grant(saved.body.authorization_url, 'alice', admin.cookie);
  const own = await t.request('POST', `/api/connections/${saved.body.id}/authorize`, { cookie: member.cookie });
  await grant(own.body.authorization_url, 'bob', member.cookie);
  expect(await whoami(member.cookie, workspace.id)).toMatchObject({ error: null });
  return { admin, member, workspace, id: saved.body.id as string };
}

const grantsOf = (id: string) => t.deps.table.queryAll(grantsOfConnection(id));

/** Migration 009 on the table as version 8 left it (through `table`: the store's own unless given). */
async function bindOldGrants(table: Table = t.deps.table) {
  await t.deps.table.put({ ...SCHEMA_MARKER, version: 8 });
  return runMigrations(table, [sealedSecrets], { clock: t.clock, secrets: t.deps.secrets });
}

describe('OAuth grants stay with their origin', () => {
  it('deletes every grant and the registered client when the url moves to another origin, and sends no token there', async () => {
    const { admin, member, workspace, id } = await grantedByTwo();
    expect((await grantsOf(id)).length).toBe(3); // the client, alice's and bob's tokens

    const moved = await t.request('PUT', `/api/connections/${id}`, { cookie: admin.cookie, body: { url: elsewhere.url } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.connection).toMatchObject({ status: 'needs_authorization', tool_count: 0, url: elsewhere.url });
    expect(moved.body.connection.last_error).toMatch(/moved to another server/);
    expect(await grantsOf(id)).toEqual([]);

    // The new server answers anyone: the member's query reaches it, without their token.
    await whoami(member.cookie, workspace.id);
    expect(elsewhere.stats.sessions).toBeGreaterThan(0);
    expect(elsewhere.stats.authorizations).toEqual([]);
  });

  it('never hands a token to a url of another origin, however the url changed', async () => {
    const { member, workspace, id } = await grantedByTwo();
    // The item's url changed behind the service's back (a restored backup, a hand edit): the
    // grants are still stored, but they are sealed under the old origin and not handed out.
    const found = await t.deps.table.query<{ pk: string; sk: string }>(connectionById(id));
    const item = found.items[0];
    if (!item) throw new Error('connection not found');
    await t.deps.table.update(
      { pk: item.pk, sk: item.sk },
      { update: 'SET #url = :url', names: { '#url': 'url' }, values: { ':url': elsewhere.url } },
    );
    await t.deps.mcp.drop(id);
    expect((await grantsOf(id)).length).toBe(3);

    const sessionsBefore = elsewhere.stats.sessions;
    await whoami(member.cookie, workspace.id);
    expect(elsewhere.stats.sessions).toBeGreaterThan(sessionsBefore);
    expect(elsewhere.stats.authorizations).toEqual([]);
  });

  it('refuses, at the callback, a grant begun before the connection moved', async () => {
    const { admin, id } = await grantedByTwo();
    const started = await t.request('POST', `/api/connections/${id}/authorize`, { cookie: admin.cookie });
    expect(started.status, started.text).toBe(200);
    const location = new URL(await server.login(started.body.authorization_url, 'alice'));
    const moved = await t.request('PUT', `/api/connections/${id}`, { cookie: admin.cookie, body: { url: elsewhere.url } });
    expect(moved.status, moved.text).toBe(200);
    const callback = await t.request('GET', `${location.pathname}${location.search}`, { cookie: admin.cookie });
    expect(callback.status).toBe(404);
    expect(callback.text).toMatch(/moved to another server/);
    expect(await grantsOf(id)).toEqual([]);
  });

  it('asks for the headers again when a url moves to another origin, so no stored secret follows it', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Headers' });
    const first = await startHttpMcpServer({ name: 'first' });
    try {
      const saved = await t.request('POST', '/api/connectors/mcp', {
        cookie: admin.cookie,
        body: {
          workspace_id: workspace.id,
          name: 'Keyed',
          transport: 'http',
          url: first.url,
          headers: { authorization: 'Bearer s3cret-key' },
        },
      });
      expect(saved.status, saved.text).toBe(201);
      expect(first.stats.authorizations).toContain('Bearer s3cret-key');

      const refused = await t.request('PUT', `/api/connections/${saved.body.id}`, { cookie: admin.cookie, body: { url: elsewhere.url } });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ path: 'headers', message: expect.stringMatching(/give them again/) }]);
      expect(elsewhere.stats.authorizations).toEqual([]);

      // The same origin keeps them; another origin takes the headers given with it.
      const samePlace = await t.request('PUT', `/api/connections/${saved.body.id}`, {
        cookie: admin.cookie,
        body: { url: `${first.url}?v=2` },
      });
      expect(samePlace.status, samePlace.text).toBe(200);
      const withHeaders = await t.request('PUT', `/api/connections/${saved.body.id}`, {
        cookie: admin.cookie,
        body: { url: elsewhere.url, headers: { authorization: 'Bearer other-key' } },
      });
      expect(withHeaders.status, withHeaders.text).toBe(200);
      expect(elsewhere.stats.authorizations).not.toContain('Bearer s3cret-key');
      expect(elsewhere.stats.authorizations).toContain('Bearer other-key');
    } finally {
      await first.stop();
    }
  });

  it('keeps every grant when the move is refused (a name another connection has)', async () => {
    const { admin, workspace, id } = await grantedByTwo();
    await t.connectMcp(admin.cookie, workspace.id, { name: 'Other', transport: 'http', url: elsewhere.url });
    const refused = await t.request('PUT', `/api/connections/${id}`, { cookie: admin.cookie, body: { url: elsewhere.url, name: 'Other' } });
    expect(refused.status).toBe(409);
    expect((await grantsOf(id)).length).toBe(3);
    const listed = await t.request('GET', `/api/workspaces/${workspace.id}/connections`, { cookie: admin.cookie });
    expect(listed.body.connections.find((connection: { id: string }) => connection.id === id)).toMatchObject({
      url: server.url,
      status: 'connected',
    });
  });

  it("binds a grant stored before grants kept their origin to its connection's origin when the table is migrated", async () => {
    const { member, workspace, id } = await grantedByTwo();
    // Made as an older version stored it: sealed without an origin, and none beside it.
    const key = oauthTokensKey(id, `user:${member.user.id}`);
    const stored = await t.deps.table.get<{ sealed: string; origin: string }>(key);
    if (!stored) throw new Error('no stored grant');
    const what = `tokens:user:${member.user.id}`;
    const tokens = await t.deps.secrets.open(stored.sealed, `oauth:${id}:${what}@${stored.origin}`);
    await t.deps.table.put({ ...key, sealed: await t.deps.secrets.seal(tokens, `oauth:${id}:${what}`), updated_at: 'before' });
    expect(await bindOldGrants()).toMatchObject({ moved: 1, left: 0 });

    model.reset();
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('done'));
    const asked = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: member.cookie, body: { query: 'who am I?' } });
    expect(asked.body.error).toBeNull();
    expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user: 'bob' });
    expect(await t.deps.table.get(key)).toMatchObject({ origin: new URL(server.url).origin });
  });

  it('does not bring back, bound to another origin, a grant stored before origins were kept that is deleted while the migration reads it', async () => {
    const { member, id } = await grantedByTwo();
    const key = oauthTokensKey(id, `user:${member.user.id}`);
    const stored = await t.deps.table.get<{ sealed: string; origin: string }>(key);
    if (!stored) throw new Error('no stored grant');
    const what = `tokens:user:${member.user.id}`;
    const tokens = await t.deps.secrets.open(stored.sealed, `oauth:${id}:${what}@${stored.origin}`);
    await t.deps.table.put({ ...key, sealed: await t.deps.secrets.seal(tokens, `oauth:${id}:${what}`), updated_at: 'before' });
    // The connection moves to another origin while the migration reads it: the move is saved (its
    // url changed, its grants deleted) just after the migration read the grant, as it looks up the
    // connection, so the migration finds the new url.
    const table = Object.create(t.deps.table) as Table;
    table.query = async <T extends object>(input: QueryInput) => {
      if (input.pk === connectionById(id).pk) {
        const [connection] = (await t.deps.table.query<{ pk: string; sk: string }>(input)).items;
        if (!connection) throw new Error('connection not found');
        await t.deps.table.update(
          { pk: connection.pk, sk: connection.sk },
          { update: 'SET #url = :url', names: { '#url': 'url' }, values: { ':url': elsewhere.url } },
        );
        await t.deps.table.delete(key);
      }
      return t.deps.table.query<T>(input);
    };
    expect(await bindOldGrants(table)).toMatchObject({ moved: 0, left: 0 });
    expect(await t.deps.table.get(key)).toBeUndefined();
  });
});
