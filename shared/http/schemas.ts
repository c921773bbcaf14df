import { z } from '@hono/zod-openapi';

/** Shapes shared by many routes, and helpers that keep route definitions short. */

const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() }).openapi('ErrorDetail');

export const ErrorSchema = z
  .object({ error: z.string(), details: z.array(ErrorDetailSchema).optional() })
  .openapi('Error', { example: { error: 'invalid request body', details: [{ path: 'name', message: 'required' }] } });

export const StatusOkSchema = z.object({ status: z.literal('ok') }).openapi('StatusOk');

/** A zero-width joiner between two emoji (👩‍💻): part of one visible glyph, so not refused. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;

/** Whether a text has an invisible format character (`\p{Cf}`) other than the joiner inside an emoji sequence. */
export function hasFormatCharacter(value: string): boolean {
  return /\p{Cf}/u.test(value.replace(EMOJI_JOINER, ''));
}

/**
 * A display name: trimmed, 1–100 characters, no control characters and no invisible format
 * characters (`\p{Cf}`: right-to-left overrides that make `exe.txt` read as `txt.exe`, zero-width
 * spaces that make two names look the same). The joiner inside an emoji sequence is the one
 * exception: it draws one visible emoji.
 */
export const displayName = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters')
    .refine((value) => !hasFormatCharacter(value), 'must not contain invisible format characters (such as U+202E or U+200B)')
    .refine((value) => value.isWellFormed(), 'must be well-formed Unicode (no lone surrogates)');

export const emailAddress = z.string().trim().toLowerCase().max(254, 'must be at most 254 characters').email('must be an email address');

export const password = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

export const isoTimestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });

/** Workspace path parameter (`:id` in the route notation of README.md and docs/). */
export const WorkspaceParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'ws-support' }),
});

const nonNegativeInteger = (name: string) => z.string().regex(/^\d+$/, `${name} must be a non-negative integer`).transform(Number);

/** Pagination (docs/api-decisions.md, Conventions and errors): limit default 50 (clamped to 200), offset default 0, or an opaque cursor. */
export const PaginationQuery = z.object({
  limit: nonNegativeInteger('limit')
    .pipe(z.number().int().min(1, 'limit must be at least 1'))
    .transform((limit) => Math.min(limit, 200))
    .optional()
    .openapi({ type: 'integer', example: 50 }),
  offset: nonNegativeInteger('offset').optional().openapi({ type: 'integer', example: 0 }),
  cursor: z.string().max(2048).optional().openapi({ description: 'opaque, from next_cursor of the previous page' }),
});
/** The page the store's readers take (platform/pages.ts), which `PaginationQuery` reads as. */
export type { Pagination } from '../platform/pages.js';

export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { content: { 'application/json': { schema } }, required: true, description };
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/**
 * A 200 that is JSON, or with `Accept: text/event-stream` the same answer streamed as Server-Sent
 * Events (docs/streaming.md): `start`, `text`, `tool_call`, `tool_result`, and last `done`, whose
 * data is the JSON answer.
 */
export function jsonOrEventStream<T extends z.ZodType>(schema: T, description: string) {
  const events = z.string().openapi({
    description:
      'Server-Sent Events: `start` {conversation_id, session_id}; `text` {delta}; `tool_call` {id, name, connection, arguments}; ' +
      '`tool_result` {id, name, is_error, duration_ms, result}; last, always, `done` with the JSON answer. A comment line every 15 s.',
  });
  return { content: { 'application/json': { schema }, 'text/event-stream': { schema: events } }, description };
}

export const errorResponse = (description: string) => jsonResponse(ErrorSchema, description);

/** The error answers every authenticated route can give. */
export const authErrors = {
  401: errorResponse('not authenticated'),
  429: errorResponse('too many requests'),
} as const;
export const adminErrors = { ...authErrors, 403: errorResponse('needs the admin role') } as const;
export const validationErrors = {
  400: errorResponse('invalid request (details name the fields)'),
  413: errorResponse('body over 1 MiB'),
  415: errorResponse('body is not application/json'),
} as const;
export const notFoundError = { 404: errorResponse('not found in your organisation') } as const;
export const conflictError = { 409: errorResponse('conflicts with an existing resource') } as const;
