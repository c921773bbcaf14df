import { Entity } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../bin/embedded-store.js';
import { conversationUpdate, type ClaimedQuery } from '../../shared/agent/query/claim.js';
import { dueIndex } from '../../shared/conversations/lifecycle.js';
import { conversationTitle, firstQuestion } from '../../shared/conversations/title.js';
import { systemClock } from '../../shared/platform/clock.js';
import { keys } from '../../shared/platform/keys.js';
import { DynamoClient, StoreError } from '../../shared/platform/store-http.js';
import { Table, type Item } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';
import { plainItems, singleTable, updateOf } from '../../shared/platform/updates.js';

/**
 * The conversation item's write (shared/agent/query/claim.ts) is written out by hand, for speed.
 * Here dynamodb-toolbox builds the same write from the item's typed schema, as the query did
 * before, and both run on an embedded store of their own, case by case: the items they leave,
 * what they return, and when their conditions refuse must be the same.
 */

const conversationEntity = new Entity({
  name: 'conversation',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    id: string(),
    workspace_id: string(),
    org_id: string(),
    status: string().enum('open', 'cold', 'closed'),
    consumer_type: string().enum('api', 'team-chat', 'messaging', 'coding-agent'),
    user_name: string(),
    title: string().optional(),
    channel: anyOf(nul(), string()),
    owner: string().optional(),
    chat_channel_id: string().optional(),
    chat_thread_ts: string().optional(),
    first_message_at: string(),
    last_activity_at: string(),
    message_count: number(),
    total_cost_usd: number(),
    stats_status: string(),
    due_at: string().optional(),
    cold_at: string().optional(),
    moved_by: string().optional(),
    gsi1pk: string(),
    gsi1sk: string(),
    gsi2pk: string(),
    gsi2sk: string(),
    gsi3pk: string().optional(),
    gsi3sk: string().optional(),
  }),
});

/** The write as toolbox builds it from the schema (the query's code before it was written out). */
function typedUpdate(saved: ClaimedQuery, at: string, coldAt: Date) {
  const { caller, workspace, conversationId } = saved;
  const indexKey = keys.timeOrdered(at, conversationId);
  const chat = caller.chat;
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({
      ...keys.conversation(workspace.org_id, workspace.id, conversationId),
      status: 'open',
      last_activity_at: at,
      gsi1pk: keys.conversationsIndex(workspace.org_id, workspace.id),
      gsi1sk: indexKey,
      gsi2pk: keys.conversationsByStatusIndex(workspace.org_id, workspace.id, 'open'),
      gsi2sk: indexKey,
      due_at: coldAt.toISOString(),
      ...dueIndex('open', workspace.org_id, workspace.id, conversationId, coldAt),
      id: $get('id', conversationId),
      workspace_id: $get('workspace_id', workspace.id),
      org_id: $get('org_id', caller.orgId),
      consumer_type: $get('consumer_type', caller.consumerType),
      user_name: $get('user_name', caller.userName),
      title: $get('title', conversationTitle(firstQuestion(saved.history, saved.query))),
      channel: $get('channel', caller.channel),
      first_message_at: $get('first_message_at', at),
      stats_status: $get('stats_status', 'pending'),
      owner: $get('owner', caller.owner),
      chat_channel_id: chat ? $get('chat_channel_id', chat.channelId) : undefined,
      chat_thread_ts: chat ? $get('chat_thread_ts', chat.threadTs) : undefined,
      message_count: $add(saved.resumed ? (saved.answered ? 1 : 0) : saved.history.length + (saved.answered ? 2 : 1)),
      total_cost_usd: $add(saved.costUsd - (saved.resumed?.counted.costUsd ?? 0)),
      moved_by: $remove(),
      cold_at: $remove(),
    })
    .options({
      condition: {
        and: [
          {
            or: [
              { attr: 'pk', exists: false },
              { attr: 'status', ne: 'closed' },
            ],
          },
          {
            or: [
              { attr: 'owner', exists: false },
              { attr: 'owner', eq: caller.owner },
            ],
          },
        ],
      },
    });
  return updateOf(command);
}

const stores: { embedded: EmbeddedStore; client: DynamoClient; table: Table }[] = [];

beforeAll(async () => {
  for (let index = 0; index < 2; index += 1) {
    const embedded = openEmbeddedStore(null);
    const client = new DynamoClient({ region: 'local', transport: embedded.transport });
    await ensureTable(client, 'claim');
    stores.push({ embedded, client, table: new Table(client, 'claim', systemClock) });
  }
});

afterAll(async () => {
  for (const { client, embedded } of stores) {
    client.destroy();
    await embedded.close();
  }
});

const api = { orgId: 'org_1', role: 'admin' as const, userName: 'Ada', consumerType: 'api' as const, channel: null, owner: 'user:ada' };
const query = (overrides: Partial<ClaimedQuery> = {}): ClaimedQuery => ({
  caller: api,
  workspace: { id: 'ws_1', org_id: 'org_1' } as ClaimedQuery['workspace'],
  conversationId: 'conv_1',
  history: [],
  query: 'Where is my order?',
  answered: true,
  costUsd: 0.25,
  ...overrides,
});

