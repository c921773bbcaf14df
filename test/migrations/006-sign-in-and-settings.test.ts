import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAndSettings } from '../../migrations/006-sign-in-and-settings.js';
import { endPasswordSessions } from '../../shared/auth/sessions.js';
import { settingKey } from '../../shared/org/setting-entities.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { unlessConditionFailed } from '../../shared/platform/table.js';
import { claimUpdate, ssoDomainKey } from '../../shared/auth/sso/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Migration 006 on a table as the version before wrote it: a session without `method` (kept
 * before it was), a single sign-on domain claim without a version, secret settings without their
 * listed form (one plain, written before encryption; one sealed). Afterwards the session is still
 * a password session, the claim is still older than any change, and the settings list, and
 * serve, as they did.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const migrate = () => runMigrations(t.deps.table, [signInAndSettings], { clock: t.clock });

/** The admin's session item, rewritten as the version before wrote it: without `method`. */
async function sessionOfBefore(userId: string) {
  const sessions = (await t.scanTable()).filter((item) => String(item.pk).startsWith('SESSION#') && item.user_id === userId);
  expect(sessions).toHaveLength(1);
  const { method, ...before } = sessions[0] as { pk: string; sk: string; method?: string };
  expect(method).toBe('password');
  await t.deps.table.put(before);
  return before;
}

describe('migration 006: sessions and setting masks', () => {
  it('records a session of before as a password session, and gives secret settings of before their listed form', async () => {
    const admin = await t.signUp();
    const session = await sessionOfBefore(admin.user.id);
    const orgId: string = admin.org.id;
    const plain = 'sk-ant-legacy-plain-value-9876';
    await t.deps.table.put({
      ...settingKey(orgId, 'ai_api_key'),
      key: 'ai_api_key',
      value: plain,
      updated_at: t.clock.now().toISOString(),
    });
    const sealed = await t.deps.secrets.seal('xoxb-sealed-bot-token-1234', `setting:${orgId}:chat_bot_token`);
    await t.deps.table.put({ ...settingKey(orgId, 'chat_bot_token'), key: 'chat_bot_token', value: sealed, updated_at: 'T' });
    await t.deps.table.put({ ...settingKey(orgId, 'ai_provider'), key: 'ai_provider', value: 'anthropic', updated_at: 'T' });
    const domain = `${orgId.toLowerCase()}.example`;
    await t.deps.table.put({ ...ssoDomainKey(domain), domain, org_id: orgId });

    const report = await migrate();
    expect(report).toMatchObject({ from: 1, to: 6, moved: 4, left: 0 });
    expect(await migrate()).toMatchObject({ ran: [], moved: 0 });
    // Run again from the start (a marker lost): nothing is left to rewrite.
    await t.deps.table.delete(SCHEMA_MARKER);
    expect(await migrate()).toMatchObject({ to: 6, moved: 0 });

    expect(await t.deps.table.get({ pk: session.pk, sk: session.sk }, true)).toMatchObject({ method: 'password' });
    const listed = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(listed.body.settings).toMatchObject({ ai_api_key: '••••••••9876', chat_bot_token: '••••••••', ai_provider: 'anthropic' });
    expect(await t.deps.table.get(settingKey(orgId, 'ai_provider'))).not.toHaveProperty('masked');
    // As the version before listed them. 006 leaves the plain value as it is (009 seals it).
    expect(await t.deps.table.get(settingKey(orgId, 'ai_api_key'))).toMatchObject({ value: plain });

    // The claim is older than any change: its organisation's first takes it, another organisation's does not.
    expect(await t.deps.table.get(ssoDomainKey(domain), true)).toMatchObject({ org_id: orgId, version: 0 });
    const claim = (by: string) => {
      const { key, input } = claimUpdate(by, domain, 1);
      return unlessConditionFailed(
        t.deps.table.update(key, input).then(() => true),
        false,
      );
    };
    expect(await claim('org_someone_else')).toBe(false);
    expect(await claim(orgId)).toBe(true);

    // The session works, as a password session: requiring single sign-on ends it.
    expect((await t.request('GET', '/api/auth/session', { cookie: admin.cookie })).body).toMatchObject({ user: { id: admin.user.id } });
    await endPasswordSessions(t.deps, orgId, [admin.user.id]);
    expect((await t.request('GET', '/api/auth/session', { cookie: admin.cookie })).body).toBeNull();
  });
});
