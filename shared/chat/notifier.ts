/** Posts into team-chat threads (the cold notice). The team-chat issue plugs in the real client. */
export interface ChatNotifier {
  postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void>;
}

/** Until the organisation's team-chat is connected: a job that needs it fails, visibly, with this reason. */
export class UnconnectedChat implements ChatNotifier {
  async postInThread(): Promise<void> {
    throw new Error('team-chat is not connected for this organisation');
  }
}

/** The organisations' bot tokens, as the notifier reads them. */
export type BotTokenOf = (orgId: string) => Promise<string | undefined>;

/** Posts with the organisation's own bot token (`chat_bot_token`), through the team-chat Web API. */
export class TeamChatNotifier implements ChatNotifier {
  constructor(
    private readonly botTokenOf: BotTokenOf,
    private readonly slackApiUrl: string | undefined,
  ) {}

  async postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void> {
    const token = await this.botTokenOf(orgId);
    if (!token) throw new Error('team-chat is not connected for this organisation (no chat_bot_token)');
    const { chatWebClient } = await import('./web.js');
    await chatWebClient(token, this.slackApiUrl).chat.postMessage({ channel: channelId, thread_ts: threadTs, text });
  }
}

/** The notifier of a runtime: the organisation's bot token read from its settings. */
export function teamChatNotifier(readBotToken: BotTokenOf, slackApiUrl: string | undefined): ChatNotifier {
  return new TeamChatNotifier(readBotToken, slackApiUrl);
}
