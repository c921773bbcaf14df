import { expect, vi } from 'vitest';
import { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { requestChatLink } from '../../shared/chat/links.js';
import type { ChatNotifier } from '../../shared/chat/notifier-port.js';
import type { TestContext } from './context.js';
import type { FakeChat } from './fake-chat.js';

/** Records the thread posts the service makes (tests only; the team-chat issue brings the real client). */
export class RecordingChat implements ChatNotifier {
  readonly posts: { orgId: string; channelId: string; threadTs: string; text: string }[] = [];
  failWith: Error | undefined;

  async postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.posts.push({ orgId, channelId, threadTs, text });
  }
}

/**
 * Connects a workspace's team-chat consumer bound to `channel` (the fake platform's tokens), and
 * starts a bridge that holds its socket; answers the bridge once its socket is open.
 */
export async function connectTeamChat(
  t: TestContext,
  options: { cookie: string; workspaceId: string; chat: FakeChat; channel?: string },
): Promise<ChatBridge> {
  const { cookie, workspaceId, chat } = options;
  const connected = await t.request('POST', '/api/connectors/consumer', {
    cookie,
    body: {
      type: 'team-chat',
      workspace_id: workspaceId,
      channel_id: options.channel ?? 'C1',
      credentials: { bot_token: chat.botToken, app_token: chat.appToken },
    },
  });
  expect(connected.status, connected.text).toBe(201);
  const bridge = new ChatBridge(t.deps, { pollMs: 100 });
  try {
    await bridge.start();
    await vi.waitFor(() => expect(chat.openSockets).toBe(1), { timeout: 10_000, interval: 25 });
  } catch (error) {
    // Not handed back, so stopped here: nothing of it outlives the failure.
    await bridge.stop();
    throw error;
  }
  return bridge;
}

/**
 * Links a chat account of the fake platform's team (`T1`) to the user signed in with `cookie`: the
 * request the bot sends, confirmed through the API as the console page does.
 */
export async function linkChatAccount(t: TestContext, options: { cookie: string; orgId: string; user: string; name?: string }) {
  const account = { teamId: 'T1', teamName: 'Example Team', userId: options.user, userName: options.name ?? options.user };
  const token = await requestChatLink(t.deps, options.orgId, account);
  const confirmed = await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: options.cookie });
  expect(confirmed.status, confirmed.text).toBe(201);
}
