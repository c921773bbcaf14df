import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settingKey } from '../../shared/org/setting-entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import {
  apiKeyOf,
  authenticationErrorReply,
  errorReply,
  startFakeModel,
  textReply,
  type FakeModel,
  type ModelRequestRecord,
} from '../support/fake-model.js';

/*
 * Onboarding of the model (issue 47, item 4): any member learns whether a model key answers
 * (`GET /api/org/model`), and an admin sets the provider and key in one request that tests the key
 * with a one-token call first (`POST /api/org/settings/model`): a key the provider refuses is a
 * 400 with its message under the field, and nothing is saved.
 */

const GOOD_KEY = 'sk-ant-api03-good-key-0123456789-WXYZ';
const BAD_KEY = 'sk-ant-api03-bad-key-9876543210-QRST';

let t: TestContext;
let model: FakeModel;

/** The fake model as Anthropic's API: the good key answers, any other is 401 `authentication_error`. */
const asAnthropic = (request: ModelRequestRecord) => (apiKeyOf(request) === GOOD_KEY ? textReply('H') : authenticationErrorReply());

beforeAll(async () => {
  model = await startFakeModel();
  // No deployment key: the organisation brings its own, as where strangers sign up.
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ALLOW_SERVICE_MODEL_KEY: 'false', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(() => {
  model.reset();
  model.handle(asAnthropic);
});

const statusOf = (cookie: string) => t.request('GET', '/api/org/model', { cookie });
const save = (cookie: string, body: unknown) => t.request('POST', '/api/org/settings/model', { cookie, body });
const settingsOf = async (cookie: string) => (await t.request('GET', '/api/org/settings', { cookie })).body;

describe('GET /api/org/model', () => {
  it('tells an admin and a member that no key is set, before one is', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    for (const cookie of [admin.cookie, member.cookie]) {
      const response = await statusOf(cookie);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ provider: 'anthropic', key_set: false, source: null });
    }
  });

  it("says the deployment's key answers where the service lends it, and never shows it", async () => {
    const lent = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-operator-own-key' } });
    try {
      const admin = await lent.signUp();
      const response = await lent.request('GET', '/api/org/model', { cookie: admin.cookie });
      expect(response.body).toEqual({ provider: 'anthropic', key_set: true, source: 'deployment' });
      expect(response.text).not.toContain('sk-operator');
    } finally {
      await lent.close();
    }
  });

  it('needs a session', async () => {
    expect((await t.request('GET', '/api/org/model')).status).toBe(401);
  });
});

