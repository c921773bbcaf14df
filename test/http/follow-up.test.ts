import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationPartition, MESSAGE_PREFIX, messageKey } from '../../shared/conversations/entities.js';
import { scheduleName } from '../../shared/jobs/scheduler.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';

/*
 * A follow-up is saved in one round of store calls: its conversation claimed as the query read it,
 * alongside its messages under the numbers that follow (shared/agent/query/persist-follow-up.ts).
 * These tests change the conversation while a follow-up waits for the model, and check that what
 * is stored is what it would have been had the writes been made one after the other.
 */

let t: TestContext;
let model: FakeModel;

/** The text of a request's last user message. */
function questionOf(request: ModelRequestRecord): string {
  const last = request.body.messages.at(-1)?.content as string | { type: string; text?: string }[] | undefined;
  if (typeof last === 'string') return last;
  return (last ?? []).map((block) => block.text ?? '').join('');
}

/** How long the model takes per question: "slow …" 400 ms, "slower …" 800 ms, others at once; it answers "re: <question>". */
function answerAfterDelays(request: ModelRequestRecord) {
  const question = questionOf(request);
  const delayMs = question.startsWith('slower') ? 800 : question.startsWith('slow') ? 400 : 0;
  return { ...textReply(`re: ${question}`), delayMs };
}

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(() => {
  model.reset();
  model.handle(answerAfterDelays);
});

async function started() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Follow-ups ${t.uniqueEmail('ws')}` });
  const ask = (body: Record<string, unknown>) => t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body });
  const first = await ask({ query: 'first' });
  expect(first.status, first.text).toBe(200);
  const conversationId = first.body.session_id as string;
  const detail = async () => {
    const response = await t.request('GET', `/api/workspaces/${workspace.id}/conversations/${conversationId}`, { cookie: admin.cookie });
    expect(response.status, response.text).toBe(200);
    return response.body as { conversation: { status: string; message_count: number }; messages: { seq: number; content: string }[] };
  };
  const transcript = async () => (await detail()).messages.map((message) => `${message.seq} ${message.content}`);
  const tickets = async () => {
    const response = await t.request('GET', `/api/workspaces/${workspace.id}/dashboard`, { cookie: admin.cookie });
    expect(response.status, response.text).toBe(200);
    return response.body.tickets;
  };
  const follow = (query: string) => ask({ query, session_id: conversationId });
  const key = (seq: number) => messageKey(admin.org.id, workspace.id, conversationId, seq);
  return { admin, workspaceId: workspace.id, conversationId, ask, follow, detail, transcript, tickets, key };
}

/** Waits until the model has been asked `question` (the query has read its conversation and waits for the answer). */
async function askedFor(question: string) {
  for (let tries = 0; tries < 400; tries += 1) {
    if (model.requests.some((request) => questionOf(request) === question)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the model was never asked "${question}"`);
}

