import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runKey } from '../../shared/routines/entities.js';
import type { RunFields } from '../../shared/routines/entities.js';
import type { TestContext } from '../support/context.js';
import { textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { bindChannel, requireApprovals, routinesPath, startRoutineRig, type RoutineRig } from '../support/routines.js';

/*
 * A routine's run that paused for an approval (issue 50, "Runs"): once the approval is decided, the
 * run ends at that moment (its item, not only the run list: `done` or `failed`, its cost, duration
 * and end) and a done run's whole answer reaches its webhook URL and its channel by the same
 * delivery job as an answer that needed no approval. Runs are read from their items, so nothing
 * here depends on the run list moving them.
 */

/** A model round of the balanced tier with this usage costs $0.006. */
const USAGE = { input_tokens: 1000, output_tokens: 200 };
const ROUND_USD = 0.006;

let rig: RoutineRig;
let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  rig = await startRoutineRig();
  ({ t, model } = rig);
});
afterAll(async () => {
  await rig.close();
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  rig.received.length = 0;
  rig.created.length = 0;
});

/** A workspace whose write tools need an admin's approval, bound to a channel, and a routine delivering to the receiver and the channel. */
async function routineWithApprovals(label: string) {
  const { cookie, workspaceId, orgId } = await t.adminWithWorkspace(label);
  await t.connectMcp(cookie, workspaceId, { name: 'tickets', url: rig.tickets.url });
  await requireApprovals(t, cookie, workspaceId, 'admins');
  const channelId = `C-${label.replace(/\W/g, '')}`;
  await bindChannel(t, { orgId, workspaceId, channelId, workspaceName: label });
  const made = await t.request('POST', routinesPath(workspaceId), {
    cookie,
    body: {
      name: 'Failed orders',
      prompt: 'Open a ticket if anything failed.',
      trigger: { webhook: true },
      deliver_to: { channel: true, webhook_url: `${rig.receiverOrigin}/inbox` },
    },
  });
  expect(made.status, made.text).toBe(201);
  return { cookie, workspaceId, channelId, routineId: made.body.routine.id as string };
}

/** Runs the routine now; the run's item once its job is done. */
async function runNow(cookie: string, workspaceId: string, routineId: string) {
  const started = await t.request('POST', `${routinesPath(workspaceId)}/${routineId}/run`, { cookie });
  expect(started.status, started.text).toBe(202);
  await t.runner.idle();
  return runItem(routineId, started.body.run.id);
}

async function runItem(routineId: string, runId: string): Promise<RunFields> {
  const item = await t.deps.table.get<RunFields>(runKey(routineId, runId), true);
  if (!item) throw new Error(`run ${runId} is not stored`);
  return item;
}

