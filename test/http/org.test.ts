import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const MASK = '••••••••';
const KNOWN_UNSET = { ai_api_key: false, ai_provider: false, chat_bot_token: false, chat_app_token: false, alerts_webhook_url: false };

function detailPaths(response: ApiResponse): string[] {
  return (response.body?.details ?? []).map((detail: { path: string }) => detail.path);
}

function expectForbidden(response: ApiResponse) {
  expect(response.status).toBe(403);
  expect(response.body).toEqual({ error: expect.any(String) });
}

/** Ids sort by creation time; the test clock stands still, so move it between creations as real time would. */
function tick() {
  t.clock.advance(1);
}

describe('public endpoints', () => {
  it('GET /health answers { status: "ok" } without a cookie', async () => {
    const response = await t.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /api/models lists fast, balanced (the one default) and powerful with prices, without a cookie', async () => {
    const response = await t.request('GET', '/api/models');
    expect(response.status).toBe(200);
    const models = response.body.models as Array<Record<string, unknown>>;
    expect(models.map((model) => model.id).sort()).toEqual(['balanced', 'fast', 'powerful']);
    expect(models.filter((model) => model.default === true).map((model) => model.id)).toEqual(['balanced']);
    for (const model of models) {
      expect(Object.keys(model).sort()).toEqual(
        ['default', 'id', 'input_cost_per_mtok', 'model', 'name', 'output_cost_per_mtok', 'provider'].sort(),
      );
      expect(model.default).toBeTypeOf('boolean');
      for (const field of ['name', 'provider', 'model']) expect(model[field]).toMatch(/\S/);
      for (const field of ['input_cost_per_mtok', 'output_cost_per_mtok']) expect(model[field]).toBeGreaterThan(0);
    }
  });
});

describe('/api/org', () => {
  it('GET answers the caller’s organisation', async () => {
    const admin = await t.signUp({ org_name: 'Org Reader Ltd' });
    const response = await t.request('GET', '/api/org', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      org: { id: admin.org.id, name: 'Org Reader Ltd', slug: admin.org.slug, created_at: admin.org.created_at },
    });
    expect(new Date(response.body.org.created_at).toISOString()).toBe(response.body.org.created_at);
  });

  it('PUT renames (trimmed) and keeps the slug, id and created_at', async () => {
    const admin = await t.signUp({ org_name: 'Old Name Inc' });
    const response = await t.request('PUT', '/api/org', { cookie: admin.cookie, body: { name: '  New Name GmbH  ' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ org: { ...admin.org, name: 'New Name GmbH' } });
    expect(response.body.org.slug).toBe('old-name-inc');
    const after = await t.request('GET', '/api/org', { cookie: admin.cookie });
    expect(after.body.org).toEqual({ ...admin.org, name: 'New Name GmbH' });
    const longest = await t.request('PUT', '/api/org', { cookie: admin.cookie, body: { name: 'n'.repeat(100) } });
    expect(longest.body.org).toEqual({ ...admin.org, name: 'n'.repeat(100) });
  });

  it.each([
    ['empty', { name: '' }],
    ['blank', { name: '   ' }],
    ['too long', { name: 'n'.repeat(101) }],
    ['missing', {}],
    ['not a string', { name: 42 }],
  ])('PUT answers 400 naming the field when the name is %s, and changes nothing', async (_case, body) => {
    const admin = await t.signUp();
    const response = await t.request('PUT', '/api/org', { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid request body');
    expect(detailPaths(response)).toContain('name');
    expect((await t.request('GET', '/api/org', { cookie: admin.cookie })).body.org.name).toBe(admin.org.name);
  });

  it('lets a member read but not rename the organisation', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const read = await t.request('GET', '/api/org', { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(read.body.org.id).toBe(admin.org.id);
    expectForbidden(await t.request('PUT', '/api/org', { cookie: member.cookie, body: { name: 'Hijacked' } }));
    expect((await t.request('GET', '/api/org', { cookie: admin.cookie })).body.org.name).toBe(admin.org.name);
  });

  it('answers 401 without a cookie', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'x' }],
    ] as const) {
      const response = await t.request(method, '/api/org', { body });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'authentication required' });
    }
  });
});