describe('a follow-up saved in one round', () => {
  it('writes the claim and the messages in the same round of store calls', async () => {
    const { follow, transcript } = await started();
    const table = t.deps.table;
    const { updateReturningOld, put } = table;
    const events: string[] = [];
    table.updateReturningOld = (async (...args: Parameters<typeof updateReturningOld>) => {
      events.push('claim sent');
      try {
        return await updateReturningOld.apply(table, args);
      } finally {
        events.push('claim answered');
      }
    }) as typeof updateReturningOld;
    table.put = (...args: Parameters<typeof put>) => {
      events.push(`put ${String((args[0] as { sk: string }).sk).startsWith(MESSAGE_PREFIX) ? 'message' : 'other'}`);
      return put.apply(table, args);
    };
    try {
      const next = await follow('next');
      expect(next.status, next.text).toBe(200);
    } finally {
      table.updateReturningOld = updateReturningOld;
      table.put = put;
    }
    // The question and its answer are one item (conversations/messages.ts): one put.
    expect(events).toEqual(['claim sent', 'put message', 'claim answered']);
    expect(await transcript()).toEqual(['1 first', '2 re: first', '3 next', '4 re: next']);
  });

  it('numbers the messages of two follow-ups that read the conversation at the same time one after the other', async () => {
    const { follow, transcript, detail, tickets } = await started();
    // Both read two messages; the slow one is saved first, and the slower one's claim is refused.
    const [slow, slower] = await Promise.all([follow('slow one'), follow('slower one')]);
    expect(slow.status, slow.text).toBe(200);
    expect(slower.status, slower.text).toBe(200);
    expect(await transcript()).toEqual(['1 first', '2 re: first', '3 slow one', '4 re: slow one', '5 slower one', '6 re: slower one']);
    expect((await detail()).conversation.message_count).toBe(6);
    expect(await tickets()).toEqual({ open: 1, cold: 0, closed: 0, total: 1 });
  });

  it('overwrites a message that a refused follow-up left under a number the claim handed out', async () => {
    const { follow, transcript, key } = await started();
    const asked = follow('slow question');
    await askedFor('slow question');
    // What a follow-up whose claim was refused leaves until it takes it back (or forever, if it crashed).
    await t.deps.table.put({
      ...key(3),
      id: 'msg-refused',
      seq: 3,
      role: 'user',
      content: 'left behind',
      created_at: t.clock.now().toISOString(),
    });
    const response = await asked;
    expect(response.status, response.text).toBe(200);
    expect(await transcript()).toEqual(['1 first', '2 re: first', '3 slow question', '4 re: slow question']);
  });

  it('shows and tells the model nothing of a message numbered past the count', async () => {
    const { follow, transcript, key } = await started();
    await t.deps.table.put({ ...key(9), id: 'msg-ghost', seq: 9, role: 'user', content: 'ghost', created_at: t.clock.now().toISOString() });
    expect(await transcript()).toEqual(['1 first', '2 re: first']);
    const next = await follow('next');
    expect(next.status, next.text).toBe(200);
    const request = model.requests.find((candidate) => questionOf(candidate) === 'next');
    expect(JSON.stringify(request?.body.messages)).not.toContain('ghost');
  });

  it('sets the counters right when the conversation went cold while the follow-up ran', async () => {
    const { admin, workspaceId, conversationId, follow, detail, tickets } = await started();
    const asked = follow('slow after a while');
    await askedFor('slow after a while');
    // The cold move runs meanwhile (its time came): the follow-up read the conversation open.
    const cold = t.scheduler.pending.get(scheduleName('cold', admin.org.id, workspaceId, conversationId));
    expect(cold).toBeDefined();
    await t.deps.jobs.enqueue(cold!.message);
    await t.runner.idle();
    expect((await detail()).conversation.status).toBe('cold');
    expect(await tickets()).toEqual({ open: 0, cold: 1, closed: 0, total: 1 });
    const response = await asked;
    expect(response.status, response.text).toBe(200);
    expect((await detail()).conversation.status).toBe('open');
    expect(await tickets()).toEqual({ open: 1, cold: 0, closed: 0, total: 1 });
  });

  it('answers 409 when the conversation was closed while the follow-up ran, keeping its audit entry and taking its messages back', async () => {
    const { admin, workspaceId, conversationId, follow, transcript, tickets, detail } = await started();
    const asked = follow('slow, then closed');
    await askedFor('slow, then closed');
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${conversationId}/close`, {
      cookie: admin.cookie,
    });
    expect(closed.status, closed.text).toBe(200);
    const response = await asked;
    expect(response.status, response.text).toBe(409);
    expect(response.body.error).toContain('closed');
    expect(await transcript()).toEqual(['1 first', '2 re: first']);
    expect((await detail()).conversation).toMatchObject({ status: 'closed', message_count: 2 });
    const items = await t.deps.table.queryAll({ pk: conversationPartition(admin.org.id, workspaceId, conversationId) });
    // The first question and its answer, one item; the follow-up's was taken back.
    expect(items.filter((item) => item.sk.startsWith(MESSAGE_PREFIX))).toHaveLength(1);
    expect(await tickets()).toEqual({ open: 0, cold: 0, closed: 1, total: 1 });
    // The model was paid for: the query is in the activity log.
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.status, activity.text).toBe(200);
    expect(activity.body.activity.map((entry: { query: string }) => entry.query)).toContain('slow, then closed');
  });
});
