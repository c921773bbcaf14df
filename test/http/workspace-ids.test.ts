import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../migrations/index.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';

/*
 * Workspace ids are unique within an organisation only (CONTRACT.md, hardening): a stranger who
 * creates "Project Nightfall" learns nothing of another organisation's workspaces, and two
 * organisations' workspaces of one id keep everything apart. Data stored with the keys of the
 * version before (global workspace ids) is migrated to the new keys and reads as before.
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
});

const migrateStore = () => runMigrations(t.deps.table, MIGRATIONS, { clock: t.clock });

async function ask(cookie: string, workspaceId: string, query: string, sessionId: string) {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query, session_id: sessionId } });
  expect(response.status, response.text).toBe(200);
  return response.body as { conversation_id: string };
}

describe('workspace ids', () => {
  it('gives a second organisation the plain id of a name another organisation uses, and keeps the two apart', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    const theirs = await t.createWorkspace(first.cookie, { name: 'Project Nightfall', system_prompt: 'First organisation.' });
    const mine = await t.createWorkspace(second.cookie, { name: 'Project Nightfall', system_prompt: 'Second organisation.' });
    expect(theirs.id).toBe('ws-project-nightfall');
    // Before: `ws-project-nightfall-2`, which told the stranger the name was taken elsewhere.
    expect(mine.id).toBe('ws-project-nightfall');

    // Each organisation reads and changes its own workspace under the same id.
    const renamed = await t.request('PUT', `/api/workspaces/${mine.id}`, { cookie: second.cookie, body: { name: 'Nightfall (ours)' } });
    expect(renamed.status, renamed.text).toBe(200);
    const theirDetail = await t.request('GET', `/api/workspaces/${theirs.id}`, { cookie: first.cookie });
    const myDetail = await t.request('GET', `/api/workspaces/${mine.id}`, { cookie: second.cookie });
    expect(theirDetail.body.workspace).toMatchObject({ name: 'Project Nightfall', system_prompt: 'First organisation.' });
    expect(myDetail.body.workspace).toMatchObject({ name: 'Nightfall (ours)', system_prompt: 'Second organisation.' });

    // Children: knowledge added by one is not the other's.
    const added = await t.request('POST', `/api/workspaces/${mine.id}/knowledge`, {
      cookie: second.cookie,
      body: { title: 'Launch code', content: 'Only ours.' },
    });
    expect(added.status, added.text).toBe(201);
    const theirKnowledge = await t.request('GET', `/api/workspaces/${theirs.id}/knowledge`, { cookie: first.cookie });
    expect(JSON.stringify(theirKnowledge.body)).not.toContain('Launch code');

    // Conversations of the same session id stay apart, with their questions, counters and closing.
    await ask(first.cookie, theirs.id, 'Their question', 'same-thread');
    await ask(second.cookie, mine.id, 'My question', 'same-thread');
    const theirConversation = await t.request('GET', `/api/workspaces/${theirs.id}/conversations/same-thread`, { cookie: first.cookie });
    const myConversation = await t.request('GET', `/api/workspaces/${mine.id}/conversations/same-thread`, { cookie: second.cookie });
    expect(theirConversation.body.messages.map((message: { content: string }) => message.content)).toContain('Their question');
    expect(JSON.stringify(theirConversation.body)).not.toContain('My question');
    expect(JSON.stringify(myConversation.body)).not.toContain('Their question');
    const closed = await t.request('POST', `/api/workspaces/${mine.id}/conversations/same-thread/close`, { cookie: second.cookie });
    expect(closed.status, closed.text).toBe(200);
    await t.runner.idle();
    const stillOpen = await t.request('GET', `/api/workspaces/${theirs.id}/conversations/same-thread`, { cookie: first.cookie });
    expect(stillOpen.body.conversation.status).toBe('open');
    const myClosed = await t.request('GET', `/api/workspaces/${mine.id}/conversations/same-thread`, { cookie: second.cookie });
    expect(myClosed.body.conversation.status).toBe('closed');
    const listed = async (cookie: string) =>
      ((await t.request('GET', '/api/workspaces', { cookie })).body.workspaces as { id: string; queries_today: number }[])[0];
    expect(await listed(first.cookie)).toMatchObject({ id: 'ws-project-nightfall', queries_today: 1 });
    expect(await listed(second.cookie)).toMatchObject({ id: 'ws-project-nightfall', queries_today: 1 });
    const audit = await t.request('GET', `/api/workspaces/${theirs.id}/activity`, { cookie: first.cookie });
    expect(JSON.stringify(audit.body)).toContain('Their question');
    expect(JSON.stringify(audit.body)).not.toContain('My question');

    // Within one organisation an id is still unique.
    expect((await t.createWorkspace(second.cookie, { name: 'project nightfall' })).id).toBe('ws-project-nightfall-2');
  });
});

/** An item as the version before stored it: no organisation in its workspace keys. */
function asVersionOne(item: Item): Item {
  const old: Item = { ...item };
  const drop = (value: unknown) =>
    typeof value === 'string'
      ? value.replace(/^((?:WS|WSSTAT|WSACT|WSGAP|WSVIOL|WSAPPR|CONV|FEEDBACK|WSCONV|WSCHANNELS)#)org_[^#]+#/, '$1')
      : value;
  old.pk = drop(item.pk) as string;
  for (const attribute of ['gsi1pk', 'gsi2pk'] as const) if (item[attribute] !== undefined) old[attribute] = drop(item[attribute]);
  if (typeof item.gsi3sk === 'string' && typeof item.gsi3pk === 'string' && item.gsi3pk.startsWith('DUE#')) {
    old.gsi3sk = item.gsi3sk.replace(/#org_[^#]+#/, '#');
  }
  return old;
}

describe('the migration of stored data to organisation-scoped workspace keys', () => {
  it('moves every item of a workspace stored with global ids, and the API reads them as before', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Legacy support', system_prompt: 'Be brief.' });
    await t.request('POST', `/api/workspaces/${workspace.id}/knowledge`, {
      cookie: admin.cookie,
      body: { title: 'Hours', content: '9 to 5' },
    });
    const { conversation_id: cid } = await ask(admin.cookie, workspace.id, 'Old question', 'old-thread');
    await t.runner.idle();

    // Back to the version before: every item of this organisation with its keys as they were then
    // (the other tests' organisations share workspace ids, which that version could not hold).
    const { org } = (await t.request('GET', '/api/org', { cookie: admin.cookie })).body as { org: { id: string } };
    const ofOrg = (item: Item) =>
      [item.pk, item.gsi1pk, item.gsi3sk].some((value) => typeof value === 'string' && value.includes(`#${org.id}#`));
    const current = (await t.scanTable()) as Item[];
    const scoped = current.filter(
      (item) => ofOrg(item) && (asVersionOne(item).pk !== item.pk || asVersionOne(item).gsi3sk !== item.gsi3sk),
    );
    // The workspace, its knowledge, the conversation, its question and answer (one item), the audit entry, the counters.
    expect(scoped.length).toBeGreaterThan(4);
    for (const item of scoped) {
      await t.deps.table.delete({ pk: item.pk, sk: item.sk });
      await t.deps.table.put(asVersionOne(item));
    }
    await t.deps.table.delete(SCHEMA_MARKER);
    expect((await t.request('GET', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie })).status).toBe(404);

    const report = await migrateStore();
    expect(report.from).toBe(1);
    expect(report).toMatchObject({ to: SCHEMA_VERSION, moved: scoped.length, left: 0 });
    expect(await t.deps.table.get(SCHEMA_MARKER)).toMatchObject({ version: SCHEMA_VERSION });
    const after = (await t.scanTable()) as Item[];
    expect(after.filter((item) => /^(WS|WSSTAT|WSACT|WSAPPR|CONV|FEEDBACK)#ws-/.test(item.pk))).toEqual([]);

    const detail = await t.request('GET', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.workspace).toMatchObject({ name: 'Legacy support', system_prompt: 'Be brief.' });
    const conversation = await t.request('GET', `/api/workspaces/${workspace.id}/conversations/${cid}`, { cookie: admin.cookie });
    expect(conversation.body.messages.map((message: { content: string }) => message.content)).toContain('Old question');
    const knowledge = await t.request('GET', `/api/workspaces/${workspace.id}/knowledge`, { cookie: admin.cookie });
    expect(JSON.stringify(knowledge.body)).toContain('9 to 5');
    const listed = await t.request('GET', `/api/workspaces/${workspace.id}/conversations`, { cookie: admin.cookie });
    expect(JSON.stringify(listed.body)).toContain(cid);
    // The conversation goes on, and a second run has nothing to do.
    await ask(admin.cookie, workspace.id, 'New question', cid);
    expect(await migrateStore()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, moved: 0, left: 0, ran: [] });
  });
});
