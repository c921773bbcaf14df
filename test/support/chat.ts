import type { ChatNotifier } from '../../shared/chat/notifier-port.js';

/** Records the thread posts the service makes (tests only; the team-chat issue brings the real client). */
export class RecordingChat implements ChatNotifier {
  readonly posts: { orgId: string; channelId: string; threadTs: string; text: string }[] = [];
  failWith: Error | undefined;

  async postInThread(orgId: string, channelId: string, threadTs: string, text: string): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.posts.push({ orgId, channelId, threadTs, text });
  }
}
