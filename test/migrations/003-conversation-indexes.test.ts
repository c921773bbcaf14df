import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationIndexes } from '../../migrations/003-conversation-indexes.js';
import {
  closesEntryIn,
  conversationKey,
  conversationList,
  listingEntry,
  messageKey,
  pendingEntry,
  pendingEntryIn,
} from '../../shared/conversations/entities.js';
import { nextDueAt, sweepOverdue } from '../../shared/sweep/due-sweep.js';
import { lifecycleHandler, lifecycleMessage, type LifecycleJob } from '../../shared/conversations/lifecycle.js';
import { unrecordedJob } from '../../shared/jobs/ledger.js';
import { scheduleName } from '../../shared/jobs/scheduler.js';
import { listShardOf, shardKey } from '../../shared/platform/list-shards.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { isStatsRequest, startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

/*
 * Migration 003 on a table as the versions before wrote conversations: listed in the unsharded
 * list with `<last activity>#<id>` sort keys and in the by-status lists of gsi2, due in gsi4 while
 * open and in gsi3 (`DUE#<status>#<0-31>`), marked by their moves' job ids. Afterwards each is
 * listed, read, swept and moved as it was, from this version's indexes only.
 */

const MINUTE = 60_000;
let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle((request) =>
    isStatsRequest(request)
      ? toolUseReply([
          {
            name: 'record_conversation_stats',
            input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'support', summary: 'Asked; answered.' },
          },
        ])
      : textReply('Answered.'),
  );
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});

const migrate = () => runMigrations(t.deps.table, [conversationIndexes], { clock: t.clock });

/** A workspace and five conversations in it: four as versions before wrote them, one as this version does. */
async function tableOfBefore() {
  const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Before');
  const session = await t.request('GET', '/api/auth/session', { cookie });
  const t0 = t.clock.now().getTime();
  const at = (minutes: number) => new Date(t0 + minutes * MINUTE).toISOString();
  const conversation = (id: string, status: string, last: number) => ({
    ...conversationKey(orgId, workspaceId, id),
    id,
    workspace_id: workspaceId,
    org_id: orgId,
    owner: `user:${session.body.user.id}`,
    status,
    consumer_type: 'api',
    user_name: 'Ada',
    title: `Question of ${id}`,
    channel: null,
    message_count: 2,
    total_cost_usd: 0,
    stats_status: 'pending',
    first_message_at: at(last),
    last_activity_at: at(last),
  });
  const list = conversationList(orgId, workspaceId);
  const ids = { beforeShards: 'conv_before_the_shards', coldInGsi3: 'conv_cold_in_gsi3', openInGsi3: 'conv_open_in_gsi3' };
  const planted: Item[] = [
    // Open, before the list's shards and before `pending`: in the unsharded list, in gsi2's open list, due in gsi4.
    {
      ...conversation(ids.beforeShards, 'open', -10),
      due_at: at(20),
      gsi1pk: list,
      gsi1sk: `${at(-10)}#${ids.beforeShards}`,
      gsi2pk: `${list}#open`,
      gsi2sk: at(-10),
      gsi4pk: 'DUE#open#2',
      gsi4sk: at(20),
    },
    // Cold, due in gsi3 (before `closes` had its own projection), in gsi2's cold list, marked by its move's job id.
    {
      ...conversation(ids.coldInGsi3, 'cold', -40),
      cold_at: at(-10),
      due_at: at(50),
      ...listingEntry(orgId, workspaceId, ids.coldInGsi3, at(-40)),
      gsi2pk: shardKey(`${list}#cold`, listShardOf(ids.coldInGsi3)),
      gsi2sk: at(-40),
      gsi3pk: 'DUE#cold#17',
      gsi3sk: `${at(50)}#${orgId}#${workspaceId}#${ids.coldInGsi3}`,
      moved_by: `lifecycle-cold-${orgId}-${workspaceId}-${ids.coldInGsi3}-${at(-40)}`,
    },
    // Open, due in gsi3.
    {
      ...conversation(ids.openInGsi3, 'open', -5),
      due_at: at(25),
      ...listingEntry(orgId, workspaceId, ids.openInGsi3, at(-5)),
      gsi3pk: 'DUE#open#5',
      gsi3sk: `${at(25)}#${orgId}#${workspaceId}#${ids.openInGsi3}`,
    },
    // Closed by its timed move, marked by the job's id, still in gsi2's closed list.
    {
      ...conversation('conv_closed_before', 'closed', -100),
      stats_status: 'complete',
      closed_at: at(-30),
      ...listingEntry(orgId, workspaceId, 'conv_closed_before', at(-100)),
      gsi2pk: `${list}#closed`,
      gsi2sk: at(-100),
      moved_by: `lifecycle-close-${orgId}-${workspaceId}-conv_closed_before-${at(-100)}`,
    },
  ];
  const current: Item = {
    ...conversation('conv_current', 'open', -1),
    due_at: at(300),
    ...listingEntry(orgId, workspaceId, 'conv_current', at(-1)),
    ...pendingEntry('open', workspaceId, 'conv_current', new Date(t0 + 300 * MINUTE), t.deps.config.dueIndexShards),
  };
  for (const item of [...planted, current]) await t.deps.table.put(item);
  for (const [seq, role, content] of [
    [1, 'user', 'Where is my order?'],
    [2, 'assistant', 'On its way.'],
  ] as const) {
    await t.deps.table.put({
      ...messageKey(orgId, workspaceId, ids.beforeShards, seq),
      id: `msg_${seq}`,
      seq,
      role,
      content,
      created_at: at(-10),
    });
  }
  return { cookie, orgId, workspaceId, t0, at, ids, current };
}

