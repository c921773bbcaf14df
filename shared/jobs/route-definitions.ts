import { ADMINS, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import { PaginationQuery, adminErrors, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';

const tags = ['queues'];
const QueueParams = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'conversation-stats' }),
});

const QueueSchema = z
  .object({
    name: z.string(),
    waiting: z.number().int(),
    active: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    delayed: z.number().int(),
  })
  .openapi('Queue');

const FailedJobSchema = z
  .object({
    id: z.string(),
    failedReason: z.string(),
    attemptsMade: z.number().int(),
    data: z.object({ conversationId: z.string() }).catchall(z.unknown()),
    failed_at: z.string(),
  })
  .openapi('FailedJob');

export const queueRouteDefinitions = {
  list: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/queues',
      tags,
      summary: 'Background queues with their job counts (admin)',
      responses: { 200: jsonResponse(z.object({ queues: z.array(QueueSchema) }), 'the queues'), ...adminErrors },
    }),
  ),
  failed: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/queues/{name}/failed',
      tags,
      summary: 'Jobs that failed for good, newest first (admin)',
      request: { params: QueueParams, query: PaginationQuery },
      responses: {
        200: jsonResponse(z.object({ jobs: z.array(FailedJobSchema), next_cursor: z.string().nullable() }), 'failed jobs'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
      },
    }),
  ),
  retryAll: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/queues/{name}/retry-all',
      tags,
      summary: 'Put every failed job back to waiting (admin)',
      request: { params: QueueParams },
      responses: {
        200: jsonResponse(z.object({ status: z.literal('ok'), retried: z.number().int() }), 'how many jobs were retried'),
        ...adminErrors,
        ...notFoundError,
      },
    }),
  ),
  drain: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/queues/{name}/drain',
      tags,
      summary: 'Remove waiting and delayed jobs, not active ones (admin)',
      request: { params: QueueParams },
      responses: {
        200: jsonResponse(z.object({ status: z.literal('ok'), removed: z.number().int() }), 'how many jobs were removed'),
        ...adminErrors,
        ...notFoundError,
      },
    }),
  ),
};
