import type { SecretStore } from '../platform/store.js';
import { readSetting } from '../org/settings.js';

/** Posts into team-chat threads (the cold notice). */
export interface ChatNotifier {
  postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void>;
}

/** Until the organisation's team-chat is connected: a job that needs it fails, visibly, with this reason. */
export class UnconnectedChat implements ChatNotifier {
  async postInThread(): Promise<void> {
    throw new Error('team-chat is not connected for this organisation');
  }
}

/**
 * Posts with the organisation's own bot token (`chat_bot_token`), through the team-chat Web API.
 * It reads the token from the store it is given (the table and clock the deps are built with).
 */
export class TeamChatNotifier implements ChatNotifier {
  constructor(
    private readonly store: SecretStore,
    private readonly slackApiUrl: string | undefined,
  ) {}

  async postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void> {
    const token = await readSetting(this.store, orgId, 'chat_bot_token');
    if (!token) throw new Error('team-chat is not connected for this organisation (no chat_bot_token)');
    // Loaded on use: the API function's bundle carries this module (for UnconnectedChat) but never posts.
    const { chatWebClient } = await import('./web.js');
    await chatWebClient(token, this.slackApiUrl).chat.postMessage({ channel: channelId, thread_ts: threadTs, text });
  }
}
