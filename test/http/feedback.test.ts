import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordFeedback } from '../../shared/conversations/feedback.js';
import { feedbackKey } from '../../shared/conversations/entities.js';
import { createTestContext, type ApiResponse, type TestContext } from '../support/context.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';

type Admin = Awaited<ReturnType<TestContext['signUp']>>;
type Member = Awaited<ReturnType<TestContext['addMember']>>;
/** How a request authenticates: a session cookie, or an api key. */
type Caller = { cookie: string } | { key: string };
interface Feedback {
  up: number;
  down: number;
}

let t: TestContext;
let model: FakeModel;
let admin: Admin;
let member: Member;
let outsider: Admin;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  admin = await t.signUp();
  member = await t.addMember(admin.cookie);
  outsider = await t.signUp({ name: 'Olga Outsider' });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
});

function auth(caller: Caller) {
  return 'cookie' in caller ? { cookie: caller.cookie } : { headers: { authorization: `Bearer ${caller.key}` } };
}

async function newWorkspace(): Promise<string> {
  return (await t.createWorkspace(admin.cookie, { name: `Feedback ${t.uniqueEmail('ws')}` })).id;
}

/** Asks a question in a new conversation: the question is message 1, the answer message 2. */
async function ask(workspaceId: string, caller: Caller = { cookie: admin.cookie }): Promise<string> {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
    ...auth(caller),
    body: { query: 'Where is my order?' },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.conversation_id;
}

function rate(workspaceId: string, cid: string, seq: number | string, body: unknown, caller: Caller = { cookie: admin.cookie }) {
  return t.request('POST', `/api/workspaces/${workspaceId}/conversations/${cid}/messages/${seq}/feedback`, { ...auth(caller), body });
}

function expectOk(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(response.body).toEqual({ status: 'ok' });
}