/** Runs one build on each store (hand-written on the first, toolbox's on the second): what each returned or why it refused, and the item after. */
async function both(saved: ClaimedQuery, at: string, before?: Record<string, unknown>) {
  const coldAt = new Date(Date.parse(at) + 30 * 60_000);
  const builds = [conversationUpdate(saved, at, coldAt), typedUpdate(saved, at, coldAt)];
  const key = keys.conversation(saved.workspace.org_id, saved.workspace.id, saved.conversationId);
  return Promise.all(
    stores.map(async ({ table }, index) => {
      await table.delete(key);
      if (before) await table.put({ ...key, ...before } as Item);
      const { input } = builds[index]!;
      const returned = await table.updateReturningOld(key, input).catch((error: unknown) => {
        if (error instanceof StoreError) return error.name;
        throw error;
      });
      return { returned, after: await table.get(key, true) };
    }),
  );
}

const earlier = {
  id: 'conv_1',
  workspace_id: 'ws_1',
  org_id: 'org_1',
  consumer_type: 'api',
  user_name: 'Ada',
  channel: null,
  owner: 'user:ada',
  first_message_at: '2026-11-01T10:00:00.000Z',
  last_activity_at: '2026-11-01T10:05:00.000Z',
  message_count: 4,
  total_cost_usd: 1.5,
  stats_status: 'pending',
  gsi1pk: 'old',
  gsi1sk: 'old',
  gsi2pk: 'old',
  gsi2sk: 'old',
};

describe('the conversation item’s write (query/claim.ts), against toolbox’s typed build', () => {
  const cases: [string, ClaimedQuery, Record<string, unknown> | undefined][] = [
    ['a new conversation with a starting history', query({ history: [{}, {}] }), undefined],
    ['a new conversation whose query stopped before the model', query({ answered: false }), undefined],
    [
      'a team-chat thread in a named channel',
      query({
        caller: { ...api, consumerType: 'team-chat', channel: '#help', owner: 'chat:ws_1', chat: { channelId: 'C1', threadTs: '171.5' } },
      }),
      undefined,
    ],
    ['an open conversation continued by its owner', query(), { ...earlier, status: 'open' }],
    ['a cold conversation reopened', query(), { ...earlier, status: 'cold', cold_at: '2026-11-02T00:00:00.000Z', moved_by: 'timer' }],
    ['a closed conversation', query(), { ...earlier, status: 'closed' }],
    ['someone else’s conversation', query(), { ...earlier, status: 'open', owner: 'user:bob' }],
    ['a conversation older than owners', query(), { ...earlier, status: 'open', owner: undefined }],
    ['a query resumed after an approval', query({ resumed: { counted: { costUsd: 0.1 } } }), { ...earlier, status: 'open' }],
    [
      'a resumed query that paused again',
      query({ answered: false, resumed: { counted: { costUsd: 0.25 } } }),
      { ...earlier, status: 'open' },
    ],
    [
      'a team-chat thread continued (its channel and thread kept)',
      query({
        caller: { ...api, consumerType: 'team-chat', channel: '#help', owner: 'chat:ws_1', chat: { channelId: 'C2', threadTs: '999.1' } },
      }),
      {
        ...earlier,
        consumer_type: 'team-chat',
        channel: '#help',
        owner: 'chat:ws_1',
        status: 'open',
        chat_channel_id: 'C1',
        chat_thread_ts: '171.5',
      },
    ],
    ['someone else’s cold conversation', query(), { ...earlier, status: 'cold', owner: 'user:bob', moved_by: 'timer' }],
  ];
  for (const [name, saved, before] of cases) {
    it(`writes ${name} as toolbox’s build does`, async () => {
      const [hand, typed] = await both(saved, '2026-11-24T09:00:00.000Z', before);
      expect(hand).toEqual(typed);
      // Each case does something: the item is written, or the condition refuses.
      expect(hand?.returned === 'ConditionalCheckFailedException' || hand?.after?.last_activity_at === '2026-11-24T09:00:00.000Z').toBe(
        true,
      );
    });
  }

  it('refuses a closed conversation and someone else’s, and claims one older than owners', async () => {
    const closed = await both(query(), '2026-11-24T09:00:00.000Z', { ...earlier, status: 'closed' });
    expect(closed[0]?.returned).toBe('ConditionalCheckFailedException');
    const claimed = await both(query(), '2026-11-24T09:00:00.000Z', { ...earlier, status: 'cold', owner: undefined, moved_by: 'timer' });
    expect(claimed[0]?.after).toMatchObject({
      owner: 'user:ada',
      status: 'open',
      message_count: 6,
      first_message_at: earlier.first_message_at,
    });
    expect(claimed[0]?.after).not.toHaveProperty('moved_by');
  });
});