describe('/api/org/settings', () => {
  const settingsOf = async (cookie: string) => t.request('GET', '/api/org/settings', { cookie });
  const put = (cookie: string, key: string, value: unknown) => t.request('PUT', `/api/org/settings/${key}`, { cookie, body: { value } });

  it("says whether the service's own model key answers while ai_api_key is not set", async () => {
    for (const [env, lent] of [
      [{ ANTHROPIC_API_KEY: 'sk-operator', ALLOW_SERVICE_MODEL_KEY: 'true' }, true],
      [{ ANTHROPIC_API_KEY: 'sk-operator', ALLOW_SERVICE_MODEL_KEY: 'false' }, false],
      [{ ALLOW_SERVICE_MODEL_KEY: 'true' }, false],
    ] as const) {
      const context = await createTestContext({ env });
      try {
        const admin = await context.signUp();
        const response = await context.request('GET', '/api/org/settings', { cookie: admin.cookie });
        expect(response.body.service_model_key, JSON.stringify(env)).toBe(lent);
        expect(response.text).not.toContain('sk-operator');
      } finally {
        await context.close();
      }
    }
  });

  it('starts with no settings and the five known keys not configured', async () => {
    const admin = await t.signUp();
    const response = await settingsOf(admin.cookie);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ settings: {}, configured: KNOWN_UNSET, service_model_key: false });
  });

  it('masks secrets (mask + last 4, or the bare mask up to 8 chars) and never answers or logs them in full', async () => {
    const admin = await t.signUp();
    const secrets: Record<string, string> = {
      ai_api_key: 'sk-ant-api03-Secret0123456789ABCD',
      chat_bot_token: 'xoxb-1234567890-botTokenValueWXYZ',
      chat_app_token: 'xapp1abc9',
      db_password: 'Pw12345x',
      webhook_secret: 'q',
    };
    const responses: ApiResponse[] = [];
    for (const [key, value] of Object.entries(secrets)) {
      const response = await put(admin.cookie, key, value);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
      responses.push(response);
    }
    const listed = await settingsOf(admin.cookie);
    expect(listed.body).toEqual({
      settings: {
        ai_api_key: `${MASK}ABCD`,
        chat_bot_token: `${MASK}WXYZ`,
        chat_app_token: `${MASK}abc9`,
        db_password: MASK,
        webhook_secret: MASK,
      },
      configured: { ...KNOWN_UNSET, ai_api_key: true, chat_bot_token: true, chat_app_token: true, db_password: true, webhook_secret: true },
      service_model_key: false,
    });
    responses.push(
      listed,
      await t.request('GET', '/api/org', { cookie: admin.cookie }),
      await t.request('GET', '/api/auth/session', { cookie: admin.cookie }),
      await t.request('GET', '/api/org/users', { cookie: admin.cookie }),
      await t.request('GET', '/api/teams', { cookie: admin.cookie }),
      await t.request('DELETE', '/api/org/settings/webhook_secret', { cookie: admin.cookie }),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const logs = t.logger.text();
    for (const value of Object.values(secrets).filter((secret) => secret.length > 1)) {
      for (const response of responses) expect(response.text).not.toContain(value);
      expect(logs).not.toContain(value);
    }
  });

  it('shows non-secret values in plain, including keys that only contain a secret word', async () => {
    const admin = await t.signUp();
    const plain: Array<[string, string]> = [
      ['ai_provider', 'bedrock'],
      ['some_flag', 'on'],
      ['token_limit', '5000'],
      ['keyboard', 'qwerty'],
    ];
    for (const [key, value] of plain) {
      expect((await put(admin.cookie, key, value)).status).toBe(200);
    }
    const listed = await settingsOf(admin.cookie);
    expect(listed.body.settings).toEqual({ ai_provider: 'bedrock', some_flag: 'on', token_limit: '5000', keyboard: 'qwerty' });
    expect(listed.body.configured).toMatchObject({ ai_provider: true, ai_api_key: false, some_flag: true });
  });

  it('accepts ai_provider anthropic or bedrock and rejects anything else on path "value"', async () => {
    const admin = await t.signUp();
    for (const value of ['anthropic', 'bedrock']) {
      expect((await put(admin.cookie, 'ai_provider', value)).status).toBe(200);
      expect((await settingsOf(admin.cookie)).body.settings.ai_provider).toBe(value);
    }
    for (const value of ['openai', 'Anthropic', 'bedrock ']) {
      const response = await put(admin.cookie, 'ai_provider', value);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual(expect.any(String));
      expect(detailPaths(response)).toEqual(['value']);
    }
    expect((await settingsOf(admin.cookie)).body.settings.ai_provider).toBe('bedrock');
  });

  it.each(['Bad-Key', '9abc', 'a'.repeat(65), 'UPPER', '_lead', 'has%20space'])('answers 400 on path "key" for the key %s', async (key) => {
    const admin = await t.signUp();
    for (const response of [
      await put(admin.cookie, key, 'v'),
      await t.request('DELETE', `/api/org/settings/${key}`, { cookie: admin.cookie }),
    ]) {
      expect(response.status).toBe(400);
      expect(detailPaths(response)).toEqual(['key']);
    }
    expect((await settingsOf(admin.cookie)).body.settings).toEqual({});
  });

  it('accepts a 64-character key and a value of exactly 8192 characters', async () => {
    const admin = await t.signUp();
    const key = `k${'0'.repeat(63)}`;
    expect((await put(admin.cookie, key, 'v'.repeat(8192))).status).toBe(200);
    expect((await settingsOf(admin.cookie)).body.settings[key]).toBe('v'.repeat(8192));
  });

  it.each([
    ['empty', { value: '' }],
    ['over 8192 characters', { value: 'v'.repeat(8193) }],
    ['missing', {}],
    ['not a string', { value: 12 }],
  ])('answers 400 on path "value" when the value is %s', async (_case, body) => {
    const admin = await t.signUp();
    const response = await t.request('PUT', '/api/org/settings/some_flag', { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(detailPaths(response)).toEqual(['value']);
    expect((await settingsOf(admin.cookie)).body.configured).toEqual(KNOWN_UNSET);
  });

  it('replaces a setting when it is written again', async () => {
    const admin = await t.signUp();
    await put(admin.cookie, 'ai_api_key', 'first-secret-value-1111');
    await put(admin.cookie, 'ai_api_key', 'second-secret-value-2222');
    await put(admin.cookie, 'some_flag', 'a');
    await put(admin.cookie, 'some_flag', 'b');
    expect((await settingsOf(admin.cookie)).body.settings).toEqual({ ai_api_key: `${MASK}2222`, some_flag: 'b' });
  });

  it('DELETE removes a setting (configured false again); an unset key is 404', async () => {
    const admin = await t.signUp();
    await put(admin.cookie, 'ai_api_key', 'to-be-deleted-0000');
    await put(admin.cookie, 'ai_provider', 'anthropic');
    const removed = await t.request('DELETE', '/api/org/settings/ai_api_key', { cookie: admin.cookie });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ status: 'ok' });
    expect((await settingsOf(admin.cookie)).body).toEqual({
      settings: { ai_provider: 'anthropic' },
      configured: { ...KNOWN_UNSET, ai_provider: true },
      service_model_key: false,
    });
    for (const key of ['ai_api_key', 'never_set']) {
      const again = await t.request('DELETE', `/api/org/settings/${key}`, { cookie: admin.cookie });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: expect.any(String) });
    }
  });

  it('is admin only: a member gets 403 on GET, PUT and DELETE and changes nothing', async () => {
    const admin = await t.signUp();
    await put(admin.cookie, 'ai_api_key', 'admin-secret-value-9876');
    const member = await t.addMember(admin.cookie);
    expectForbidden(await settingsOf(member.cookie));
    expectForbidden(await put(member.cookie, 'ai_api_key', 'member-value-1234'));
    expectForbidden(await put(member.cookie, 'ai_provider', 'bedrock'));
    expectForbidden(await t.request('DELETE', '/api/org/settings/ai_api_key', { cookie: member.cookie }));
    expect((await settingsOf(admin.cookie)).body.settings).toEqual({ ai_api_key: `${MASK}9876` });
    expect((await t.request('GET', '/api/org/settings')).status).toBe(401);
  });

  it('keeps settings per organisation', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    await put(first.cookie, 'ai_api_key', 'first-org-secret-5555');
    await put(first.cookie, 'some_flag', 'first');
    expect((await settingsOf(second.cookie)).body).toEqual({ settings: {}, configured: KNOWN_UNSET, service_model_key: false });
    expect((await t.request('DELETE', '/api/org/settings/ai_api_key', { cookie: second.cookie })).status).toBe(404);
    await put(second.cookie, 'some_flag', 'second');
    expect((await settingsOf(first.cookie)).body.settings).toEqual({ ai_api_key: `${MASK}5555`, some_flag: 'first' });
  });
});

