import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { grantContext, grantsOfConnection, oauthClientKey, oauthTokensKey } from '../../shared/connections/entities.js';
import { chatOrganisationEntry, settingKey } from '../../shared/org/setting-entities.js';
import { listChatOrganisations, MASK, maskSecret } from '../../shared/org/settings.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeModel, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

/*
 * Migration 009 on a table at version 8, holding secrets as older versions wrote them: secret
 * settings written before encryption (plain values, some with the listed form migration 006 gave
 * them, some without), and a connection's OAuth client and tokens stored before grants kept their
 * origin (sealed without it, none beside them). Afterwards every one is sealed as this version
 * reads it, and serves where it is used: the model key in a query, the chat tokens where the bridge
 * reads them, each person's tokens at the tool server. Readers no longer take a plain value or an
 * origin-less grant, so without the migration each of these reads as unset (the test fails).
 */

type OAuthServer = Awaited<ReturnType<typeof startOAuthMcpServer>>;

let t: TestContext;
let model: FakeModel;
let server: OAuthServer;

beforeAll(async () => {
  model = await startFakeModel();
  server = await startOAuthMcpServer();
  // No service key to fall back on: a query reaches the model only with the organisation's own key.
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ALLOW_SERVICE_MODEL_KEY: 'false' } });
});
afterAll(async () => {
  await t.close();
  await server.close();
  await model.stop();
});
beforeEach(() => {
  model.reset();
});

/** The table as version 8 left it, brought to this version by the migrations this code lists (as the deploy and the local runtime run them). */
async function migrate(options: { withSecrets?: boolean } = {}) {
  await t.deps.table.put({ ...SCHEMA_MARKER, version: 8 });
  const secrets = options.withSecrets === false ? {} : { secrets: t.deps.secrets };
  return runMigrations(
    t.deps.table,
    MIGRATIONS.filter((migration) => migration.version <= 9),
    { clock: t.clock, ...secrets },
  );
}

const SEALED = /^sealed:v1:/;

/** An organisation with its own model key (this service lends none here). */
async function signUpWithModelKey() {
  const admin = await t.signUp();
  const put = await t.request('PUT', '/api/org/settings/ai_api_key', { cookie: admin.cookie, body: { value: 'sk-ant-own-key-1234' } });
  expect(put.status).toBe(200);
  return admin;
}

