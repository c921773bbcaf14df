import { z } from '@hono/zod-openapi';
import { CONSUMER_TYPES } from '../consumers/index.js';
import { displayName, isoTimestamp } from '../http/schemas.js';

const channelId = z
  .string()
  .regex(/^[A-Z0-9]{2,32}$/, 'must be a channel id such as C0123ABCD')
  .openapi({ example: 'C0123ABCD' });

export const TeamChatCredentials = z.object({
  bot_token: z.string().min(1, 'required').max(512),
  app_token: z.string().min(1, 'required').max(512),
});

export const ConnectConsumerBody = z
  .object({
    type: z.enum(CONSUMER_TYPES, { error: `must be one of ${CONSUMER_TYPES.join(', ')}` }),
    workspace_id: z.string().min(1).max(200),
    name: displayName(100)
      .optional()
      .openapi({ description: 'what people call it ("Support site", "CI"): shown with its conversations and in the consumers list' }),
    credentials: z.record(z.string(), z.unknown()).openapi({ description: 'team-chat: { bot_token, app_token }; other types: {}' }),
    channel_id: channelId.optional(),
    channel_name: displayName(200).optional(),
  })
  .openapi('ConnectConsumerRequest');
export type ConnectConsumerInput = z.infer<typeof ConnectConsumerBody>;

export const ConnectConsumerResponse = z
  .object({
    status: z.literal('connected'),
    message: z.string(),
    id: z.string(),
    api_key: z.string().optional().openapi({ description: 'api, messaging, coding-agent: the key, shown once' }),
  })
  .openapi('ConnectConsumerResponse');

export const BindChannelBody = z
  .object({
    type: z.literal('team-chat', { error: 'channels belong to team-chat consumers: type must be team-chat' }),
    workspace_id: z.string().min(1).max(200),
    channel_id: channelId,
    channel_name: displayName(200).optional(),
  })
  .openapi('BindChannelRequest');
export type BindChannelInput = z.infer<typeof BindChannelBody>;

export const ChannelParams = z.object({
  channel_id: channelId.openapi({ param: { name: 'channel_id', in: 'path' } }),
});

export const IntegrationTestBody = z
  .object({
    type: z.literal('team-chat', { error: 'only team-chat integrations can be tested' }),
    credentials: z.object({ bot_token: z.string().min(1, 'required').max(512) }),
  })
  .openapi('IntegrationTestRequest');

export const IntegrationTestResponse = z
  .object({
    ok: z.boolean(),
    detail: z.object({ bot_name: z.string(), team: z.string() }).optional(),
    error: z.string().optional(),
  })
  .openapi('IntegrationTestResponse');

const chatTeamId = z.string().openapi({ example: 'T0123ABCD' });
const chatUserId = z.string().openapi({ example: 'U0456EFGH' });

export const LinkRequestParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be the token of a link the bot sent')
    .openapi({ param: { name: 'token', in: 'path' }, description: 'the one-time token of the link the bot sent' }),
});

export const ChatLinkParams = z.object({
  link_id: z
    .string()
    .regex(/^[A-Z0-9]{1,32}-[A-Z0-9]{1,32}$/, 'must be a chat link id such as T0123ABCD-U0456EFGH')
    .openapi({ param: { name: 'link_id', in: 'path' }, example: 'T0123ABCD-U0456EFGH' }),
});

export const ChatLinksQuery = z.object({
  scope: z
    .enum(['mine', 'org'], { error: 'must be mine or org' })
    .optional()
    .openapi({ description: 'mine (default): your links; org: every link of the organisation (admins)' }),
});

export const ChatLinkRequestSchema = z
  .object({
    chat_team_id: chatTeamId,
    chat_team_name: z.string(),
    chat_user_id: chatUserId,
    chat_user_name: z.string().openapi({ description: 'as the chat profile said when the link was sent: chosen by its owner' }),
    org_id: z.string(),
    org_name: z.string(),
    expires_at: isoTimestamp,
  })
  .openapi('ChatLinkRequest');
export type ChatLinkRequest = z.infer<typeof ChatLinkRequestSchema>;

export const ChatLinkSchema = z
  .object({
    id: z.string().openapi({ example: 'T0123ABCD-U0456EFGH' }),
    chat_team_id: chatTeamId,
    chat_team_name: z.string(),
    chat_user_id: chatUserId,
    chat_user_name: z.string(),
    user_id: z.string(),
    user_name: z.string(),
    created_at: isoTimestamp,
  })
  .openapi('ChatLink');
export type ChatLink = z.infer<typeof ChatLinkSchema>;
