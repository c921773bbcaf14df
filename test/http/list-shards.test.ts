import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationIndexes } from '../../migrations/003-conversation-indexes.js';
import { activityEntryKey, activityShards } from '../../shared/workspaces/entities.js';
import { conversationKey, conversationList } from '../../shared/conversations/entities.js';
import { listShardOf, shardKey, shardKeys } from '../../shared/platform/list-shards.js';
import type { Item } from '../../shared/platform/table.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * A workspace's conversation lists and audit log are written across 4 partitions each
 * (shared/platform/list-shards.ts) and read merged (shared/platform/sharded-pages.ts); what was
 * written before the shards is in shard 0, the unsharded key, and is listed as before.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('Answered.'));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});

const workspace = () => t.adminWithWorkspace('Shards');

/** Brings what a test wrote as a version before did to this version's shape (migrations/003), as a deploy would. */
async function migrate() {
  await t.deps.table.delete(SCHEMA_MARKER);
  await runMigrations(t.deps.table, [conversationIndexes], { clock: t.clock });
}

async function pages(cookie: string, path: string, field: string, limit: number) {
  const seen: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `limit=${limit}&cursor=${cursor}` : `limit=${limit}`;
    const page = await t.request('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`, { cookie });
    expect(page.status, page.text).toBe(200);
    seen.push(...page.body[field]);
    cursor = page.body.next_cursor;
  } while (cursor);
  return seen;
}

describe("a workspace's lists in shards", () => {
  it('spreads 16 new conversations and their audit entries over the shards, and lists each once, in pages', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    const ids: string[] = [];
    for (let n = 0; n < 16; n++) {
      const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: `question ${n}` } });
      expect(answer.status, answer.text).toBe(200);
      ids.push(answer.body.conversation_id);
    }
    const byShard = await Promise.all(
      shardKeys(conversationList(orgId, workspaceId)).map((pk) => t.deps.table.queryAll({ index: 'listings', pk })),
    );
    expect(byShard.filter((shard) => shard.length > 0).length).toBeGreaterThan(1);
    expect(byShard.flat()).toHaveLength(16);
    const audit = await Promise.all(activityShards(orgId, workspaceId).map((pk) => t.deps.table.queryAll({ pk })));
    expect(audit.filter((shard) => shard.length > 0).length).toBeGreaterThan(1);

    const listed = await pages(cookie, `/api/workspaces/${workspaceId}/conversations`, 'conversations', 5);
    expect(listed.map((conversation) => conversation.id).sort()).toEqual([...ids].sort());
    const open = await pages(cookie, `/api/workspaces/${workspaceId}/conversations?status=open`, 'conversations', 7);
    expect(open).toHaveLength(16);
    const activity = await pages(cookie, `/api/workspaces/${workspaceId}/activity`, 'activity', 3);
    expect(activity.map((entry) => entry.query).sort()).toEqual(ids.map((_, n) => `question ${n}`).sort());
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie });
    expect(dashboard.body.recent_conversations).toHaveLength(5);
  });

  it('lists what was written before the shards (shard 0), once the migration moved a conversation to its shard', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    // A conversation and an audit entry as the version before the shards wrote them: every one in the unsharded key.
    const legacyId = 'conv_before_the_shards';
    const at = '2026-11-20T08:00:00.000Z';
    const conversation: Item = {
      ...conversationKey(orgId, workspaceId, legacyId),
      id: legacyId,
      workspace_id: workspaceId,
      org_id: orgId,
      status: 'open',
      consumer_type: 'api',
      user_name: 'Ada',
      channel: null,
      message_count: 0,
      total_cost_usd: 0,
      stats_status: 'pending',
      first_message_at: at,
      last_activity_at: at,
      gsi1pk: conversationList(orgId, workspaceId),
      gsi1sk: at,
      gsi2pk: `${conversationList(orgId, workspaceId)}#open`,
      gsi2sk: at,
    };
    const session = await t.request('GET', '/api/auth/session', { cookie });
    await t.deps.table.put({ ...conversation, owner: `user:${session.body.user.id}` });
    await t.deps.table.put({
      ...activityEntryKey(orgId, workspaceId, at, 'act_before'),
      id: 'act_before',
      query: 'before',
      created_at: at,
    });
    await migrate();

    const before = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie });
    expect(before.body.conversations.map((c: { id: string }) => c.id)).toEqual([legacyId]);
    // Open conversations are listed from gsi1 (the migration took it out of gsi2), so it is listed once.
    const openBefore = await pages(cookie, `/api/workspaces/${workspaceId}/conversations?status=open`, 'conversations', 1);
    expect(openBefore.map((c) => c.id)).toEqual([legacyId]);
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie });
    expect(activity.body.activity.map((entry: { query: string }) => entry.query)).toEqual(['before']);

    const next = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie,
      body: { query: 'again', session_id: legacyId },
    });
    expect(next.status, next.text).toBe(200);
    const after = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie });
    expect(after.body.conversations.map((c: { id: string }) => c.id)).toEqual([legacyId]);
    // Its id's shard is not 0, so the migration moved its entry out of the unsharded key, and the query left it there.
    expect(listShardOf(legacyId)).not.toBe(0);
    const stored = await t.deps.table.get<Item>(conversationKey(orgId, workspaceId, legacyId), true);
    expect(stored?.gsi1pk).toBe(shardKey(conversationList(orgId, workspaceId), listShardOf(legacyId)));
    // And out of the by-status list, which holds cold and closed conversations only.
    expect(stored).not.toHaveProperty('gsi2pk');
    expect(stored).not.toHaveProperty('gsi2sk');
  });
});

