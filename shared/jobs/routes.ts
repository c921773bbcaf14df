import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/middleware.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { PaginationQuery, adminErrors, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { drainQueue, listFailedJobs, listQueues, retryAllFailed } from './ops.js';

const security = [{ cookieAuth: [] }];
const tags = ['queues'];
const QueueParams = z.object({
  name: z.string().min(1).max(64).openapi({ param: { name: 'name', in: 'path' }, example: 'conversation-stats' }),
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

const routes = {
  list: createRoute({
    method: 'get',
    path: '/org/queues',
    tags,
    summary: 'Background queues with their job counts (admin)',
    security,
    middleware: [requireAdmin] as const,
    responses: { 200: jsonResponse(z.object({ queues: z.array(QueueSchema) }), 'the queues'), ...adminErrors },
  }),
  failed: createRoute({
    method: 'get',
    path: '/org/queues/{name}/failed',
    tags,
    summary: 'Jobs that failed for good, newest first (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: QueueParams, query: PaginationQuery },
    responses: {
      200: jsonResponse(z.object({ jobs: z.array(FailedJobSchema), next_cursor: z.string().nullable() }), 'failed jobs'),
      ...adminErrors,
      ...notFoundError,
      ...validationErrors,
    },
  }),
  retryAll: createRoute({
    method: 'post',
    path: '/org/queues/{name}/retry-all',
    tags,
    summary: 'Put every failed job back to waiting (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: QueueParams },
    responses: {
      200: jsonResponse(z.object({ status: z.literal('ok'), retried: z.number().int() }), 'how many jobs were retried'),
      ...adminErrors,
      ...notFoundError,
    },
  }),
  drain: createRoute({
    method: 'post',
    path: '/org/queues/{name}/drain',
    tags,
    summary: 'Remove waiting and delayed jobs, not active ones (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: QueueParams },
    responses: {
      200: jsonResponse(z.object({ status: z.literal('ok'), removed: z.number().int() }), 'how many jobs were removed'),
      ...adminErrors,
      ...notFoundError,
    },
  }),
};

export function queueRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list, async (c) => c.json(await listQueues(deps, orgIdOf(c)), 200))
    .openapi(routes.failed, async (c) =>
      c.json(await listFailedJobs(deps, orgIdOf(c), c.req.valid('param').name, c.req.valid('query')), 200),
    )
    .openapi(routes.retryAll, async (c) => {
      const retried = await retryAllFailed(deps, orgIdOf(c), c.req.valid('param').name);
      return c.json({ status: 'ok' as const, retried }, 200);
    })
    .openapi(routes.drain, async (c) => {
      const removed = await drainQueue(deps, orgIdOf(c), c.req.valid('param').name);
      return c.json({ status: 'ok' as const, removed }, 200);
    });
}