describe('migration 009: secrets sealed as this version reads them', () => {
  it('seals secret settings written before encryption: listed masked, used where they are, plain nowhere in the table', async () => {
    const admin = await t.signUp();
    const orgId: string = admin.org.id;
    const plain = {
      ai_api_key: 'sk-ant-legacy-plain-value-9876',
      chat_bot_token: 'xoxb-legacy-bot-token-5432',
      chat_app_token: 'xapp-legacy-app-token-1098',
      webhook_secret: 'whsec-legacy-0000-7777',
    };
    const at = t.clock.now().toISOString();
    /** A setting as a version before stored it. */
    const putSetting = (key: string, value: string, more: Record<string, string> = {}) =>
      t.deps.table.put({ ...settingKey(orgId, key), key, value, updated_at: at, ...more });
    // As the versions before encryption wrote them; migration 006 gave the first two their listed form.
    await putSetting('ai_api_key', plain.ai_api_key, { masked: maskSecret(plain.ai_api_key) });
    await putSetting('chat_bot_token', plain.chat_bot_token, { masked: maskSecret(plain.chat_bot_token) });
    await putSetting('chat_app_token', plain.chat_app_token, chatOrganisationEntry(orgId));
    await putSetting('webhook_secret', plain.webhook_secret);
    // Not secrets, and one sealed already: left as they are.
    await putSetting('ai_provider', 'anthropic');
    const sealedBefore = await t.deps.secrets.seal('sk-already-sealed-3333', `setting:${orgId}:other_key`);
    await putSetting('other_key', sealedBefore, { masked: MASK });
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Legacy secrets' });
    const ask = () => t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hi' } });

    // Before the migration, a plain value is not read: the key is unset, the chat is not connected.
    const unset = await ask();
    expect(unset.status).toBe(200);
    expect(unset.body.error).toMatch(/an admin sets one in Organisation → Settings → Model \(the setting ai_api_key/);
    expect(model.requests).toEqual([]);
    expect((await listChatOrganisations(t.deps)).filter((organisation) => organisation.orgId === orgId)).toEqual([]);
    // Sealing needs the deployment's key: a run without it fails, and says so.
    await expect(migrate({ withSecrets: false })).rejects.toThrow(/needs the deployment's key/);

    expect(await migrate()).toMatchObject({ from: 8, to: 9, moved: 4, left: 0 });
    // Again (a marker lost, a run repeated): nothing is left to rewrite.
    expect(await migrate()).toMatchObject({ from: 8, to: 9, moved: 0, left: 0 });

    for (const key of Object.keys(plain)) {
      const item = await t.deps.table.get(settingKey(orgId, key));
      expect(String(item?.value)).toMatch(SEALED);
    }
    expect(await t.deps.table.get(settingKey(orgId, 'other_key'))).toMatchObject({ value: sealedBefore });
    expect(await t.deps.table.get(settingKey(orgId, 'ai_provider'))).toMatchObject({ value: 'anthropic' });
    const stored = JSON.stringify(await t.scanTable());
    for (const secret of Object.values(plain)) expect(stored).not.toContain(secret);

    const listed = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(listed.body.settings).toMatchObject({
      ai_api_key: '••••••••9876',
      chat_bot_token: '••••••••5432',
      chat_app_token: '••••••••1098',
      webhook_secret: '••••••••7777',
      other_key: MASK,
      ai_provider: 'anthropic',
    });
    expect(listed.text).not.toContain('legacy');

    model.reply(textReply('answered with the sealed key'));
    const answer = await ask();
    expect(answer.body).toMatchObject({ answer: 'answered with the sealed key', error: null });
    expect(model.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${plain.ai_api_key}`]);
    expect((await listChatOrganisations(t.deps)).filter((organisation) => organisation.orgId === orgId)).toEqual([
      { orgId, botToken: plain.chat_bot_token, appToken: plain.chat_app_token },
    ]);
  });

  it("binds OAuth clients and tokens stored before origins were kept to their connection's origin, and deletes those of a connection gone", async () => {
    const admin = await signUpWithModelKey();
    const member = await t.addMember(admin.cookie);
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Mail' });
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: workspace.id, name: 'Mailbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
    });
    expect(saved.status, saved.text).toBe(201);
    const id: string = saved.body.id;
    const grant = async (authorizationUrl: string, user: string, cookie: string) => {
      const location = new URL(await server.login(authorizationUrl, user));
      expect((await t.request('GET', `${location.pathname}${location.search}`, { cookie })).status).toBe(200);
    };
    await grant(saved.body.authorization_url, 'alice', admin.cookie);
    const own = await t.request('POST', `/api/connections/${id}/authorize`, { cookie: member.cookie });
    await grant(own.body.authorization_url, 'bob', member.cookie);
    const origin = new URL(server.url).origin;

    // The client and both grants, as an older version stored them: sealed without an origin, and none beside them.
    const items = [
      { key: oauthClientKey(id), what: 'client' },
      { key: oauthTokensKey(id, `user:${admin.user.id}`), what: `tokens:user:${admin.user.id}` },
      { key: oauthTokensKey(id, `user:${member.user.id}`), what: `tokens:user:${member.user.id}` },
    ];
    const secrets: string[] = [];
    for (const { key, what } of items) {
      const stored = await t.deps.table.get<{ sealed: string; origin: string }>(key);
      if (!stored) throw new Error(`no stored ${what}`);
      expect(stored.origin).toBe(origin);
      const secret = await t.deps.secrets.open(stored.sealed, grantContext(id, what, origin));
      secrets.push(secret);
      await t.deps.table.put({ ...key, sealed: await t.deps.secrets.seal(secret, `oauth:${id}:${what}`), updated_at: 'before' });
    }
    // Tokens of a connection deleted since (nothing can read them any more).
    const gone = oauthTokensKey('conn_gone', 'workspace');
    await t.deps.table.put({
      ...gone,
      sealed: await t.deps.secrets.seal('{"access_token":"t"}', 'oauth:conn_gone:tokens:workspace'),
      updated_at: 'before',
    });
    await t.deps.mcp.drop(id);

    expect(await migrate()).toMatchObject({ from: 8, to: 9, moved: 4, left: 0 });
    expect(await migrate()).toMatchObject({ from: 8, to: 9, moved: 0, left: 0 });

    // Each is bound to the connection's origin and sealed under it, holding what it held.
    for (const [index, { key, what }] of items.entries()) {
      const stored = await t.deps.table.get<{ sealed: string; origin: string; updated_at: string }>(key);
      expect(stored).toMatchObject({ origin, updated_at: 'before', sealed: expect.stringMatching(SEALED) });
      expect(await t.deps.secrets.open(String(stored?.sealed), grantContext(id, what, origin))).toBe(secrets[index]);
    }
    expect(await t.deps.table.get(gone)).toBeUndefined();
    expect((await t.deps.table.queryAll(grantsOfConnection(id))).length).toBe(3);

    // The tool server gets each person's own token.
    for (const [cookie, user] of [
      [member.cookie, 'bob'],
      [admin.cookie, 'alice'],
    ] as const) {
      model.reset();
      model.reply(toolUseReply([{ name: 'whoami' }]), textReply('done'));
      const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie, body: { query: 'who am I?' } });
      expect(answer.body.error).toBeNull();
      expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user });
    }
  });

  it('leaves, and counts, an origin-less grant that does not open: nothing sends it, and the person is asked to grant again', async () => {
    const admin = await signUpWithModelKey();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Altered' });
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: workspace.id, name: 'Inbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
    });
    expect(saved.status, saved.text).toBe(201);
    const id: string = saved.body.id;
    const location = new URL(await server.login(saved.body.authorization_url, 'carol'));
    expect((await t.request('GET', `${location.pathname}${location.search}`, { cookie: admin.cookie })).status).toBe(200);
    const key = oauthTokensKey(id, `user:${admin.user.id}`);
    const stored = await t.deps.table.get<{ sealed: string; origin: string }>(key);
    if (!stored) throw new Error('no stored grant');
    const what = `tokens:user:${admin.user.id}`;
    const tokens = await t.deps.secrets.open(stored.sealed, grantContext(id, what, stored.origin));
    // Sealed for another item (copied in, or altered): it opens under no context of this one.
    const altered = await t.deps.secrets.seal(tokens, `oauth:conn_other:${what}`);
    await t.deps.table.put({ ...key, sealed: altered, updated_at: 'before' });
    await t.deps.mcp.drop(id);

    expect(await migrate()).toMatchObject({ from: 8, to: 9, moved: 0, left: 1 });
    expect(await t.deps.table.get(key)).toEqual({ ...key, sealed: altered, updated_at: 'before' });

    const calls = server.toolCalls.length;
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('done'));
    const asked = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'who am I?' } });
    expect(asked.status).toBe(200);
    expect(asked.body.error).toMatch(/"Inbox" needs your authorization/);
    expect(asked.body.authorization_url).toEqual(expect.stringContaining('code_challenge='));
    expect(server.toolCalls.length).toBe(calls);
    // A new grant replaces it, bound to the origin.
    const again = new URL(await server.login(asked.body.authorization_url, 'carol'));
    expect((await t.request('GET', `${again.pathname}${again.search}`, { cookie: admin.cookie })).status).toBe(200);
    expect(await t.deps.table.get(key)).toMatchObject({ origin: new URL(server.url).origin });
  });
});
