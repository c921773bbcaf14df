import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runKey, type RunFields } from '../../shared/routines/entities.js';
import { linkChatAccount } from '../support/chat.js';
import { type ApprovalDesk, buttonsOf, startApprovalDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat, ShownMessage } from '../support/fake-chat.js';
import { textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { createRoutine, routinesPath } from '../support/routines.js';

/*
 * A routine's approval where the routine delivers (issue 50, "Runs": "the approval is posted where
 * the routine delivers (chat buttons, console)"): a run that pauses on a write tool asks its
 * approval in the workspace's bound channel, with the Approve / Deny buttons a thread's approval
 * has, decided by the same people; a decision ends the run, shows on the message, and the answer
 * goes on in the message's thread. Through the real Bolt client against the fake platform.
 */

let desk: ApprovalDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let admin: ApprovalDesk['admin'];
let workspaceId: string;
let created: ApprovalDesk['created'];

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

beforeAll(async () => {
  desk = await startApprovalDesk({ workspace: 'Routine approvals desk' });
  ({ t, chat, model, admin, workspaceId, created } = desk);
  // U3 is the admin's chat account, U2 a member's (both linked); U1 is linked to nobody.
  chat.users.U3 = 'Ada Admin (chat)';
  await linkChatAccount(t, { cookie: admin.cookie, orgId: admin.org.id, user: 'U3' });
  const member = await t.addMember(admin.cookie);
  await linkChatAccount(t, { cookie: member.cookie, orgId: admin.org.id, user: 'U2' });
});
afterAll(() => desk.stop());
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  created.length = 0;
  chat.clearMessages();
});

/** What a message shows: its text and the text of its blocks. */
const shownText = (message: ShownMessage | undefined) => `${message?.text ?? ''}\n${JSON.stringify(message?.blocks ?? [])}`;

/** A routine delivering to the workspace's bound channel (C1) whose run calls the write tool, then answers `answer`. */
async function pausedRun(name: string, answer = 'Ticket opened for the failed orders.') {
  const { routine } = await createRoutine(t, admin.cookie, workspaceId, {
    name,
    prompt: 'Open a ticket if any order failed.',
    trigger: { webhook: true },
    deliver_to: { channel: true },
  });
  model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }], undefined, 'Opening a ticket.'));
  model.reply(textReply(answer));
  const started = await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie: admin.cookie });
  expect(started.status, started.text).toBe(202);
  await t.runner.idle();
  const runId: string = started.body.run.id;
  const run = await runItem(routine.id, runId);
  expect(run).toMatchObject({ status: 'waiting_approval', approval_id: expect.stringMatching(/^appr_/) });
  return { routineId: routine.id as string, runId, approvalId: run.approval_id as string };
}

async function runItem(routineId: string, runId: string): Promise<RunFields> {
  const item = await t.deps.table.get<RunFields>(runKey(routineId, runId), true);
  if (!item) throw new Error(`run ${runId} is not stored`);
  return item;
}

/** The approval message in the channel itself, as the platform shows it now. */
function approvalInChannel(approvalId: string): ShownMessage {
  const message = chat.messagesInChannel('C1').find((shown) => shownText(shown).includes(`approval:${approvalId}`));
  if (!message) throw new Error(`no approval message of ${approvalId} in C1`);
  return message;
}

/** The approval message as it was posted: its ts and its buttons (pressable again after it changed). */
function postedApproval(approvalId: string) {
  const message = approvalInChannel(approvalId);
  return { ts: message.ts, buttons: buttonsOf(message) };
}

function press(
  user: string,
  message: { ts: string; buttons: { action_id: string; value: string }[] },
  action: 'approval_approve' | 'approval_deny',
) {
  const button = message.buttons.find((element) => element.action_id === action);
  chat.pressButton({ user, channel: 'C1', messageTs: message.ts, actionId: action, value: button?.value ?? '', blockId: 'approval' });
}