function decide(cookie: string, workspaceId: string, approvalId: string | null, decision: 'approve' | 'deny') {
  return t.request('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { cookie, body: { decision } });
}

const postsIn = (channelId: string) => t.chat.posts.filter((post) => post.channelId === channelId).map((post) => post.text);

describe('a routine run after its approval is decided', () => {
  it('approved: the call runs, the run is done with its whole cost at that moment, and the answer reaches the webhook and the channel', async () => {
    const { cookie, workspaceId, channelId, routineId } = await routineWithApprovals('Approved run');
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }], USAGE, 'Opening a ticket.'));
    model.reply(textReply('Ticket opened for the 3 failed orders.', USAGE));
    const waiting = await runNow(cookie, workspaceId, routineId);
    expect(waiting).toMatchObject({ status: 'waiting_approval', finished_at: null, approval_id: expect.stringMatching(/^appr_/) });
    expect(waiting.cost_usd).toBeCloseTo(ROUND_USD, 9);
    expect(rig.received).toEqual([]);

    t.clock.advance(5 * 60_000);
    const decided = await decide(cookie, workspaceId, waiting.approval_id, 'approve');
    expect(decided.status, decided.text).toBe(200);
    expect(rig.created).toEqual([{ title: 'failed orders' }]);
    // Ended by the decision itself: its item, not the run list, says so.
    const done = await runItem(routineId, waiting.id);
    expect(done).toMatchObject({ status: 'done', error: null, approval_id: waiting.approval_id, finished_at: t.clock.now().toISOString() });
    expect(done.cost_usd).toBeCloseTo(2 * ROUND_USD, 9);
    await t.runner.idle();
    expect(rig.received).toEqual([
      {
        path: '/inbox',
        body: expect.objectContaining({
          type: 'routine_run',
          routine: expect.objectContaining({ id: routineId }),
          run: expect.objectContaining({ id: waiting.id, conversation_id: waiting.conversation_id }),
          answer: 'Opening a ticket.\n\nTicket opened for the 3 failed orders.',
        }),
      },
    ]);
    expect(postsIn(channelId)).toEqual(['Routine "Failed orders":\nOpening a ticket.\n\nTicket opened for the 3 failed orders.']);
    const shown = await t.request('GET', `${routinesPath(workspaceId)}/${routineId}`, { cookie });
    expect(shown.body.routine.last_run).toMatchObject({ id: waiting.id, status: 'done' });
    // The run list agrees, and moves nothing again.
    const listed = await t.request('GET', `${routinesPath(workspaceId)}/${routineId}/runs`, { cookie });
    expect(listed.body.runs[0]).toMatchObject({ id: waiting.id, status: 'done', finished_at: done.finished_at });
    await t.runner.idle();
    expect(rig.received).toHaveLength(1);
  });

  it('denied: the call does not run, and the answer the model gives then is delivered', async () => {
    const { cookie, workspaceId, routineId } = await routineWithApprovals('Denied run');
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }], USAGE));
    model.reply(textReply('No ticket was opened: the call was denied.', USAGE));
    const waiting = await runNow(cookie, workspaceId, routineId);
    expect((await decide(cookie, workspaceId, waiting.approval_id, 'deny')).status).toBe(200);
    expect(rig.created).toEqual([]);
    expect(await runItem(routineId, waiting.id)).toMatchObject({ status: 'done', finished_at: expect.any(String) });
    await t.runner.idle();
    expect(rig.received.map((delivery) => delivery.body.answer)).toEqual(['No ticket was opened: the call was denied.']);
  });

  it('paused again on a second call: it waits on the new approval, delivered only once that one is decided', async () => {
    const { cookie, workspaceId, routineId } = await routineWithApprovals('Twice paused');
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'first' } }], USAGE));
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'second' } }], USAGE));
    model.reply(textReply('Two tickets opened.', USAGE));
    const waiting = await runNow(cookie, workspaceId, routineId);
    expect((await decide(cookie, workspaceId, waiting.approval_id, 'approve')).status).toBe(200);
    const again = await runItem(routineId, waiting.id);
    expect(again).toMatchObject({ status: 'waiting_approval', finished_at: null });
    expect(again.approval_id).not.toBe(waiting.approval_id);
    await t.runner.idle();
    expect(rig.received).toEqual([]);
    expect((await decide(cookie, workspaceId, again.approval_id, 'approve')).status).toBe(200);
    expect(await runItem(routineId, waiting.id)).toMatchObject({ status: 'done', approval_id: again.approval_id });
    await t.runner.idle();
    expect(rig.created).toEqual([{ title: 'first' }, { title: 'second' }]);
    expect(rig.received.map((delivery) => delivery.body.answer)).toEqual(['Two tickets opened.']);
  });

  it('expired: the run fails at the expiry as a refusal, and nothing is delivered', async () => {
    const { cookie, workspaceId, channelId, routineId } = await routineWithApprovals('Expired run');
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }], USAGE));
    model.reply(textReply('The ticket was not approved in time.', USAGE));
    const waiting = await runNow(cookie, workspaceId, routineId);
    t.clock.advance(61 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await runItem(routineId, waiting.id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('expired approval is a refusal'),
      finished_at: expect.any(String),
    });
    expect(rig.created).toEqual([]);
    expect(rig.received).toEqual([]);
    expect(postsIn(channelId)).toEqual([]);
  });
});
