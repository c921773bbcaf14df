import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * Migration 010 on a table at version 9, whose conversations were written before they named their
 * starter: one a member started from the console (owner `user:<id>`), a team-chat thread whose
 * first question a linked chat account asked (its audit entry names the person), and one asked
 * through an unlinked account (no person). Afterwards the member reads their two, as this version
 * decides (conversations/visibility.ts); without the migration they read none (the test fails).
 */

/** The migrations up to this one: a later one runs in its own test. */
const UP_TO_010 = MIGRATIONS.filter((migration) => migration.version <= 10);

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('An answer.'));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});

const migrate = async () => {
  await t.deps.table.put({ ...SCHEMA_MARKER, version: 9 });
  return runMigrations(t.deps.table, UP_TO_010, { clock: t.clock });
};

describe('migration 010: conversations name their starter', () => {
  it("gives each conversation its starter: the owner's person, or a team-chat thread's first linked asker", async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Starters ${t.uniqueEmail('ws')}` });
    const member = await t.addMember(admin.cookie);
    const ask = async (cookie: string, query: string) => {
      const response = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie, body: { query } });
      expect(response.status, response.text).toBe(200);
      return response.body.conversation_id as string;
    };
    const fromConsole = await ask(member.cookie, 'from the console');
    const linkedThread = await ask(member.cookie, 'in a thread, linked');
    const unlinkedThread = await ask(admin.cookie, 'in a thread, unlinked');
    await t.runner.idle();

    // As the version before wrote them: no starter; the two threads owned by the workspace's threads,
    // the unlinked one's audit entry naming no person.
    const orgId = admin.org.id as string;
    const stored = async (id: string) => (await t.deps.table.get(conversationKey(orgId, workspace.id, id), true)) as Item;
    const asWrittenBefore = async (id: string, owner?: string) => {
      const { user_id: _, ...item } = await stored(id);
      await t.deps.table.put({ ...(item as Item), ...(owner ? { owner, consumer_type: 'team-chat' } : {}) });
    };
    await asWrittenBefore(fromConsole);
    await asWrittenBefore(linkedThread, `team-chat:${workspace.id}`);
    await asWrittenBefore(unlinkedThread, `team-chat:${workspace.id}`);
    const entries = (await t.scanTable()).filter((item) => item.conversation_id === unlinkedThread && String(item.pk).startsWith('WSACT#'));
    expect(entries).toHaveLength(1);
    await t.deps.table.put({ ...(entries[0] as Item), user_id: null });

    // Another organisation's thread under the same id (a thread's id is its channel and thread),
    // whose first question no linked person asked: it must not take the first one's starter.
    const stranger = await t.signUp();
    const theirs = await t.createWorkspace(stranger.cookie, { name: `Their starters ${t.uniqueEmail('ws')}` });
    const theirKey = conversationKey(stranger.org.id, theirs.id, linkedThread);
    await t.deps.table.put({ ...(await stored(linkedThread)), ...theirKey, org_id: stranger.org.id, workspace_id: theirs.id });

    const listed = async () => {
      const response = await t.request('GET', `/api/workspaces/${workspace.id}/conversations`, { cookie: member.cookie });
      return response.body.conversations.map((c: { id: string }) => c.id).sort();
    };
    expect(await listed()).toEqual([]);

    const report = await migrate();
    expect(report.ran).toEqual(['010 every conversation names its starter, whom it is private to']);
    expect(report.moved).toBe(2);
    expect((await stored(fromConsole)).user_id).toBe(member.user.id);
    expect((await stored(linkedThread)).user_id).toBe(member.user.id);
    expect((await stored(unlinkedThread)).user_id).toBeUndefined();
    expect(((await t.deps.table.get(theirKey, true)) as Item).user_id).toBeUndefined();
    expect(await listed()).toEqual([fromConsole, linkedThread].sort());
    const detail = await t.request('GET', `/api/workspaces/${workspace.id}/conversations/${linkedThread}`, { cookie: member.cookie });
    expect(detail.status).toBe(200);

    // Run again (a deploy that retries): nothing is left to move.
    await t.deps.table.put({ ...SCHEMA_MARKER, version: 9 });
    const again = await runMigrations(t.deps.table, UP_TO_010, { clock: t.clock });
    expect(again.moved).toBe(0);
  });
});