describe('a routine run’s approval in its team-chat channel', () => {
  it('is posted in the channel with Approve / Deny; only an admin’s linked account decides it, which ends the run and answers in the message’s thread', async () => {
    const { routineId, runId, approvalId } = await pausedRun('Failed orders, approved');
    const shown = approvalInChannel(approvalId);
    expect(shown.threadTs).toBeUndefined();
    expect(shownText(shown)).toContain('create_ticket');
    expect(shownText(shown)).toContain('\\"title\\": \\"failed orders\\"');
    expect(shownText(shown)).toContain('an admin of the organisation');
    const message = postedApproval(approvalId);
    const [approve, deny] = message.buttons;
    expect([approve?.action_id, deny?.action_id]).toEqual(['approval_approve', 'approval_deny']);
    expect(JSON.parse(approve?.value ?? '{}')).toEqual({ w: workspaceId, a: approvalId });
    // Nothing else is posted yet: no answer before the decision.
    expect(chat.messagesInChannel('C1')).toHaveLength(1);

    // A member's linked account and an unlinked one may not decide: told privately, nothing changes.
    press('U2', message, 'approval_approve');
    press('U1', message, 'approval_approve');
    await waitFor(() => expect(chat.ephemeralsFor('U1').length + chat.ephemeralsFor('U2').length).toBe(2));
    expect(chat.ephemeralsFor('U2').at(-1)).toBe('You may not decide this: only an admin of the organisation may.');
    expect(chat.ephemeralsFor('U1').at(-1)).toMatch(/^You may not decide this yet: your chat account is not linked/);
    // Its buttons on any other message (a forged press) decide nothing either, even for an admin.
    chat.pressButton({
      ...message,
      user: 'U3',
      channel: 'C1',
      messageTs: '1.000001',
      actionId: 'approval_approve',
      value: approve?.value ?? '',
    });
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toMatch(/^This request is not one of a workspace bound to this channel/));
    await t.runner.idle();
    expect(created).toEqual([]);
    expect(await runItem(routineId, runId)).toMatchObject({ status: 'waiting_approval', approval_id: approvalId });
    expect(buttonsOf(approvalInChannel(approvalId))).toHaveLength(2);
    expect(chat.messagesIn(message.ts)).toEqual([]);

    press('U3', message, 'approval_approve');
    await waitFor(async () => expect(await runItem(routineId, runId)).toMatchObject({ status: 'done', error: null }));
    expect(created).toEqual([{ title: 'failed orders' }]);
    await waitFor(() =>
      expect(chat.answersIn(message.ts)).toEqual([
        'Routine "Failed orders, approved":\nOpening a ticket.\n\nTicket opened for the failed orders.',
      ]),
    );
    const decided = approvalInChannel(approvalId);
    expect(buttonsOf(decided)).toEqual([]);
    expect(shownText(decided)).toContain('*Approved* by Ada Admin');
    // The answer is in the message's thread, not in the channel besides.
    await t.runner.idle();
    expect(chat.messagesInChannel('C1')).toHaveLength(1);
    const approvals = await t.request('GET', `/api/workspaces/${workspaceId}/approvals`, { cookie: admin.cookie });
    expect(approvals.body.approvals.find((approval: { id: string }) => approval.id === approvalId)).toMatchObject({
      status: 'approved',
      decided_by: 'Ada Admin',
    });

    // A second press: already decided, nothing runs again.
    press('U3', message, 'approval_deny');
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toBe('This call was already approved by Ada Admin.'));
    await t.runner.idle();
    expect(created).toHaveLength(1);
    expect(chat.answersIn(message.ts)).toHaveLength(1);
  });

  it('denied with the button: the call never runs, the run ends done with the model’s answer, posted in the message’s thread', async () => {
    const { routineId, runId, approvalId } = await pausedRun('Failed orders, denied', 'No ticket was opened: the call was denied.');
    const message = postedApproval(approvalId);
    press('U3', message, 'approval_deny');
    await waitFor(async () => expect(await runItem(routineId, runId)).toMatchObject({ status: 'done', error: null }));
    await waitFor(() =>
      expect(chat.answersIn(message.ts)).toEqual([
        'Routine "Failed orders, denied":\nOpening a ticket.\n\nNo ticket was opened: the call was denied.',
      ]),
    );
    expect(created).toEqual([]);
    expect(shownText(approvalInChannel(approvalId))).toContain('*Denied* by Ada Admin');
    expect(buttonsOf(approvalInChannel(approvalId))).toEqual([]);
  });

  it('decided through the API: the channel message shows it, and the answer goes on in its thread', async () => {
    const { routineId, runId, approvalId } = await pausedRun('Failed orders, by API');
    const message = postedApproval(approvalId);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(await runItem(routineId, runId)).toMatchObject({ status: 'done' });
    await t.runner.idle();
    expect(shownText(approvalInChannel(approvalId))).toContain('*Approved* by Ada Admin');
    expect(buttonsOf(approvalInChannel(approvalId))).toEqual([]);
    expect(chat.answersIn(message.ts)).toEqual([
      'Routine "Failed orders, by API":\nOpening a ticket.\n\nTicket opened for the failed orders.',
    ]);
  });

  it('paused again on a second call: the next approval is posted in the channel, and the answer follows the last one', async () => {
    const { routineId } = await createRoutine(t, admin.cookie, workspaceId, {
      name: 'Two tickets',
      prompt: 'Open two tickets.',
      trigger: { webhook: true },
      deliver_to: { channel: true },
    }).then((made) => ({ routineId: made.routine.id as string }));
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'first' } }]));
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'second' } }]));
    model.reply(textReply('Two tickets opened.'));
    const started = await t.request('POST', `${routinesPath(workspaceId)}/${routineId}/run`, { cookie: admin.cookie });
    await t.runner.idle();
    const runId: string = started.body.run.id;
    const first = (await runItem(routineId, runId)).approval_id ?? '';
    press('U3', postedApproval(first), 'approval_approve');
    await waitFor(async () => expect((await runItem(routineId, runId)).approval_id).not.toBe(first));
    const second = (await runItem(routineId, runId)).approval_id ?? '';
    await waitFor(() => expect(buttonsOf(approvalInChannel(second))).toHaveLength(2));
    await waitFor(() => expect(shownText(approvalInChannel(first))).toContain('*Approved* by Ada Admin'));
    const next = postedApproval(second);
    expect(chat.messagesIn(postedApproval(first).ts)).toEqual([]);
    press('U3', next, 'approval_approve');
    await waitFor(async () => expect(await runItem(routineId, runId)).toMatchObject({ status: 'done' }));
    await waitFor(() => expect(chat.answersIn(next.ts)).toEqual(['Routine "Two tickets":\nTwo tickets opened.']));
    expect(created).toEqual([{ title: 'first' }, { title: 'second' }]);
  });

  it('expired: the message says nobody decided in time, the run fails as a refusal, and nothing is delivered', async () => {
    const { routineId, runId, approvalId } = await pausedRun('Failed orders, expired');
    const message = postedApproval(approvalId);
    t.clock.advance(61 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect(await runItem(routineId, runId)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('expired approval is a refusal'),
    });
    expect(shownText(approvalInChannel(approvalId))).toContain('*Expired*');
    expect(buttonsOf(approvalInChannel(approvalId))).toEqual([]);
    expect(created).toEqual([]);
    expect(chat.messagesIn(message.ts)).toEqual([]);
    expect(chat.messagesInChannel('C1')).toHaveLength(1);
    // A press on it now decides nothing.
    press('U3', message, 'approval_approve');
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toMatch(/^This request has expired/));
  });
});
