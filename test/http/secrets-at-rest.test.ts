import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAndSettings } from '../../migrations/006-sign-in-and-settings.js';
import { sealedSecrets } from '../../migrations/009-sealed-secrets.js';
import { settingKey } from '../../shared/org/setting-entities.js';
import { runMigrations } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeModel, startFakeModel, textReply } from '../support/fake-model.js';

let t: TestContext;
let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel();
  // No service key to fall back on: a query reaches the model only with the organisation's own key.
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ALLOW_SERVICE_MODEL_KEY: 'false' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});

const SECRETS = ['sk-ant-secret-value-0001-abcd', 'xoxb-bot-token-value-0002-wxyz', 'xapp-app-token-value-0003-qrst'];

describe('secrets at rest', () => {
  it('keeps secret settings sealed in the table, masked in listings, and usable by the service', async () => {
    const admin = await t.signUp();
    const put = (key: string, value: string) => t.request('PUT', `/api/org/settings/${key}`, { cookie: admin.cookie, body: { value } });
    expect((await put('ai_api_key', SECRETS[0] as string)).status).toBe(200);
    expect((await put('chat_bot_token', SECRETS[1] as string)).status).toBe(200);
    expect((await put('chat_app_token', SECRETS[2] as string)).status).toBe(200);
    expect((await put('ai_provider', 'anthropic')).status).toBe(200);

    const listed = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(listed.body.settings).toMatchObject({ ai_api_key: '••••••••abcd', chat_bot_token: '••••••••wxyz', ai_provider: 'anthropic' });
    expect(listed.text).not.toContain('secret-value');

    const workspace = await t.createWorkspace(admin.cookie, { name: 'Sealed' });
    model.reply(textReply('answered with the opened key'));
    const before = model.requests.length;
    const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hi' } });
    expect(answer.body).toMatchObject({ answer: 'answered with the opened key', error: null });
    expect(model.requests.slice(before).map((request) => request.headers.authorization)).toEqual([`Bearer ${SECRETS[0]}`]);

    const stored = JSON.stringify(await t.scanTable());
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    const item = await t.deps.table.get(settingKey(admin.org.id, 'ai_api_key'));
    expect(String(item?.value)).toMatch(/^sealed:v1:/);
  });

  it('seals a setting written before encryption when the table is migrated: listed masked, and used as it was', async () => {
    const admin = await t.signUp();
    const legacy = 'sk-ant-legacy-plain-value-9876';
    await t.deps.table.put({
      ...settingKey(admin.org.id, 'ai_api_key'),
      key: 'ai_api_key',
      value: legacy,
      updated_at: t.clock.now().toISOString(),
    });
    // As the version before wrote it (no listed form), brought to this version's shape: its listed form kept (006), sealed (009).
    await runMigrations(t.deps.table, [signInAndSettings, sealedSecrets], { clock: t.clock, secrets: t.deps.secrets });
    expect(JSON.stringify(await t.scanTable())).not.toContain(legacy);
    expect(String((await t.deps.table.get(settingKey(admin.org.id, 'ai_api_key')))?.value)).toMatch(/^sealed:v1:/);
    const listed = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(listed.body.settings.ai_api_key).toBe('••••••••9876');

    const workspace = await t.createWorkspace(admin.cookie, { name: 'Legacy' });
    model.reply(textReply('legacy key works'));
    const before = model.requests.length;
    await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hi' } });
    expect(model.requests.slice(before).map((request) => request.headers.authorization)).toEqual([`Bearer ${legacy}`]);

    await t.request('PUT', '/api/org/settings/ai_api_key', { cookie: admin.cookie, body: { value: legacy } });
    expect(JSON.stringify(await t.scanTable())).not.toContain(legacy);
  });

  it("does not open a sealed value moved into another organisation's item: the setting reads as unset", async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    await t.request('PUT', '/api/org/settings/ai_api_key', { cookie: a.cookie, body: { value: 'sk-ant-owned-by-a-0000' } });
    const sealed = await t.deps.table.get(settingKey(a.org.id, 'ai_api_key'));
    await t.deps.table.put({ ...sealed, ...settingKey(b.org.id, 'ai_api_key') });
    const workspace = await t.createWorkspace(b.cookie, { name: 'Copied' });
    const before = model.requests.length;
    const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: b.cookie, body: { query: 'hi' } });
    expect(answer.status).toBe(200);
    expect(answer.body.error).toMatch(/an admin sets one in Organisation → Settings → Model \(the setting ai_api_key/);
    expect(model.requests.slice(before)).toEqual([]);
  });
});
