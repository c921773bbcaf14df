import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBServiceException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { conversationUpdate, freshConversationItem, type ClaimedQuery } from '../../shared/agent/query/claim.js';
import { callerUserId } from '../../shared/agent/query/types.js';
import { conversationKey, conversationList, pendingEntry } from '../../shared/conversations/entities.js';
import { conversationTitle, firstQuestion } from '../../shared/conversations/title.js';
import { systemClock } from '../../shared/platform/clock.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { Table, type Item, type UpdateInput } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/**
 * The conversation item's write (shared/agent/query/claim.ts) is built by dynamodb-toolbox
 * from the item's typed schema. For a while it was written out by hand, for speed; that expression
 * is kept here as the reference of what the write must do, and both run on an embedded store of
 * their own, case by case: the items they leave, what they return, and when their conditions
 * refuse must be the same.
 */

/** The write as it was written out by hand: every attribute and condition spelled out. */
function referenceUpdate(saved: ClaimedQuery, at: string, coldAt: Date): UpdateInput {
  const { caller, workspace, conversationId } = saved;
  const indexKey = at;
  const chat = caller.chat;
  const due = pendingEntry('open', workspace.id, conversationId, coldAt, 128);
  const set = {
    status: 'open',
    last_activity_at: at,
    gsi1pk: conversationList(workspace.org_id, workspace.id),
    gsi1sk: indexKey,
    due_at: coldAt.toISOString(),
    gsi5pk: due.gsi5pk,
  };
  const once = {
    id: conversationId,
    workspace_id: workspace.id,
    org_id: caller.orgId,
    consumer_type: caller.consumerType,
    user_name: caller.userName,
    title: conversationTitle(firstQuestion(saved.history, saved.query)),
    channel: caller.channel,
    first_message_at: at,
    stats_status: 'pending',
    owner: caller.owner,
    // Its starter, the person who asks (none for a key's).
    ...(callerUserId(caller) ? { user_id: callerUserId(caller) } : {}),
    gsi5sk: due.gsi5sk,
    ...(chat ? { chat_channel_id: chat.channelId, chat_thread_ts: chat.threadTs } : {}),
  };
  const add = {
    message_count: saved.resumed ? (saved.answered ? 1 : 0) : saved.history.length + (saved.answered ? 2 : 1),
    total_cost_usd: saved.costUsd - (saved.resumed?.counted.costUsd ?? 0),
  };
  const names: Record<string, string> = {
    '#pk': 'pk',
    '#status': 'status',
    '#owner': 'owner',
    '#r4': 'moved_by',
    '#r5': 'cold_at',
    '#r6': 'gsi4pk',
    '#r7': 'gsi4sk',
  };
  const values: Record<string, unknown> = { ':closed': 'closed', ':caller': caller.owner };
  let count = 0;
  const token = (name: string, value: unknown) => {
    count += 1;
    names[`#a${count}`] = name;
    values[`:v${count}`] = value;
    return [`#a${count}`, `:v${count}`] as const;
  };
  const sets = Object.entries(set).map(([name, value]) => token(name, value).join(' = '));
  for (const [name, value] of Object.entries(once)) {
    const [attribute, placeholder] = token(name, value);
    sets.push(`${attribute} = if_not_exists(${attribute}, ${placeholder})`);
  }
  const adds = Object.entries(add).map(([name, value]) => token(name, value).join(' '));
  return {
    update: `SET ${sets.join(', ')} ADD ${adds.join(', ')} REMOVE #r4, #r5, #r6, #r7`,
    condition: '(attribute_not_exists(#pk) OR #status <> :closed) AND (attribute_not_exists(#owner) OR #owner = :caller)',
    names,
    values,
  };
}

const stores: { embedded: Awaited<ReturnType<typeof startEmbeddedStore>>; client: DynamoDBClient; table: Table }[] = [];

beforeAll(async () => {
  for (let index = 0; index < 2; index += 1) {
    const embedded = await startEmbeddedStore(null);
    const client = createDynamoClient({ awsRegion: 'local' }, embedded.endpoint);
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
  workspace: { id: 'ws_1', org_id: 'org_1', cold_timeout_minutes: 30 } as ClaimedQuery['workspace'],
  conversationId: 'conv_1',
  history: [],
  query: 'Where is my order?',
  answered: true,
  costUsd: 0.25,
  ...overrides,
});

/** Runs one build on each store (the typed one on the first, the reference on the second): what each returned or why it refused, and the item after. */
async function both(saved: ClaimedQuery, at: string, before?: Record<string, unknown>) {
  const coldAt = new Date(Date.parse(at) + 30 * 60_000);
  const typed = conversationUpdate(saved, at, coldAt, 128);
  const key = conversationKey(saved.workspace.org_id, saved.workspace.id, saved.conversationId);
  expect(typed.key).toEqual(key);
  const builds = [typed.input, referenceUpdate(saved, at, coldAt)];
  return Promise.all(
    stores.map(async ({ table }, index) => {
      await table.delete(key);
      if (before) await table.put({ ...key, ...before } as Item);
      const input = builds[index]!;
      const returned = await table.updateReturningOld(key, input).catch((error: unknown) => {
        if (error instanceof DynamoDBServiceException) return error.name;
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
};

describe('the conversation item’s typed write (query/claim.ts), against the hand-written reference', () => {
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
    it(`writes ${name} as the reference does`, async () => {
      const [typed, reference] = await both(saved, '2026-11-24T09:00:00.000Z', before);
      expect(typed).toEqual(reference);
      // Each case does something: the item is written, or the condition refuses.
      expect(typed?.returned === 'ConditionalCheckFailedException' || typed?.after?.last_activity_at === '2026-11-24T09:00:00.000Z').toBe(
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

describe('a conversation the query started: its item put in the batch of its messages (freshConversationItem)', () => {
  const fresh: [string, ClaimedQuery][] = [
    ['with a starting history', query({ history: [{}, {}] })],
    ['whose query stopped before the model', query({ answered: false })],
    [
      'a team-chat thread in a named channel',
      query({
        caller: { ...api, consumerType: 'team-chat', channel: '#help', owner: 'chat:ws_1', chat: { channelId: 'C1', threadTs: '171.5' } },
      }),
    ],
    ['paused for an approval', query({ answered: false, costUsd: 0.4 })],
  ];
  for (const [name, saved] of fresh) {
    it(`leaves the item the update leaves on no item: ${name}`, async () => {
      const at = '2026-11-24T09:00:00.000Z';
      const coldAt = new Date(Date.parse(at) + 30 * 60_000);
      const key = conversationKey(saved.workspace.org_id, saved.workspace.id, saved.conversationId);
      const [updated, put] = stores;
      await updated!.table.delete(key);
      await put!.table.delete(key);
      const { input } = conversationUpdate(saved, at, coldAt, 128);
      await updated!.table.updateReturningOld(key, input);
      await put!.table.batchPut([freshConversationItem(saved, at, coldAt, 128)]);
      const [byUpdate, byPut] = await Promise.all([updated!.table.get(key, true), put!.table.get(key, true)]);
      expect(byPut).toEqual(byUpdate);
      expect(byPut).toMatchObject({ status: 'open', last_activity_at: at, first_message_at: at, owner: saved.caller.owner });
    });
  }
});
