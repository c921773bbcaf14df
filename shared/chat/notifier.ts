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
