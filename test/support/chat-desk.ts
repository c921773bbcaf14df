import { expect, vi } from 'vitest';
import { TeamChatNotifier } from '../../shared/chat-bot/notifier.js';
import { connectTeamChat } from './chat.js';
import { createTestContext, type TestContext } from './context.js';
import { startFakeChat, type ShownMessage } from './fake-chat.js';
import { startFakeModel } from './fake-model.js';
import { startTicketsServer } from './mcp-servers.js';
import { startOAuthMcpServer } from './oauth-mcp-server.js';

/*
 * Desks: a workspace answered in team chat through the real Bolt client against the fake platform,
 * with the fake model, set up once for a test file and stopped with `stop()`.
 */

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

/**
 * The fake chat platform and the fake model; a test context on them (with `env` besides) whose
 * notifier posts to the platform, so that decisions made elsewhere (the API, the expiry) reach the
 * thread; its first admin, and a workspace named `workspace`. Nothing connected yet.
 */
async function openDesk(workspace: string, env: Record<string, string> = {}) {
  const chat = await startFakeChat();
  const model = await startFakeModel();
  const t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', ...env } });
  t.deps.chat = new TeamChatNotifier(t.deps, chat.apiUrl);
  const admin = await t.signUp();
  const workspaceId: string = (await t.createWorkspace(admin.cookie, { name: workspace })).id;
  return { t, chat, model, admin, workspaceId };
}

/** Makes the workspace's write tools wait for the approval of `approvers` (an hour at most). */
export async function requireApproval(
  t: TestContext,
  options: { cookie: string; workspaceId: string; approvers?: 'admins' | 'requester' },
): Promise<void> {
  const put = await t.request('PUT', `/api/workspaces/${options.workspaceId}`, {
    cookie: options.cookie,
    body: { approval: { mode: 'write_tools', approvers: options.approvers ?? 'admins', expires_minutes: 60 } },
  });
  expect(put.status, put.text).toBe(200);
}

/** The buttons of a message's actions blocks. */
export const buttonsOf = (message: ShownMessage | undefined) =>
  ((message?.blocks ?? []) as { type: string; elements?: { action_id: string; value: string }[] }[])
    .filter((block) => block.type === 'actions')
    .flatMap((block) => block.elements ?? []);

export const isApproval = (message: ShownMessage) => JSON.stringify(message.blocks).includes('approval:appr_');

/** An approval message as the thread shows it: its ts, its Approve button's value and the approval's id. */
interface ShownApproval {
  ts: string;
  value: string;
  id: string;
}

/**
 * The approval desk: a workspace whose write tools wait for an admin's approval, answered in team
 * chat (channel C1). Its one tool server, `tickets` (`startTicketsServer`, with `search_tickets`
 * when `search`), keeps what reached `create_ticket` in `created`; the model does not retry.
 */
export async function startApprovalDesk(options: { workspace: string; search?: boolean }) {
  const tickets = await startTicketsServer({ search: options.search });
  const desk = await openDesk(options.workspace, { MODEL_MAX_RETRIES: '0' });
  const { t, chat, model, admin, workspaceId } = desk;
  await t.connectMcp(admin.cookie, workspaceId, { name: 'tickets', url: tickets.url });
  const useApprovers = (approvers: 'admins' | 'requester') => requireApproval(t, { cookie: admin.cookie, workspaceId, approvers });
  await useApprovers('admins');
  const bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat });
  return {
    ...desk,
    created: tickets.created,
    /** Who decides the workspace's approvals from now on. */
    useApprovers,
    /** Waits for the thread's approval message, with its Approve and Deny buttons. */
    async approvalIn(ts: string): Promise<ShownApproval> {
      await waitFor(() => expect(buttonsOf(chat.messagesIn(ts).find(isApproval))).toHaveLength(2));
      const message = chat.messagesIn(ts).find(isApproval);
      const value = buttonsOf(message).find((button) => button.action_id === 'approval_approve')?.value ?? '';
      return { ts: message?.ts ?? '', value, id: JSON.parse(value).a as string };
    },
    /** Presses the Approve button of the approval message in thread `ts` of C1, as chat user `user`. */
    pressApprove(user: string, approval: { ts: string; value: string }, ts: string): void {
      chat.pressButton({
        user,
        channel: 'C1',
        messageTs: approval.ts,
        threadTs: ts,
        actionId: 'approval_approve',
        value: approval.value,
        blockId: 'approval',
      });
    },
    /** The approval's status, as the admin lists the workspace's approvals. */
    async statusOf(approvalId: string): Promise<string> {
      const list = await t.request('GET', `/api/workspaces/${workspaceId}/approvals`, { cookie: admin.cookie });
      return list.body.approvals.find((approval: { id: string }) => approval.id === approvalId)?.status;
    },
    async stop() {
      await bridge.stop();
      await t.close();
      await Promise.all([chat.stop(), model.stop(), tickets.stop()]);
    },
  };
}

export type ApprovalDesk = Awaited<ReturnType<typeof startApprovalDesk>>;

/**
 * The mailbox desk: a workspace answered in team chat (channel C9) whose one connection, `Mailbox`,
 * is a per-user OAuth one at a fake OAuth tool server (`server`); the admin granted their own access
 * (as `admin-user`), which lists its tools.
 */
export async function startMailboxDesk(options: { workspace: string }) {
  const server = await startOAuthMcpServer();
  const desk = await openDesk(options.workspace);
  const { t, chat, model, admin, workspaceId } = desk;
  const saved = await t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspaceId, name: 'Mailbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
  });
  expect(saved.status, saved.text).toBe(201);
  const callback = new URL(await server.login(saved.body.authorization_url, 'admin-user'));
  expect((await t.request('GET', `${callback.pathname}${callback.search}`, { cookie: admin.cookie })).status).toBe(200);
  const bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat, channel: 'C9' });
  return {
    ...desk,
    server,
    connectionId: saved.body.id as string,
    async stop() {
      await bridge.stop();
      await t.close();
      await Promise.all([chat.stop(), model.stop(), server.close()]);
    },
  };
}

export type MailboxDesk = Awaited<ReturnType<typeof startMailboxDesk>>;
