import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { linkChatAccount } from '../support/chat.js';
import { type ApprovalDesk, buttonsOf, startApprovalDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat, ShownMessage } from '../support/fake-chat.js';
import { textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';

/** Approvals of tool calls in team chat, through the real Bolt client against the fake platform. */

let desk: ApprovalDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let admin: ApprovalDesk['admin'];
let workspaceId: string;
let thread = 0;
/** The arguments of every call that reached the ticket tool. */
let created: ApprovalDesk['created'];

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

beforeAll(async () => {
  // The tickets server has a read (search_tickets) besides the write (create_ticket).
  desk = await startApprovalDesk({ workspace: 'Approvals desk', search: true });
  ({ t, chat, model, admin, workspaceId, created } = desk);
  // U3 is the admin's chat account, U2 a member's (both linked); U1 is not linked to anyone.
  chat.users.U3 = 'Ada Admin (chat)';
  chat.emails.U3 = admin.email.toUpperCase();
  await linkChatAccount(t, { cookie: admin.cookie, orgId: admin.org.id, user: 'U3' });
  const member = await t.addMember(admin.cookie);
  chat.emails.U2 = member.user.email;
  await linkChatAccount(t, { cookie: member.cookie, orgId: admin.org.id, user: 'U2' });
});
afterAll(() => desk.stop());
beforeEach(async () => {
  model.reset();
  created.length = 0;
  await desk.useApprovers('admins');
});

/** The model says what it will do, asks for a read and a write in one turn, then answers with what it got back. */
function readAndWrite(title = 'VPN down') {
  model.reply(
    toolUseReply(
      [
        { name: 'search_tickets', input: { query: 'vpn' } },
        { name: 'create_ticket', input: { title } },
      ],
      undefined,
      'Let me open a ticket.',
    ),
  );
  model.handle((request: ModelRequestRecord) => {
    const results = (request.body.messages.at(-1)?.content as { type: string; content?: string; is_error?: boolean }[]) ?? [];
    return textReply(`Done: ${results.map((block) => `${block.is_error ? 'ERROR ' : ''}${block.content}`).join(' | ')}`);
  });
}

/** Mentions the bot in a new thread of C1; returns the thread's ts. */
function ask(text: string, user = 'U1'): string {
  thread += 1;
  const ts = `8000.${String(thread).padStart(4, '0')}`;
  chat.sendEvent({ type: 'app_mention', channel: 'C1', user, text: `<@UBOT> ${text}`, ts });
  return ts;
}

/** What a message shows: its text and the text of its blocks. */
const shownText = (message: ShownMessage | undefined) => `${message?.text ?? ''}\n${JSON.stringify(message?.blocks ?? [])}`;

const approvalMessagesIn = (ts: string) => chat.messagesIn(ts).filter((message) => shownText(message).includes('approval:appr_'));

/** An approval message as it was posted: what it showed and its buttons (pressable again after it changed). */
interface PostedApproval {
  ts: string;
  shown: string;
  buttons: { action_id: string; value: string }[];
}

/** Waits for the thread's `count`th approval message, with its buttons. */
async function approvalMessage(ts: string, count = 1): Promise<PostedApproval> {
  await waitFor(() => {
    expect(approvalMessagesIn(ts)).toHaveLength(count);
    expect(buttonsOf(approvalMessagesIn(ts).at(-1))).toHaveLength(2);
  });
  const message = approvalMessagesIn(ts).at(-1);
  return { ts: message?.ts ?? '', shown: shownText(message), buttons: buttonsOf(message) };
}

function press(user: string, message: PostedApproval, action: 'approval_approve' | 'approval_deny', ts: string): void {
  const button = message.buttons.find((element) => element.action_id === action);
  chat.pressButton({
    user,
    channel: 'C1',
    messageTs: message.ts,
    threadTs: ts,
    actionId: action,
    value: button?.value ?? '',
    blockId: 'approval',
  });
}

/** The thread's finished messages that are not approval messages (the answers). */
const answersIn = (ts: string) =>
  chat.messagesIn(ts).filter((message) => !message.streaming && !shownText(message).includes('approval:appr_'));

describe('team chat: approval of a tool call', () => {
  it('posts an approval message with the call, who asked, until when, and Approve / Deny buttons; the answer so far stays', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the VPN');
    const message = await approvalMessage(ts);
    const { shown } = message;
    expect(shown).toContain('create_ticket');
    expect(shown).toContain('tickets');
    expect(shown).toContain('\\"title\\": \\"VPN down\\"');
    expect(shown).toContain('Asked by Ada Lovelace');
    expect(shown).toContain('an admin of the organisation');
    expect(shown).toMatch(/<!date\^\d+\^/);
    const [approve, deny] = message.buttons;
    expect([approve?.action_id, deny?.action_id]).toEqual(['approval_approve', 'approval_deny']);
    expect(JSON.parse(approve?.value ?? '{}')).toMatchObject({ w: workspaceId, a: expect.stringMatching(/^appr_/) });
    // The text before the pause stays in its streamed message; no "(no answer)", no feedback buttons yet.
    await waitFor(() => expect(answersIn(ts).map((answer) => answer.text)).toEqual(['Let me open a ticket.']));
    expect(buttonsOf(answersIn(ts)[0])).toEqual([]);
    expect(chat.messagesIn(ts).some((shownMessage) => shownMessage.text.includes('(no answer)'))).toBe(false);
    expect(created).toEqual([]);
  });

  it('refuses a press by a chat user who is not an admin, privately, and runs nothing; the admin’s linked chat account approves it', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the VPN');
    const message = await approvalMessage(ts);

    // U2 is linked to a member of the organisation; U1 is linked to nobody (and gets a link).
    press('U2', message, 'approval_approve', ts);
    press('U1', message, 'approval_approve', ts);
    await waitFor(() => expect(chat.ephemeralsFor('U1').length + chat.ephemeralsFor('U2').length).toBe(2));
    expect(chat.ephemeralsFor('U2').at(-1)).toBe('You may not decide this: only an admin of the organisation may.');
    expect(chat.ephemeralsFor('U1').at(-1)).toMatch(/^You may not decide this yet: your chat account is not linked.*\/chat\/link\/\S+$/);
    expect(created).toEqual([]);
    expect(buttonsOf(approvalMessagesIn(ts)[0])).toHaveLength(2);
    const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
    const approvalId = JSON.parse(message.buttons[0]?.value ?? '{}').a;
    expect(pending.body.approvals.map((approval: { id: string }) => approval.id)).toContain(approvalId);

    press('U3', message, 'approval_approve', ts);
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    expect(created).toEqual([{ title: 'VPN down' }]);
    const [decided] = approvalMessagesIn(ts);
    expect(buttonsOf(decided)).toEqual([]);
    expect(shownText(decided)).toContain('*Approved* by Ada Admin');
    // The answer goes on in a new streamed message, with the 👍/👎 buttons of the whole answer.
    const answer = answersIn(ts)[1];
    expect(answer?.text).toBe('Done: found tickets about vpn | ticket created: VPN down');
    expect(chat.callsOf('chat.startStream').at(-1)?.params).toMatchObject({ thread_ts: ts, recipient_user_id: 'U1' });
    expect(buttonsOf(answer).map((button) => button.action_id)).toEqual(['feedback_up', 'feedback_down']);
    expect(JSON.parse(buttonsOf(answer)[0]?.value ?? '{}')).toEqual({ w: workspaceId, c: `C1-${ts}`, s: 2 });
    await waitFor(() => expect(chat.statusesIn(ts).slice(-3)).toEqual(['is thinking…', 'is calling create_ticket…', '']));

    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity[0].approvals).toMatchObject([{ status: 'approved', decided_by: 'Ada Admin' }]);

    // A second press on the decided approval: a private notice, nothing runs again.
    press('U3', message, 'approval_deny', ts);
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toBe('This call was already approved by Ada Admin.'));
    expect(created).toHaveLength(1);
    expect(answersIn(ts)).toHaveLength(2);
  });

  it('denied with the button: the model is told, the tool never runs, and the answer continues in the thread', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the VPN');
    const message = await approvalMessage(ts);
    press('U3', message, 'approval_deny', ts);
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    expect(created).toEqual([]);
    expect(answersIn(ts)[1]?.text).toBe('Done: found tickets about vpn | ERROR Ada Admin denied this call; it did not run.');
    expect(buttonsOf(answersIn(ts)[1])).toHaveLength(2);
    expect(shownText(approvalMessagesIn(ts)[0])).toContain('*Denied* by Ada Admin');
  });

  it('tells the presser privately that nothing was decided while the organisation has no place for its query', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the printer');
    const message = await approvalMessage(ts);
    const pendingNow = async () =>
      (await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie })).body.approvals.length;
    const pendingBefore = await pendingNow();
    const held = Array.from({ length: t.deps.config.maxQueriesInFlightPerOrg }, () => t.deps.inFlight.admit(admin.org.id));
    try {
      press('U3', message, 'approval_approve', ts);
      await waitFor(() =>
        expect(chat.ephemeralsFor('U3').at(-1)).toMatch(/^Nothing was decided: too many queries at once.*Press again in 5 seconds\.$/),
      );
      expect(created).toEqual([]);
      expect(await pendingNow()).toBe(pendingBefore);
    } finally {
      for (const release of held) release();
    }
    press('U3', message, 'approval_approve', ts);
    await waitFor(() => expect(created).toHaveLength(1));
  });

  it('posts another approval message when the resumed query pauses again', async () => {
    model.reply(
      toolUseReply([{ name: 'create_ticket', input: { title: 'first' } }]),
      toolUseReply([{ name: 'create_ticket', input: { title: 'second' } }]),
    );
    model.handle(() => textReply('Both tickets are open.'));
    const ts = ask('open two tickets');
    press('U3', await approvalMessage(ts), 'approval_approve', ts);
    const second = await approvalMessage(ts, 2);
    expect(second.shown).toContain('\\"title\\": \\"second\\"');
    expect(created).toEqual([{ title: 'first' }]);
    expect(shownText(approvalMessagesIn(ts)[0])).toContain('*Approved*');
    press('U3', second, 'approval_approve', ts);
    await waitFor(() => expect(answersIn(ts).map((answer) => answer.text)).toEqual(['Both tickets are open.']));
    expect(created).toEqual([{ title: 'first' }, { title: 'second' }]);
    expect(buttonsOf(answersIn(ts)[0])).toHaveLength(2);
  });
});