describe('every status is listed from gsi1 (gsi2 holds no conversation)', () => {
  it('writes no gsi2 entry for a question or a close, and lists each status from gsi1 filtered', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      t.clock.advance(1000);
      const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: `status ${n}` } });
      expect(answer.status, answer.text).toBe(200);
      ids.push(answer.body.conversation_id);
    }
    t.clock.advance(1000);
    const followUp = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie,
      body: { query: 'and again', session_id: ids[0] },
    });
    expect(followUp.status, followUp.text).toBe(200);
    const item = (id: string) => t.deps.table.get<Item>(conversationKey(orgId, workspaceId, id), true);
    for (const id of ids) expect(await item(id)).not.toHaveProperty('gsi2pk');

    const [closedId, ...openIds] = ids as [string, ...string[]];
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${closedId}/close`, { cookie });
    expect(closed.status, closed.text).toBe(200);
    const stored = await item(closedId);
    expect(stored?.status).toBe('closed');
    expect(stored).not.toHaveProperty('gsi2pk');
    expect(stored?.gsi1pk).toBe(shardKey(conversationList(orgId, workspaceId), listShardOf(closedId)));

    const list = async (filter: string) => {
      const page = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?${filter}`, { cookie });
      expect(page.status, page.text).toBe(200);
      return { ids: page.body.conversations.map((c: { id: string }) => c.id), total: page.body.total };
    };
    expect(await list('status=closed')).toEqual({ ids: [closedId], total: 1 });
    // Newest activity first: the follow-up made the first conversation the newest, but it is closed now.
    expect(await list('status=open')).toEqual({ ids: [...openIds].reverse(), total: 2 });
    // A second filter is counted by COUNT Queries over gsi1, filtered on the status too.
    expect(await list('status=open&consumer=api')).toEqual({ ids: [...openIds].reverse(), total: 2 });
    expect(await list('status=closed&consumer=api')).toEqual({ ids: [closedId], total: 1 });
    const paged = await pages(cookie, `/api/workspaces/${workspaceId}/conversations?status=open`, 'conversations', 1);
    expect(paged.map((c) => c.id)).toEqual([...openIds].reverse());
    expect(await list('status=cold')).toEqual({ ids: [], total: 0 });
  });

  it('lists a conversation the migration took out of the by-status list of before by its status as it moves', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'listed twice before' } });
    expect(answer.status, answer.text).toBe(200);
    const id: string = answer.body.conversation_id;
    const key = conversationKey(orgId, workspaceId, id);
    // As the version before wrote a cold conversation: also in gsi2's cold list.
    await t.deps.table.update(key, {
      update: 'SET #status = :cold, gsi2pk = :pk, gsi2sk = last_activity_at',
      names: { '#status': 'status' },
      values: { ':cold': 'cold', ':pk': shardKey(`${conversationList(orgId, workspaceId)}#cold`, listShardOf(id)) },
    });
    await migrate();
    const cold = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?status=cold`, { cookie });
    expect(cold.body.conversations.map((c: { id: string }) => c.id)).toEqual([id]);
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${id}/close`, { cookie });
    expect(closed.status, closed.text).toBe(200);
    const stored = await t.deps.table.get<Item>(key, true);
    expect(stored?.status).toBe('closed');
    expect(stored).not.toHaveProperty('gsi2pk');
    expect(stored).not.toHaveProperty('gsi2sk');
    const list = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?status=closed`, { cookie });
    expect(list.body.conversations.map((c: { id: string }) => c.id)).toEqual([id]);
  });
});
