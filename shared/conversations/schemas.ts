import { z } from '@hono/zod-openapi';
import { PaginationQuery, isoTimestamp } from '../http/schemas.js';

export const CONVERSATION_STATUSES = ['open', 'cold', 'closed'] as const;
export const RESOLUTION_STATUSES = ['resolved', 'unresolved'] as const;
export const CONSUMER_TYPES = ['team-chat', 'api', 'messaging', 'coding-agent'] as const;

export const ConversationSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    consumer_type: z.string(),
    status: z.enum(CONVERSATION_STATUSES),
    user_name: z.string(),
    channel: z.string().nullable(),
    message_count: z.number().int(),
    sentiment_score: z.number().nullable(),
    resolution_status: z.string().nullable(),
    category: z.string().nullable(),
    summary: z.string().nullable(),
    total_cost_usd: z.number(),
    stats_status: z.string().nullable(),
    first_message_at: isoTimestamp,
    last_activity_at: isoTimestamp,
  })
  .openapi('Conversation');
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListQuery = PaginationQuery.extend({
  status: z.enum(CONVERSATION_STATUSES, { error: `must be one of ${CONVERSATION_STATUSES.join(', ')}` }).optional(),
  resolution: z.enum(RESOLUTION_STATUSES, { error: `must be one of ${RESOLUTION_STATUSES.join(', ')}` }).optional(),
  consumer: z.enum(CONSUMER_TYPES, { error: `must be one of ${CONSUMER_TYPES.join(', ')}` }).optional(),
  category: z.string().min(1).max(100).optional(),
});
export type ConversationListFilters = z.output<typeof ConversationListQuery>;

export const ConversationListResponse = z
  .object({
    conversations: z.array(ConversationSchema),
    total: z.number().int(),
    next_cursor: z.string().nullable(),
    filters: z.object({
      status: z.array(z.string()),
      consumer: z.array(z.string()),
      category: z.array(z.string()),
      resolution: z.array(z.string()),
    }),
  })
  .openapi('ConversationList');

const MessageSchema = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    tools_called: z.string().nullable().openapi({ description: 'JSON-encoded array of tool names; null on user messages' }),
    tokens_input: z.number().int().nullable(),
    tokens_output: z.number().int().nullable(),
    cost_usd: z.number().nullable(),
    duration_ms: z.number().int().nullable(),
    created_at: isoTimestamp,
  })
  .openapi('Message');
export type Message = z.infer<typeof MessageSchema>;

const ConversationStatsSchema = z
  .object({
    sentiment_score: z.number().nullable(),
    resolution_status: z.string().nullable(),
    category: z.string().nullable(),
    summary: z.string().nullable(),
    total_cost_usd: z.number(),
    stats_status: z.string().nullable(),
  })
  .openapi('ConversationStats');

export const ConversationDetailSchema = z
  .object({ conversation: ConversationSchema, messages: z.array(MessageSchema), stats: ConversationStatsSchema })
  .openapi('ConversationDetail');

export const ConversationParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'ws-support' }),
  cid: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'cid', in: 'path' } }),
});
