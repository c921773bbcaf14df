import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandMessages, storedMessage } from '../../shared/conversations/messages.js';
import { conversationPartition, MESSAGE_PREFIX, messageKey, messageSortKey } from '../../shared/conversations/entities.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * A question and its answer stored as one item (shared/conversations/messages.ts), and messages
 * stored one per item as before: written, read for the model's history and the detail, and rated.
 */

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle((request) => textReply(`answer ${request.body.messages.length}`));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t?.close();
  await model?.stop();
});

async function conversation() {
  const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Pairs');
  const admin = { cookie };
  const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
    cookie: admin.cookie,
    body: { query: 'first question' },
  });
  expect(asked.status, asked.text).toBe(200);
  const conversationId = asked.body.conversation_id as string;
  const messageItems = async () =>
    (await t.deps.table.queryAll({ pk: conversationPartition(orgId, workspaceId, conversationId) })).filter((item) =>
      item.sk.startsWith(MESSAGE_PREFIX),
    );
  const detail = async () => {
    const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie: admin.cookie });
    expect(response.status, response.text).toBe(200);
    return response.body.messages as { seq: number; role: string; content: string; feedback: { up: number; down: number } }[];
  };
  const rate = (seq: number, rating: 'up' | 'down') =>
    t.request('POST', `/api/workspaces/${workspaceId}/conversations/${conversationId}/messages/${seq}/feedback`, {
      cookie: admin.cookie,
      body: { rating },
    });
  return { admin, orgId, workspaceId, conversationId, messageItems, detail, rate };
}

describe('a question and its answer in one item', () => {
  it('writes one item for both, reads them as two messages, and rates the answer in it', async () => {
    const { messageItems, detail, rate } = await conversation();
    const items = await messageItems();
    expect(items.map((item) => item.sk)).toEqual(['MSG#000001']);
    expect(items[0]).toMatchObject({ seq: 1, role: 'user', content: 'first question', answer: { seq: 2, role: 'assistant' } });

    expect((await rate(2, 'up')).status).toBe(200);
    expect((await messageItems())[0]).toMatchObject({ answer_feedback_up: 1, answer_feedback_down: 0 });
    expect(await detail()).toMatchObject([
      { seq: 1, role: 'user', content: 'first question', feedback: { up: 0, down: 0 } },
      { seq: 2, role: 'assistant', content: 'answer 1', feedback: { up: 1, down: 0 } },
    ]);
    const question = await rate(1, 'up');
    expect(question.status).toBe(400);
    expect(question.body.details[0].path).toBe('seq');
    expect((await rate(3, 'up')).status).toBe(404);
  });

  it('reads messages stored one per item before, next to pairs, in order: for the model and the detail; rates both', async () => {
    const { admin, orgId, workspaceId, conversationId, messageItems, detail, rate } = await conversation();
    // The first exchange as the version before wrote it: one item per message.
    const [pair] = await messageItems();
    const { answer, ...question } = pair as Item & { answer: Record<string, unknown> };
    await t.deps.table.put(question);
    await t.deps.table.put({ ...answer, ...messageKey(orgId, workspaceId, conversationId, 2), feedback_up: 1, feedback_down: 0 });

    model.requests.length = 0;
    const next = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'second question', session_id: conversationId },
    });
    expect(next.status, next.text).toBe(200);
    const sent = model.requests.at(-1)?.body.messages.map((message) => JSON.stringify(message.content));
    expect(sent).toHaveLength(3);
    expect(sent?.[0]).toContain('first question');
    expect(sent?.[1]).toContain('answer 1');
    expect(sent?.[2]).toContain('second question');

    expect((await messageItems()).map((item) => item.sk)).toEqual(['MSG#000001', 'MSG#000002', 'MSG#000003']);
    expect((await rate(2, 'down')).status).toBe(200);
    expect((await rate(4, 'down')).status).toBe(200);
    expect(await detail()).toMatchObject([
      { seq: 1, role: 'user', content: 'first question' },
      // Its rating of before (someone else's up), and this one.
      { seq: 2, role: 'assistant', content: 'answer 1', feedback: { up: 1, down: 1 } },
      { seq: 3, role: 'user', content: 'second question' },
      { seq: 4, role: 'assistant', content: 'answer 3', feedback: { up: 0, down: 1 } },
    ]);

    // A third question: the history holds both layouts, in order.
    const third = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'third question', session_id: conversationId },
    });
    expect(third.status, third.text).toBe(200);
    expect(model.requests.at(-1)?.body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });
});

describe('a question and an answer too large for one item', () => {
  it('writes them one item each, and reads them as before', async () => {
    const { admin, workspaceId, conversationId, messageItems, detail } = await conversation();
    const long = 'An answer of many words. '.repeat(12_500); // 312 500 bytes: with the question, past 300 000
    model.reply(textReply(long));
    const next = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'tell me everything', session_id: conversationId },
    });
    expect(next.status, next.text).toBe(200);
    expect((await messageItems()).map((item) => item.sk)).toEqual(['MSG#000001', 'MSG#000003', 'MSG#000004']);
    const messages = await detail();
    expect(messages.map((message) => message.seq)).toEqual([1, 2, 3, 4]);
    expect(messages[3]?.content).toBe(long.trim());
  });
});

describe('expandMessages and storedMessage', () => {
  const pk = 'CONV#o#w#c';
  const pairOf = (seq: number): Item => ({
    pk,
    sk: messageSortKey(seq),
    seq,
    role: 'user',
    content: `q${seq}`,
    answer: { seq: seq + 1, role: 'assistant', content: `a${seq + 1}` },
    answer_feedback_up: 2,
  });

  it('puts each pair as its two messages in place, and leaves other items as they are', () => {
    const single: Item = { pk, sk: messageSortKey(3), seq: 3, role: 'user', content: 'q3' };
    const state: Item = { pk, sk: 'STATE', status: 'open' };
    const expanded = expandMessages([pairOf(1), single, state]);
    expect(expanded.map((item) => [item.sk, item.seq, item.role, item.feedback_up])).toEqual([
      ['MSG#000001', 1, 'user', undefined],
      ['MSG#000002', 2, 'assistant', 2],
      ['MSG#000003', 3, 'user', undefined],
      ['STATE', undefined, undefined, undefined],
    ]);
    expect(expanded[0]).not.toHaveProperty('answer');
    expect(expanded[0]).not.toHaveProperty('answer_feedback_up');
  });

  it('finds an answer in its own item or in the pair before it, and nothing else', () => {
    const single: Item = { pk, sk: messageSortKey(4), seq: 4, role: 'assistant', content: 'a4' };
    expect(storedMessage(single, pairOf(3), 4)).toMatchObject({ item: single, counters: '' });
    expect(storedMessage(undefined, pairOf(3), 4)).toMatchObject({ item: { sk: 'MSG#000003' }, message: { seq: 4 }, counters: 'answer_' });
    expect(storedMessage(undefined, pairOf(3), 5)).toBeUndefined();
    expect(storedMessage(undefined, { pk, sk: messageSortKey(3), seq: 3, role: 'user' }, 4)).toBeUndefined();
  });
});