describe('/api/org/users', () => {
  const USER_FIELDS = ['active', 'created_at', 'email', 'id', 'name', 'org_role'];

  it('lists the organisation’s users, signup admin first, without password hashes', async () => {
    const admin = await t.signUp({ name: 'First Admin' });
    tick();
    const member = await t.addMember(admin.cookie, { name: 'Second Member' });
    const response = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body.users).toEqual([admin.user, member.user]);
    expect(response.body.users[0]).toMatchObject({ name: 'First Admin', org_role: 'admin', email: admin.email });
    for (const user of response.body.users) expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(response.text).not.toMatch(/password|scrypt|hash/i);
    const asMember = await t.request('GET', '/api/org/users', { cookie: member.cookie });
    expect(asMember.status).toBe(200);
    expect(asMember.body.users).toEqual(response.body.users);
  });

  it.each(['member', 'admin'] as const)('POST creates a %s who can log in with that role', async (role) => {
    const admin = await t.signUp();
    const email = t.uniqueEmail('new');
    const created = await t.request('POST', '/api/org/users', {
      cookie: admin.cookie,
      body: { name: 'New Person', email: email.toUpperCase(), password: 'new person pw', org_role: role },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['user']);
    expect(created.body.user).toMatchObject({ name: 'New Person', email, org_role: role });
    expect(created.body.user.id).toMatch(/^usr_/);
    expect(Object.keys(created.body.user).sort()).toEqual(USER_FIELDS);
    expect(created.text).not.toMatch(/password|scrypt/i);

    const login = await t.request('POST', '/api/auth/login', { body: { email, password: 'new person pw' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual(created.body.user);
    const session = await t.request('GET', '/api/auth/session', { cookie: t.cookieOf(login) });
    expect(session.body.user).toMatchObject({ id: created.body.user.id, role: role, org_id: admin.org.id });
    const rename = await t.request('PUT', '/api/org', { cookie: t.cookieOf(login), body: { name: 'Renamed by new user' } });
    expect(rename.status).toBe(role === 'admin' ? 200 : 403);
  });

  it('answers 409 for an email already registered: same case, other case, or in another organisation', async () => {
    const admin = await t.signUp();
    const other = await t.signUp();
    const member = await t.addMember(admin.cookie);
    for (const email of [member.user.email, member.user.email.toUpperCase(), other.email, admin.email]) {
      const response = await t.request('POST', '/api/org/users', {
        cookie: admin.cookie,
        body: { name: 'Dup', email, password: 'duplicate pw', org_role: 'member' },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ error: 'an account with this email already exists' });
    }
    expect((await t.request('GET', '/api/org/users', { cookie: admin.cookie })).body.users).toHaveLength(2);
    expect((await t.request('GET', '/api/org/users', { cookie: other.cookie })).body.users).toEqual([other.user]);
  });

  it.each([
    [{ org_role: 'owner' }, 'org_role'],
    [{ org_role: undefined }, 'org_role'],
    [{ password: 'short' }, 'password'],
    [{ email: 'not-an-email' }, 'email'],
    [{ name: '' }, 'name'],
  ])('POST answers 400 naming the field for %j', async (override, field) => {
    const admin = await t.signUp();
    const body = { name: 'Valid', email: t.uniqueEmail('v'), password: 'valid password', org_role: 'member', ...override };
    const response = await t.request('POST', '/api/org/users', { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid request body');
    expect(detailPaths(response)).toContain(field);
    expect((await t.request('GET', '/api/org/users', { cookie: admin.cookie })).body.users).toHaveLength(1);
  });

  it('refuses POST from a member (403) and without a cookie (401)', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const body = { name: 'Sneaky', email: t.uniqueEmail('sneaky'), password: 'sneaky password', org_role: 'admin' };
    expectForbidden(await t.request('POST', '/api/org/users', { cookie: member.cookie, body }));
    expect((await t.request('POST', '/api/org/users', { body })).status).toBe(401);
    expect((await t.request('GET', '/api/org/users')).status).toBe(401);
    expect((await t.request('POST', '/api/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(401);
  });

  it('does not list the users of another organisation', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    const firstMember = await t.addMember(first.cookie);
    const listed = await t.request('GET', '/api/org/users', { cookie: second.cookie });
    expect(listed.body.users).toEqual([second.user]);
    expect(listed.text).not.toContain(first.email);
    expect(listed.text).not.toContain(firstMember.user.id);
  });
});

describe('/api/teams', () => {
  it('lists General first, then created teams; POST answers 201 { team: { id, name } }', async () => {
    const admin = await t.signUp();
    const initial = await t.request('GET', '/api/teams', { cookie: admin.cookie });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ teams: [{ id: expect.any(String), name: 'General' }] });
    tick();
    const created = await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name: 'Engineering' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ team: { id: expect.any(String), name: 'Engineering' } });
    expect(created.body.team.id).not.toBe(initial.body.teams[0].id);
    const listed = await t.request('GET', '/api/teams', { cookie: admin.cookie });
    expect(listed.body.teams).toEqual([initial.body.teams[0], created.body.team]);
  });

  it('answers 409 for a name already taken, whatever its case', async () => {
    const admin = await t.signUp();
    await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name: 'Support' } });
    for (const name of ['Support', 'SUPPORT', ' support ', 'general']) {
      const response = await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name } });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
    const names = (await t.request('GET', '/api/teams', { cookie: admin.cookie })).body.teams.map((team: { name: string }) => team.name);
    expect(names.sort()).toEqual(['General', 'Support']);
  });

  it.each([[{ name: '' }], [{ name: '   ' }], [{}], [{ name: 'x'.repeat(101) }]])('answers 400 on path "name" for %j', async (body) => {
    const admin = await t.signUp();
    const response = await t.request('POST', '/api/teams', { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(detailPaths(response)).toContain('name');
    expect((await t.request('GET', '/api/teams', { cookie: admin.cookie })).body.teams).toHaveLength(1);
  });

  it('lets a member list teams but not create one', async () => {
    const admin = await t.signUp();
    await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name: 'Sales' } });
    const member = await t.addMember(admin.cookie);
    expectForbidden(await t.request('POST', '/api/teams', { cookie: member.cookie, body: { name: 'Rogue' } }));
    const listed = await t.request('GET', '/api/teams', { cookie: member.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.teams.map((team: { name: string }) => team.name).sort()).toEqual(['General', 'Sales']);
    expect((await t.request('GET', '/api/teams')).status).toBe(401);
  });

  it('keeps teams per organisation: names are free in another organisation', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    await t.request('POST', '/api/teams', { cookie: first.cookie, body: { name: 'Platform' } });
    const secondTeams = await t.request('GET', '/api/teams', { cookie: second.cookie });
    expect(secondTeams.body.teams.map((team: { name: string }) => team.name)).toEqual(['General']);
    const same = await t.request('POST', '/api/teams', { cookie: second.cookie, body: { name: 'Platform' } });
    expect(same.status).toBe(201);
  });
});
