import type { Deps } from '../deps.js';
import { ValidationError } from '../platform/errors.js';
import { putSetting } from '../org/index.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { bindChannel, ensureTeamChatConsumer } from './consumers.js';
import { TeamChatCredentials, type ConnectConsumerInput } from './schemas.js';
import { issueDetails } from '../platform/validation.js';

/** The team-chat Web API's client, loaded on first use: the agent function's cold start does without it. */
const webApi = () => import('./web.js');

/** `POST /api/org/integrations/test`: `auth.test` with the bot token. A refusal is an answer, not an error. */
export async function testTeamChatIntegration(deps: Deps, botToken: string) {
  const { chatErrorOf, chatWebClient } = await webApi();
  try {
    const result = await chatWebClient(botToken, deps.config.slackApiUrl).auth.test();
    return { ok: true, detail: { bot_name: String(result.user ?? ''), team: String(result.team ?? '') } };
  } catch (error) {
    return { ok: false, error: chatErrorOf(error) };
  }
}

/**
 * `POST /api/connectors/consumer` with type `team-chat`: checks both tokens (the bot token with
 * `auth.test`, the app token by opening a socket-mode connection URL, which is not used), stores
 * them as the organisation's `chat_bot_token` / `chat_app_token`, creates the workspace's
 * consumer, binds `channel_id` if given. The bridge sees the tokens on its next poll and connects.
 */
export async function connectTeamChat(deps: Deps, orgId: string, input: ConnectConsumerInput) {
  const workspace = await getWorkspaceItem(deps, orgId, input.workspace_id);
  const parsed = TeamChatCredentials.safeParse(input.credentials);
  if (!parsed.success) {
    throw new ValidationError('invalid request body', issueDetails(parsed.error, ['credentials']));
  }
  const { bot_token: botToken, app_token: appToken } = parsed.data;
  const { chatErrorOf, chatWebClient } = await webApi();
  const refused = (path: string, error: unknown) =>
    new ValidationError('team-chat token refused', [{ path, message: `refused by the team-chat API: ${chatErrorOf(error)}` }]);
  let team = '';
  try {
    team = String((await chatWebClient(botToken, deps.config.slackApiUrl).auth.test()).team ?? '');
  } catch (error) {
    throw refused('credentials.bot_token', error);
  }
  try {
    await chatWebClient(appToken, deps.config.slackApiUrl).apps.connections.open();
  } catch (error) {
    throw refused('credentials.app_token', error);
  }
  await Promise.all([putSetting(deps, orgId, 'chat_bot_token', botToken), putSetting(deps, orgId, 'chat_app_token', appToken)]);
  const id = await ensureTeamChatConsumer(deps, orgId, workspace.id, input.name);
  let bound = '';
  if (input.channel_id) {
    let channelName = input.channel_name;
    if (!channelName) {
      channelName = await chatWebClient(botToken, deps.config.slackApiUrl)
        .conversations.info({ channel: input.channel_id })
        .then((result) => (typeof result.channel?.name === 'string' ? result.channel.name : undefined))
        .catch(() => undefined);
    }
    await bindChannel(deps, orgId, {
      type: 'team-chat',
      workspace_id: workspace.id,
      channel_id: input.channel_id,
      channel_name: channelName,
    });
    bound = `; channel ${channelName ? `#${channelName}` : input.channel_id} is bound`;
  }
  return {
    status: 'connected' as const,
    id,
    message: `Team chat connected to ${workspace.name}${team ? ` (${team})` : ''}${bound}. The bot answers mentions in bound channels within a minute.`,
  };
}
