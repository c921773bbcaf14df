import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addTeamMembers } from '../../shared/org/index.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * Conversations are private to their starter (CONTRACT.md, fourth round): a member lists, reads,
 * rates and closes only the conversations they started, and sees only their own queries in the
 * audit log; admins see all; an api key its own consumer's; a workspace open to its team lets the
 * team's members read every one. Each attack is a member (or a key) reaching for another's.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(() => textReply('An answer.'));
});

type Caller = { cookie?: string; key?: string };
const auth = (caller: Caller) => (caller.key ? { headers: { authorization: `Bearer ${caller.key}` } } : { cookie: caller.cookie });

async function ask(caller: Caller, workspaceId: string, query: string): Promise<string> {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { ...auth(caller), body: { query } });
  expect(response.status, response.text).toBe(200);
  return response.body.conversation_id as string;
}

async function listed(caller: Caller, workspaceId: string, query = ''): Promise<{ ids: string[]; total: number }> {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations${query}`, auth(caller));
  expect(response.status, response.text).toBe(200);
  return { ids: response.body.conversations.map((c: { id: string }) => c.id), total: response.body.total };
}

const detail = (caller: Caller, workspaceId: string, id: string) =>
  t.request('GET', `/api/workspaces/${workspaceId}/conversations/${id}`, auth(caller));

/** An organisation with an admin, two members and a workspace, and a conversation started by each person. */
async function threePeople() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Private ${t.uniqueEmail('ws')}` });
  const ann = await t.addMember(admin.cookie, { name: 'Ann' });
  const bob = await t.addMember(admin.cookie, { name: 'Bob' });
  const ids = {
    admin: await ask(admin, workspace.id, 'the admin asks'),
    ann: await ask(ann, workspace.id, 'Ann asks'),
    bob: await ask(bob, workspace.id, 'Bob asks'),
  };
  return { admin, ann, bob, workspaceId: workspace.id, ids };
}

describe('conversations are private to their starter', () => {
  it("a member lists and opens only their own; another's by id is 404; an admin sees all", async () => {
    const { admin, ann, bob, workspaceId, ids } = await threePeople();

    const annList = await listed(ann, workspaceId);
    expect(annList.ids).toEqual([ids.ann]);
    expect(annList.total).toBe(1);
    // A filter or a search does not reach past the rule either.
    expect((await listed(ann, workspaceId, '?status=open')).ids).toEqual([ids.ann]);
    expect((await listed(ann, workspaceId, '?q=asks')).ids).toEqual([ids.ann]);

    const own = await detail(ann, workspaceId, ids.ann);
    expect(own.status).toBe(200);
    expect(own.body.can_close).toBe(true);
    for (const other of [ids.admin, ids.bob]) {
      const response = await detail(ann, workspaceId, other);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(`conversation ${other} not found`);
    }

    const adminList = await listed(admin, workspaceId);
    expect(new Set(adminList.ids)).toEqual(new Set([ids.admin, ids.ann, ids.bob]));
    expect(adminList.total).toBe(3);
    expect((await detail(admin, workspaceId, ids.bob)).status).toBe(200);
    expect((await listed(bob, workspaceId)).ids).toEqual([ids.bob]);
  });

  it("a member can neither rate nor close another's conversation (404), and closes their own", async () => {
    const { ann, workspaceId, ids } = await threePeople();
    const rate = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${ids.bob}/messages/2/feedback`, {
      cookie: ann.cookie,
      body: { rating: 'down' },
    });
    expect(rate.status).toBe(404);
    const bobs = await detail({ cookie: (await t.signUp()).cookie }, workspaceId, ids.bob);
    // Another organisation's admin does not reach it either.
    expect(bobs.status).toBe(404);
    const close = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${ids.bob}/close`, { cookie: ann.cookie });
    expect(close.status).toBe(404);
    const rateOwn = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${ids.ann}/messages/2/feedback`, {
      cookie: ann.cookie,
      body: { rating: 'up' },
    });
    expect(rateOwn.status, rateOwn.text).toBe(200);
    const closeOwn = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${ids.ann}/close`, { cookie: ann.cookie });
    expect(closeOwn.status, closeOwn.text).toBe(200);
  });

  it("a member's audit log holds their own queries; another person's is 403; an admin reads every one", async () => {
    const { admin, ann, bob, workspaceId } = await threePeople();
    const activity = (caller: Caller, query = '') => t.request('GET', `/api/workspaces/${workspaceId}/activity${query}`, auth(caller));
    const annLog = await activity(ann);
    expect(annLog.status).toBe(200);
    expect(annLog.body.activity.map((entry: { query: string }) => entry.query)).toEqual(['Ann asks']);
    expect(annLog.body.total).toBe(1);
    expect((await activity(ann, `?user=${ann.user.id}`)).body.total).toBe(1);
    const reaching = await activity(ann, `?user=${bob.user.id}`);
    expect(reaching.status).toBe(403);
    expect(reaching.body.error).toMatch(/their own queries/);
    const csv = await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`, { cookie: ann.cookie });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('Ann asks');
    expect(csv.text).not.toContain('Bob asks');
    expect((await activity(admin)).body.total).toBe(3);
  });

  it("a workspace open to its team lets the team's members read every conversation, not close another's", async () => {
    const { admin, ann, bob, workspaceId, ids } = await threePeople();
    const opened = await t.request('PUT', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      body: { conversations_visible_to: 'team' },
    });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.workspace.conversations_visible_to).toBe('team');
    // Ann is not in the workspace's team yet: her own only.
    expect((await listed(ann, workspaceId)).ids).toEqual([ids.ann]);

    await addTeamMembers(t.deps, admin.org.id, opened.body.workspace.team_id, [ann.user.id]);
    expect(new Set((await listed(ann, workspaceId)).ids)).toEqual(new Set([ids.admin, ids.ann, ids.bob]));
    const bobs = await detail(ann, workspaceId, ids.bob);
    expect(bobs.status).toBe(200);
    expect(bobs.body.can_close).toBe(false);
    const close = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${ids.bob}/close`, { cookie: ann.cookie });
    expect(close.status).toBe(403);
    const annLog = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: ann.cookie });
    expect(annLog.body.total).toBe(3);
    // Bob is not in the team: still his own only.
    expect((await listed(bob, workspaceId)).ids).toEqual([ids.bob]);

    const bad = await t.request('PUT', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      body: { conversations_visible_to: 'everyone' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'conversations_visible_to', message: 'must be starter or team' }]);
  });

  it("an api key lists and opens only its own consumer's conversations", async () => {
    const { admin, workspaceId, ids } = await threePeople();
    const connect = () =>
      t.request('POST', '/api/connectors/consumer', {
        cookie: admin.cookie,
        body: { type: 'api', workspace_id: workspaceId, credentials: {} },
      });
    const first = await connect();
    expect(first.status, first.text).toBe(201);
    const key = { key: first.body.api_key as string };
    const byKey = await ask(key, workspaceId, 'the key asks');
    expect((await listed(key, workspaceId)).ids).toEqual([byKey]);
    expect((await detail(key, workspaceId, ids.ann)).status).toBe(404);
    expect((await detail(key, workspaceId, byKey)).status).toBe(200);
    // The workspace's members do not see the key's conversation; its admin does.
    expect((await listed(admin, workspaceId)).ids).toContain(byKey);
  });
});
