import { z } from '@hono/zod-openapi';
import { TokensSchema } from '../models/index.js';

const MAX_TEXT = 32_000;

const QuestionText = z.string().trim().min(1, 'must not be empty').max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

export const QueryBody = z
  .object({
    query: QuestionText.optional().openapi({ description: 'the question; required unless `regenerate` or `edit` is given' }),
    regenerate: z
      .literal(true, { error: 'must be true' })
      .optional()
      .openapi({ description: "answers the conversation's last question again, replacing its last answer (needs `session_id`)" }),
    edit: z
      .object({ content: QuestionText })
      .optional()
      .openapi({ description: "replaces the conversation's last question with `content`, then answers it (needs `session_id`)" }),
    session_id: z
      .string()
      .regex(/^[A-Za-z0-9._:@-]{1,128}$/, 'must be 1–128 characters of letters, digits and . _ : @ -')
      .optional()
      .openapi({ description: 'continues the conversation of this id; a new id starts a conversation under it' }),
    history: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant'], { error: 'must be user or assistant' }),
          content: z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
        }),
      )
      .max(100, 'at most 100 messages')
      .optional()
      .openapi({ description: 'prior messages; used only when the conversation is new' }),
  })
  .superRefine((body, context) => {
    const given = [body.query !== undefined, body.regenerate === true, body.edit !== undefined].filter(Boolean).length;
    if (given === 0) context.addIssue({ code: 'custom', path: ['query'], message: 'must not be empty' });
    if (given > 1) context.addIssue({ code: 'custom', path: ['query'], message: 'give one of query, regenerate or edit' });
    if ((body.regenerate || body.edit) && body.session_id === undefined) {
      context.addIssue({ code: 'custom', path: ['session_id'], message: 'regenerate and edit change a conversation: give its session_id' });
    }
  })
  .openapi('QueryRequest');
export type QueryInput = z.infer<typeof QueryBody>;

const PendingApprovalSchema = z
  .object({
    id: z.string(),
    tool: z.string(),
    connection: z.string().nullable(),
    input: z.record(z.string(), z.unknown()),
    requested_by: z.string(),
    expires_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PendingApproval');

export const QueryResponseSchema = z
  .object({
    answer: z.string(),
    tools_called: z.array(z.string()),
    connections_hit: z.array(z.string()),
    tokens: TokensSchema,
    cost_usd: z.number(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    conversation_id: z.string(),
    session_id: z.string(),
    authorization_url: z
      .string()
      .optional()
      .openapi({ description: 'a per-user connection you have not authorized: open it to grant access, then ask again' }),
    citations: z
      .array(z.object({ n: z.number().int(), document_id: z.string(), title: z.string(), section: z.string() }))
      .optional()
      .openapi({ description: 'the knowledge passages the answer cites as [n]: open one with GET …/knowledge/documents/{document_id}' }),
    pending_approval: PendingApprovalSchema.nullable().openapi({
      description:
        'a tool call waiting for a person to approve it: the query is paused until it is decided (POST …/approvals/{approval_id})',
    }),
  })
  .openapi('QueryResponse');