describe('POST /api/org/settings/model', () => {
  it("refuses a key the provider refuses, with the provider's message under the field, and saves nothing", async () => {
    const admin = await t.signUp();
    const response = await save(admin.cookie, { provider: 'anthropic', api_key: BAD_KEY });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/refused the key \(401\)/);
    expect(response.body.details).toEqual([{ path: 'api_key', message: 'refused by the provider: invalid x-api-key' }]);
    // One call, of one token, with the key typed.
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.body.max_tokens).toBe(1);
    expect(apiKeyOf(model.requests[0] as ModelRequestRecord)).toBe(BAD_KEY);
    expect((await settingsOf(admin.cookie)).configured).toMatchObject({ ai_api_key: false, ai_provider: false });
    expect((await statusOf(admin.cookie)).body).toEqual({ provider: 'anthropic', key_set: false, source: null });
    expect(response.text).not.toContain('bad-key');
    expect(t.logger.text()).not.toContain('bad-key');
  });

  it('saves a key that answers, sealed, and then says a key is set', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const response = await save(admin.cookie, { provider: 'anthropic', api_key: ` ${GOOD_KEY}\n` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(model.requests.map((request) => [apiKeyOf(request), request.body.max_tokens])).toEqual([[GOOD_KEY, 1]]);
    for (const cookie of [admin.cookie, member.cookie]) {
      expect((await statusOf(cookie)).body).toEqual({ provider: 'anthropic', key_set: true, source: 'organisation' });
    }
    expect((await settingsOf(admin.cookie)).settings).toMatchObject({ ai_api_key: '••••••••WXYZ', ai_provider: 'anthropic' });
    expect(String((await t.deps.table.get(settingKey(admin.org.id, 'ai_api_key')))?.value)).toMatch(/^sealed:v1:/);
    // The queries use it.
    const workspace = await t.createWorkspace(admin.cookie, { name: `Keyed ${t.uniqueEmail('ws')}` });
    model.reset();
    model.handle(asAnthropic);
    const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hi' } });
    expect(answer.body).toMatchObject({ answer: 'H', error: null });
    expect(t.logger.text()).not.toContain('good-key');
  });

  it('tests the key already set when none is typed, and keeps it when a later key is refused', async () => {
    const admin = await t.signUp();
    expect((await save(admin.cookie, { provider: 'anthropic' })).body.details).toEqual([
      { path: 'api_key', message: "enter the provider's API key" },
    ]);
    expect(model.requests).toEqual([]);
    expect((await save(admin.cookie, { provider: 'anthropic', api_key: GOOD_KEY })).status).toBe(200);
    expect((await save(admin.cookie, { provider: 'anthropic' })).status).toBe(200);
    expect((await save(admin.cookie, { provider: 'anthropic', api_key: BAD_KEY })).status).toBe(400);
    expect(model.requests.map(apiKeyOf)).toEqual([GOOD_KEY, GOOD_KEY, BAD_KEY]);
    expect((await settingsOf(admin.cookie)).settings.ai_api_key).toBe('••••••••WXYZ');
  });

  it('saves nothing when the key cannot be tested (the provider is down)', async () => {
    const admin = await t.signUp();
    model.handle(() => errorReply(500, 'Internal server error'));
    const response = await save(admin.cookie, { provider: 'anthropic', api_key: GOOD_KEY });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/could not be tested \(the model API answered 500\)/);
    expect(response.body.details).toEqual([{ path: 'api_key', message: 'could not be tested: Internal server error' }]);
    expect((await settingsOf(admin.cookie)).configured.ai_api_key).toBe(false);
  });

  it('refuses Bedrock where the service does not lend its AWS account, and a key given with it', async () => {
    const admin = await t.signUp();
    const bedrock = await save(admin.cookie, { provider: 'bedrock' });
    expect(bedrock.status).toBe(400);
    expect(bedrock.body.details[0]).toMatchObject({ path: 'provider', message: expect.stringMatching(/AWS account/) });
    const keyed = await save(admin.cookie, { provider: 'bedrock', api_key: GOOD_KEY });
    expect(keyed.body.details).toEqual([{ path: 'api_key', message: "Bedrock runs on the service's AWS account: leave the key out" }]);
    expect(model.requests).toEqual([]);
    expect((await settingsOf(admin.cookie)).configured).toMatchObject({ ai_api_key: false, ai_provider: false });
  });

  it('answers bad input with 400 and details, never a 500', async () => {
    const admin = await t.signUp();
    for (const [body, path] of [
      [{}, 'provider'],
      [{ provider: 'openai', api_key: GOOD_KEY }, 'provider'],
      [{ provider: 'anthropic', api_key: '' }, 'api_key'],
      [{ provider: 'anthropic', api_key: 'sk has spaces' }, 'api_key'],
      [{ provider: 'anthropic', api_key: 'sk-\r\nx-injected: 1' }, 'api_key'],
      [{ provider: 'anthropic', api_key: 7 }, 'api_key'],
      [{ provider: 'anthropic', api_key: 'x'.repeat(8193) }, 'api_key'],
    ] as const) {
      const response = await save(admin.cookie, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    const malformed = await t.request('POST', '/api/org/settings/model', {
      cookie: admin.cookie,
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(model.requests).toEqual([]);
  });

  it('is refused to a member (403), who saves nothing and calls no model', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const response = await save(member.cookie, { provider: 'anthropic', api_key: GOOD_KEY });
    expect(response.status).toBe(403);
    expect(model.requests).toEqual([]);
    expect((await statusOf(member.cookie)).body.key_set).toBe(false);
  });
});