/** Each message's `[role, feedback]`, as the conversation detail shows them. */
async function feedbackOf(workspaceId: string, cid: string): Promise<[string, Feedback][]> {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${cid}`, { cookie: admin.cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.messages.map((message: { role: string; feedback: Feedback }) => [message.role, message.feedback]);
}

async function answerFeedback(workspaceId: string, cid: string): Promise<Feedback | undefined> {
  return (await feedbackOf(workspaceId, cid))[1]?.[1];
}

async function dashboardFeedback(workspaceId: string) {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.feedback as { up: number; down: number; rate: number | null };
}

async function connectApi(workspaceId: string) {
  const response = await t.request('POST', '/api/connectors/consumer', {
    cookie: admin.cookie,
    body: { type: 'api', workspace_id: workspaceId, credentials: {} },
  });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id as string, key: response.body.api_key as string };
}

describe('POST /api/workspaces/:id/conversations/:cid/messages/:seq/feedback', () => {
  it('rates an answer up: the detail shows it on the answer, 0 and 0 on the question, and the rating is stored per rater', async () => {
    const ws = await newWorkspace();
    // The member's own conversation: a member rates only those they started (private-conversations.test.ts).
    const cid = await ask(ws, { cookie: member.cookie });
    expect(await feedbackOf(ws, cid)).toEqual([
      ['user', { up: 0, down: 0 }],
      ['assistant', { up: 0, down: 0 }],
    ]);
    expectOk(await rate(ws, cid, 2, { rating: 'up', comment: 'Spot on.\nThanks!' }, { cookie: member.cookie }));
    expect(await feedbackOf(ws, cid)).toEqual([
      ['user', { up: 0, down: 0 }],
      ['assistant', { up: 1, down: 0 }],
    ]);
    const stored = await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${member.user.id}`));
    expect(stored).toMatchObject({ rating: 'up', comment: 'Spot on.\nThanks!', rater: `user:${member.user.id}`, seq: 2 });
  });

  it('moves the counts when a rater changes up to down, and back', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    expectOk(await rate(ws, cid, 2, { rating: 'up' }));
    expectOk(await rate(ws, cid, 2, { rating: 'down', comment: 'On second thought, wrong.' }));
    expect(await answerFeedback(ws, cid)).toEqual({ up: 0, down: 1 });
    expect(await dashboardFeedback(ws)).toEqual({ up: 0, down: 1, rate: 0 });
    expectOk(await rate(ws, cid, 2, { rating: 'up' }));
    expect(await answerFeedback(ws, cid)).toEqual({ up: 1, down: 0 });
    // The last rating counts, with its own comment or none.
    const stored = await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${admin.user.id}`));
    expect(stored?.rating).toBe('up');
    expect(stored?.comment).toBeUndefined();
  });

  it('counts the same rating given twice once, keeping the newer comment', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    expectOk(await rate(ws, cid, 2, { rating: 'up', comment: 'first' }));
    expectOk(await rate(ws, cid, 2, { rating: 'up', comment: 'second' }));
    expect(await answerFeedback(ws, cid)).toEqual({ up: 1, down: 0 });
    expect(await dashboardFeedback(ws)).toEqual({ up: 1, down: 0, rate: 1 });
    expect((await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${admin.user.id}`)))?.comment).toBe('second');
  });

  it('counts each rater once: two raters, one up and one down', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws, { cookie: member.cookie });
    expectOk(await rate(ws, cid, 2, { rating: 'up' }, { cookie: admin.cookie }));
    expectOk(await rate(ws, cid, 2, { rating: 'down' }, { cookie: member.cookie }));
    expectOk(await rate(ws, cid, 2, { rating: 'down' }, { cookie: member.cookie }));
    expect(await answerFeedback(ws, cid)).toEqual({ up: 1, down: 1 });
  });

  it('lets an api key rate answers in its own conversations only: another consumer’s or a member’s is 404, like a missing one', async () => {
    const ws = await newWorkspace();
    const own = await connectApi(ws);
    const other = await connectApi(ws);
    const mine = await ask(ws, { key: own.key });
    const theirs = await ask(ws, { key: other.key });
    const members = await ask(ws, { cookie: member.cookie });

    expectOk(await rate(ws, mine, 2, { rating: 'up' }, { key: own.key }));
    expect(await t.deps.table.get(feedbackKey(admin.org.id, ws, mine, 2, `key:${own.id}`))).toMatchObject({ rating: 'up' });
    expect(await answerFeedback(ws, mine)).toEqual({ up: 1, down: 0 });

    const missing = await rate(ws, 'conv-missing', 2, { rating: 'up' }, { key: own.key });
    expect(missing.status).toBe(404);
    for (const cid of [theirs, members]) {
      const refused = await rate(ws, cid, 2, { rating: 'down' }, { key: own.key });
      expect(refused.status, refused.text).toBe(404);
      expect(refused.body).toEqual({ error: `conversation ${cid} not found` });
      expect(await answerFeedback(ws, cid)).toEqual({ up: 0, down: 0 });
    }
    // A member rates only the conversations they started: the api consumer's is 404 to them too;
    // an admin rates any.
    expect((await rate(ws, theirs, 2, { rating: 'down' }, { cookie: member.cookie })).status).toBe(404);
    expectOk(await rate(ws, theirs, 2, { rating: 'down' }, { cookie: admin.cookie }));
    expect(await answerFeedback(ws, theirs)).toEqual({ up: 0, down: 1 });
  });

  it('is 404 to a member of another organisation, and writes nothing', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    const response = await rate(ws, cid, 2, { rating: 'down' }, { cookie: outsider.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error).toBeTypeOf('string');
    expect(response.text).not.toContain(cid);
    expect(await answerFeedback(ws, cid)).toEqual({ up: 0, down: 0 });
    expect(await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${outsider.user.id}`))).toBeUndefined();
    expect(await t.deps.table.get(feedbackKey(outsider.org.id, ws, cid, 2, `user:${outsider.user.id}`))).toBeUndefined();
  });

  it('is 404 for an unknown seq, conversation or workspace', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    for (const [wsId, convId, seq] of [
      [ws, cid, 3],
      [ws, cid, 0],
      [ws, cid, 999999],
      [ws, 'conv-unknown', 2],
      ['ws-unknown', cid, 2],
    ] as const) {
      const response = await rate(wsId, convId, seq, { rating: 'up' });
      expect(response.status, `${wsId} ${convId} ${seq}`).toBe(404);
      expect(response.body.error).toBeTypeOf('string');
    }
    expect(await dashboardFeedback(ws)).toEqual({ up: 0, down: 0, rate: null });
  });

  it('refuses to rate the user’s own question (400 naming seq), and writes nothing', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    const response = await rate(ws, cid, 1, { rating: 'up' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('only answers can be rated');
    expect(response.body.details).toEqual([{ path: 'seq', message: expect.stringContaining('question') }]);
    expect(await feedbackOf(ws, cid)).toEqual([
      ['user', { up: 0, down: 0 }],
      ['assistant', { up: 0, down: 0 }],
    ]);
    expect(await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 1, `user:${admin.user.id}`))).toBeUndefined();
    // The core function refuses it the same way (the team-chat bridge calls it directly).
    const input = { orgId: admin.org.id, workspaceId: ws, conversationId: cid, seq: 1, rater: 'chat:o:U1', rating: 'up' as const };
    await expect(recordFeedback(t.deps, input)).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(recordFeedback(t.deps, { ...input, seq: 2, orgId: outsider.org.id })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('answers 400 with details to a bad body or a seq that is not a non-negative integer, and counts nothing', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    const bodies: [unknown, string][] = [
      [{ rating: 'sideways' }, 'rating'],
      [{}, 'rating'],
      [{ rating: 1 }, 'rating'],
      [{ rating: 'up', comment: 'x'.repeat(2001) }, 'comment'],
      [{ rating: 'up', comment: 42 }, 'comment'],
      [{ rating: 'up', comment: 'bell \u0007 here' }, 'comment'],
      [{ rating: 'up', comment: 'evil \u202Etxt.exe' }, 'comment'],
      [{ rating: 'up', comment: 'broken \uD800 text' }, 'comment'],
    ];
    for (const [body, path] of bodies) {
      const response = await rate(ws, cid, 2, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toBeTypeOf('string');
      expect(
        response.body.details.map((detail: { path: string }) => detail.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    for (const seq of ['two', '1.5', '-1', '1e1', '2x']) {
      const response = await rate(ws, cid, seq, { rating: 'up' });
      expect(response.status, seq).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain('seq');
    }
    expect(await answerFeedback(ws, cid)).toEqual({ up: 0, down: 0 });
    expect(await dashboardFeedback(ws)).toEqual({ up: 0, down: 0, rate: null });
    // Exactly 2000 characters, with line breaks and a tab, is a comment.
    const longest = `${'y'.repeat(997)}\r\n\t${'z'.repeat(1000)}`;
    expect(longest).toHaveLength(2000);
    expectOk(await rate(ws, cid, 2, { rating: 'up', comment: longest }));
    expect((await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${admin.user.id}`)))?.comment).toBe(longest);
  });

  it('adds the ratings of every answer to the dashboard: up, down and the share of up', async () => {
    const ws = await newWorkspace();
    expect(await dashboardFeedback(ws)).toEqual({ up: 0, down: 0, rate: null });
    const first = await ask(ws, { cookie: member.cookie });
    const second = await ask(ws, { cookie: member.cookie });
    expectOk(await rate(ws, first, 2, { rating: 'up' }, { cookie: admin.cookie }));
    expectOk(await rate(ws, first, 2, { rating: 'up' }, { cookie: member.cookie }));
    expectOk(await rate(ws, second, 2, { rating: 'up' }, { cookie: admin.cookie }));
    expectOk(await rate(ws, second, 2, { rating: 'down' }, { cookie: member.cookie }));
    expect(await dashboardFeedback(ws)).toEqual({ up: 3, down: 1, rate: 0.75 });
    // A changed rating moves on the dashboard too.
    expectOk(await rate(ws, second, 2, { rating: 'down' }, { cookie: admin.cookie }));
    expect(await dashboardFeedback(ws)).toEqual({ up: 2, down: 2, rate: 0.5 });
    // Another workspace's figures are its own.
    expect(await dashboardFeedback(await newWorkspace())).toEqual({ up: 0, down: 0, rate: null });
  });

  it('counts concurrent ratings by different raters, each once', async () => {
    const ws = await newWorkspace();
    // Raters of one conversation: its starter (a member) and admins, who read every conversation.
    const cid = await ask(ws, { cookie: member.cookie });
    const anotherAdmin = () => t.addMember(admin.cookie, { org_role: 'admin' });
    const raters = [admin, member, await anotherAdmin(), await anotherAdmin(), await anotherAdmin()];
    const ratings = ['up', 'down', 'up', 'up', 'down'] as const;
    const answers = await Promise.all(raters.map((rater, index) => rate(ws, cid, 2, { rating: ratings[index] }, { cookie: rater.cookie })));
    for (const response of answers) expectOk(response);
    expect(await answerFeedback(ws, cid)).toEqual({ up: 3, down: 2 });
    expect(await dashboardFeedback(ws)).toEqual({ up: 3, down: 2, rate: 0.6 });
  });

  it('keeps the counts equal to the rating that stuck when one rater’s ratings race', async () => {
    const ws = await newWorkspace();
    const cid = await ask(ws);
    const ratings = ['up', 'down', 'up', 'down', 'down', 'up', 'down'] as const;
    const answers = await Promise.all(ratings.map((rating) => rate(ws, cid, 2, { rating })));
    for (const response of answers) expectOk(response);
    const stuck = (await t.deps.table.get(feedbackKey(admin.org.id, ws, cid, 2, `user:${admin.user.id}`)))?.rating;
    expect(await answerFeedback(ws, cid)).toEqual(stuck === 'up' ? { up: 1, down: 0 } : { up: 0, down: 1 });
    expect(await dashboardFeedback(ws)).toMatchObject(stuck === 'up' ? { up: 1, down: 0 } : { up: 0, down: 1 });
  });
});
