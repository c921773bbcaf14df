import { CONSUMER_TYPES } from '../consumers/index.js';
import { z } from '@hono/zod-openapi';
import { TokensSchema } from '../models/index.js';
import { PaginationQuery, displayName, hasFormatCharacter, isoTimestamp } from '../http/schemas.js';

export const CONVERSATION_STATUSES = ['open', 'cold', 'closed'] as const;
export const RESOLUTION_STATUSES = ['resolved', 'unresolved'] as const;
/** The consumers a list filters on: the consumer types, and `console` (api conversations of people signed in, not of a key). */
export const LISTED_CONSUMERS = [...CONSUMER_TYPES, 'console'] as const;

export const ConversationSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    consumer_type: z.string(),
    status: z.enum(CONVERSATION_STATUSES),
    user_name: z.string(),
    title: z
      .string()
      .nullable()
      .openapi({ description: 'its first question, cut to 120 characters; null for conversations older than titles' }),
    consumer_id: z
      .string()
      .nullable()
      .openapi({ description: 'the consumer that started it (its key, or the team chat); null for a signed-in user' }),
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
    pinned: z.boolean().openapi({ description: 'pinned by its starter to the top of their chat history' }),
  })
  .openapi('Conversation');
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListQuery = PaginationQuery.extend({
  status: z.enum(CONVERSATION_STATUSES, { error: `must be one of ${CONVERSATION_STATUSES.join(', ')}` }).optional(),
  resolution: z.enum(RESOLUTION_STATUSES, { error: `must be one of ${RESOLUTION_STATUSES.join(', ')}` }).optional(),
  consumer: z
    .enum(LISTED_CONSUMERS, { error: `must be one of ${LISTED_CONSUMERS.join(', ')}` })
    .optional()
    .openapi({ description: 'a consumer type; `console`: the questions of people signed in (api conversations started without a key)' }),
  category: z.string().min(1).max(100).optional(),
  consumer_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'only the conversations this consumer started (its id, as GET …/consumers lists it)' }),
  mine: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().openapi({
    description: "true: only the conversations the caller started and has not deleted from their history (the console's chat history)",
  }),
  pinned: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .openapi({ description: 'true: only pinned conversations; false: only those not pinned' }),
  q: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional().openapi({
    description:
      'search: conversations whose title (first question) or user name contains it, ignoring case, among the next 500 conversations (with the other filters) from the cursor; next_cursor goes on searching',
  }),
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

const ToolCallSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    connection: z.string().nullable().openapi({ description: "null for the service's own tools (the knowledge search, search_tools)" }),
    arguments: z.string().openapi({ description: 'the arguments as JSON text, cut to 2,000 characters' }),
    result: z.string().openapi({ description: 'what the tool answered, cut to 2,000 characters' }),
    is_error: z.boolean(),
    duration_ms: z.number().int(),
  })
  .openapi('ToolCall', {
    description: 'One tool call of an answer, as people are shown it: arguments and result cut short and screened by the output guardrails',
  });

const MessageSchema = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    tools_called: z.string().nullable().openapi({ description: 'JSON-encoded array of tool names; null on user messages' }),
    tool_calls: z.array(ToolCallSchema).openapi({
      description:
        'the calls of an answer, in the order they ended (at most 25); empty on questions and on answers stored before calls were kept',
    }),
    stopped: z.boolean().openapi({
      description: 'an answer the person stopped (the streaming client went away): content is what had been answered',
    }),
    citations: z.array(z.object({ n: z.number().int(), document_id: z.string(), title: z.string(), section: z.string() })).openapi({
      description: 'the knowledge passages an answer cites as [n]; empty on questions and answers that cite none',
    }),
    awaiting_approval: z.boolean().openapi({
      description: "a question whose answer waits for a tool call's approval (GET …/approvals), until it is decided",
    }),
    tokens_input: z.number().int().nullable(),
    tokens_output: z.number().int().nullable(),
    tokens: TokensSchema.nullable(),
    cost_usd: z.number().nullable(),
    duration_ms: z.number().int().nullable(),
    created_at: isoTimestamp,
    feedback: z
      .object({ up: z.number().int(), down: z.number().int() })
      .openapi('MessageFeedback', { description: 'ratings of an answer that count now (each rater’s last one); 0 and 0 on questions' }),
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
  .object({
    conversation: ConversationSchema,
    messages: z.array(MessageSchema),
    stats: ConversationStatsSchema,
    can_close: z.boolean().openapi({
      description: 'whether the caller may close it now: open or cold, and theirs (members, api keys) or any (admins)',
    }),
  })
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

const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** Path of one message of a conversation: `seq` as the conversation detail numbers it. */
export const MessageParams = ConversationParams.extend({
  seq: z
    .string()
    .regex(/^\d+$/, 'seq must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'seq is too large'))
    .openapi({ param: { name: 'seq', in: 'path' }, type: 'integer', example: 2 }),
});

/**
 * Free text of a person, over several lines: like a display name it refuses control characters
 * (but keeps line breaks and tabs) and invisible format characters.
 */
const feedbackComment = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => !/\p{Cc}/u.test(value.replace(/[\t\n\r]/g, '')), 'must not contain control characters (line breaks and tabs are fine)')
  .refine((value) => !hasFormatCharacter(value), 'must not contain invisible format characters (such as U+202E or U+200B)')
  .refine((value) => value.isWellFormed(), 'must be well-formed Unicode (no lone surrogates)');

export const FeedbackBody = z
  .object({
    rating: z.enum(FEEDBACK_RATINGS, { error: `must be one of ${FEEDBACK_RATINGS.join(', ')}` }),
    comment: feedbackComment.optional().openapi({ description: 'why; at most 2000 characters (an empty one is none)' }),
  })
  .openapi('FeedbackRequest', { example: { rating: 'up', comment: 'Exactly what I needed.' } });

/** `PATCH …/conversations/:cid`: what its starter changes of it in their chat history. */
export const ConversationChangeBody = z
  .object({
    title: displayName(120).optional().openapi({ description: 'a new title, 1–120 characters' }),
    pinned: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .refine((body) => body.title !== undefined || body.pinned !== undefined, { message: 'give title or pinned', path: ['title'] })
  .openapi('ConversationChange');
export type ConversationChange = z.infer<typeof ConversationChangeBody>;