describe('team chat: approvers requester', () => {
  it('lets the chat user who asked decide once linked, and refuses another chat user (even an admin)', async () => {
    await desk.useApprovers('requester');
    const asker = await t.addMember(admin.cookie, { name: 'Ada Lovelace (service)' });
    await linkChatAccount(t, { cookie: asker.cookie, orgId: admin.org.id, user: 'U1' });
    readAndWrite();
    const ts = ask('open a ticket for the VPN', 'U1');
    const message = await approvalMessage(ts);
    expect(message.shown).toContain('the person who asked');
    press('U3', message, 'approval_approve', ts);
    press('U2', message, 'approval_approve', ts);
    await waitFor(() =>
      expect(chat.ephemeralsFor('U2').at(-1)).toBe('You may not decide this: only the person who asked (Ada Lovelace) may.'),
    );
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toMatch(/only the person who asked \(Ada Lovelace\)/));
    expect(created).toEqual([]);
    press('U1', message, 'approval_approve', ts);
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    expect(created).toEqual([{ title: 'VPN down' }]);
    expect(shownText(approvalMessagesIn(ts)[0])).toContain('*Approved* by Ada Lovelace (service)');
    // The user the asker's chat account is linked to is the asker through the API too.
    readAndWrite('second');
    const again = ask('open another ticket', 'U1');
    const id = JSON.parse((await approvalMessage(again)).buttons[0]?.value ?? '{}').a;
    const other = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(other.status).toBe(403);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${id}`, {
      cookie: asker.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(created).toEqual([{ title: 'VPN down' }, { title: 'second' }]);
  });
});

describe('team chat: approvals decided elsewhere', () => {
  const pendingOf = async (ts: string) => {
    const message = await approvalMessage(ts);
    return { message, id: JSON.parse(message.buttons[0]?.value ?? '{}').a as string };
  };

  it('a decision through the API: the approval message shows it and the answer appears in the thread, with its buttons', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the VPN');
    const { message: posted, id } = await pendingOf(ts);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(created).toEqual([{ title: 'VPN down' }]);
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    const answer = answersIn(ts)[1];
    // Only what follows the text before the pause, which the thread shows already.
    expect(answer?.text).toBe('Done: found tickets about vpn | ticket created: VPN down');
    expect(buttonsOf(answer).map((button) => button.action_id)).toEqual(['feedback_up', 'feedback_down']);
    const [message] = approvalMessagesIn(ts);
    expect(buttonsOf(message)).toEqual([]);
    expect(shownText(message)).toContain('*Approved* by Ada Admin');

    // A press after the decision: a private notice.
    press('U3', posted, 'approval_approve', ts);
    await waitFor(() => expect(chat.ephemeralsFor('U3').at(-1)).toBe('This call was already approved by Ada Admin.'));
    expect(created).toHaveLength(1);
  });

  it('a tool result with mentions and a disguised link reaches the thread escaped after a decision through the API', async () => {
    readAndWrite('<!channel> see <https://evil.example|your bank>');
    const ts = ask('open a ticket for the VPN');
    const { id } = await pendingOf(ts);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    const answer = answersIn(ts)[1];
    const escaped = 'Done: found tickets about vpn | ticket created: &lt;!channel&gt; see &lt;https://evil.example|your bank&gt;';
    expect(answer?.text).toBe(escaped);
    // The section above the 👍/👎 buttons is what the platform shows: escaped too.
    expect(JSON.stringify(answer?.blocks)).toContain(JSON.stringify(escaped));
    for (const message of chat.messagesIn(ts)) expect(shownText(message)).not.toMatch(/<!channel>|<https:\/\/evil/);
  });

  it('an expiry: the approval message says nobody decided, and the answer appears in the thread', async () => {
    readAndWrite();
    const ts = ask('open a ticket for the VPN');
    await pendingOf(ts);
    t.clock.advance(61 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    await waitFor(() => expect(answersIn(ts)).toHaveLength(2));
    expect(answersIn(ts)[1]?.text).toBe(
      'Done: found tickets about vpn | ERROR Nobody approved this call in time; it expired and did not run.',
    );
    expect(shownText(approvalMessagesIn(ts)[0])).toContain('*Expired*');
    expect(buttonsOf(approvalMessagesIn(ts)[0])).toEqual([]);
    expect(created).toEqual([]);
  });
});
