import { notConnected, type ChannelApprovalMessage, type ChatNotifier, type DecisionForThread } from '../chat/index.js';
// Imported statically: a dynamic import here made esbuild order the MCP SDK before zod in the jobs
// bundle, which then threw at its cold start (test/infra/bundles.test.ts).
import { showDecisionInThread } from './thread-answer.js';
import { postChannelApproval, showChannelDecision } from './channel-approvals.js';
import type { SecretStore } from '../platform/store.js';
import { readSetting } from '../org/index.js';

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
    const client = await this.clientOf(orgId);
    // An empty thread posts in the channel itself (a budget alert).
    await client.chat.postMessage({ channel: channelId, ...(threadTs ? { thread_ts: threadTs } : {}), text });
  }

  async continueAfterDecision(decided: DecisionForThread): Promise<void> {
    const client = await this.clientOf(decided.orgId);
    await showDecisionInThread(this.store, client, decided);
  }

  async postApproval(orgId: string, channelId: string, workspaceId: string, approvalId: string): Promise<string | undefined> {
    const client = await this.clientOf(orgId);
    return postChannelApproval(this.store, client, { orgId, channelId, workspaceId, approvalId });
  }

  async showApprovalDecision(message: ChannelApprovalMessage): Promise<void> {
    const client = await this.clientOf(message.orgId);
    await showChannelDecision(this.store, client, message);
  }

  private async clientOf(orgId: string) {
    const token = await readSetting(this.store, orgId, 'chat_bot_token');
    if (!token) throw notConnected('no chat_bot_token');
    // Loaded on use: the API function's bundle carries this module (for UnconnectedChat) but never posts.
    const { chatWebClient } = await import('../chat/web.js');
    return chatWebClient(token, this.slackApiUrl);
  }
}