describe("migration 003: conversations' index entries and marks", () => {
  it('moves what versions before wrote into this version’s indexes, where it is listed, read, swept and moved as it was', async () => {
    const { cookie, orgId, workspaceId, t0, at, ids, current } = await tableOfBefore();
    expect(listShardOf(ids.beforeShards)).not.toBe(0);

    expect(await migrate()).toMatchObject({ from: 1, to: 3, moved: 4, left: 0 });
    expect(await migrate()).toMatchObject({ ran: [], moved: 0 });
    await t.deps.table.delete(SCHEMA_MARKER);
    expect(await migrate()).toMatchObject({ to: 3, moved: 0, left: 0 });

    const stored = (id: string) => t.deps.table.get<Item>(conversationKey(orgId, workspaceId, id), true);
    expect(await stored('conv_current')).toEqual(current);
    for (const id of [ids.beforeShards, ids.coldInGsi3, ids.openInGsi3, 'conv_closed_before']) {
      const item = (await stored(id))!;
      expect(item).toMatchObject(listingEntry(orgId, workspaceId, id, String(item.last_activity_at)));
      for (const gone of ['gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk']) expect(item).not.toHaveProperty(gone);
    }
    const beforeShards = (await stored(ids.beforeShards))!;
    expect(beforeShards).toMatchObject(pendingEntryIn('open', 0, at(20)));
    expect(beforeShards).not.toHaveProperty('gsi4pk');
    expect(await stored(ids.openInGsi3)).toMatchObject(pendingEntryIn('open', 0, at(25)));
    expect(await stored(ids.coldInGsi3)).toMatchObject({ ...closesEntryIn(0, at(50)), moved_by: `cold@${at(-40)}` });
    expect(await stored('conv_closed_before')).toMatchObject({ moved_by: `close@${at(-100)}` });

    // Listed once each, newest activity first, in all and by status; read with its messages.
    const listed = async (filter = '') => {
      const page = await t.request('GET', `/api/workspaces/${workspaceId}/conversations${filter}`, { cookie });
      expect(page.status, page.text).toBe(200);
      return page.body.conversations.map((conversation: { id: string }) => conversation.id);
    };
    expect(await listed()).toEqual(['conv_current', ids.openInGsi3, ids.beforeShards, ids.coldInGsi3, 'conv_closed_before']);
    expect(await listed('?status=open')).toEqual(['conv_current', ids.openInGsi3, ids.beforeShards]);
    expect(await listed('?status=cold')).toEqual([ids.coldInGsi3]);
    expect(await listed('?status=closed')).toEqual(['conv_closed_before']);
    const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${ids.beforeShards}`, { cookie });
    expect(detail.body.messages.map((message: { content: string }) => message.content)).toEqual(['Where is my order?', 'On its way.']);

    // A retry of the cold move of before finds it made by its mark, and plans the close again, from now.
    const coldMove = { workspaceId, conversationId: ids.coldInGsi3, move: 'cold', lastActivityAt: at(-40) } satisfies LifecycleJob;
    t.scheduler.pending.clear();
    await lifecycleHandler.run(t.deps, coldMove, unrecordedJob(t.deps, lifecycleMessage(orgId, coldMove)));
    expect(t.scheduler.pending.has(scheduleName('close', orgId, workspaceId, ids.coldInGsi3))).toBe(true);
    t.scheduler.pending.clear();

    // Swept at their due times: the open ones go cold.
    expect((await nextDueAt(t.deps, t.clock.now()))?.getTime()).toBe(t0 + 20 * MINUTE);
    t.clock.set(new Date(t0 + 25 * MINUTE));
    expect(await sweepOverdue(t.deps)).toBe(2);
    await t.runner.idle();
    expect(await listed('?status=cold')).toEqual([ids.openInGsi3, ids.beforeShards, ids.coldInGsi3]);
    // The cold one closes when its close (planned again by the retry) falls due; the two gone cold since, later.
    t.clock.set(new Date(String((await stored(ids.coldInGsi3))?.due_at)));
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(await listed('?status=closed')).toEqual([ids.coldInGsi3, 'conv_closed_before']);
    expect(await stored(ids.coldInGsi3)).toMatchObject({ stats_status: 'complete' });
  });
});
