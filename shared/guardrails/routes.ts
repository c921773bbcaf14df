import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/middleware.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { StatusOkSchema, WorkspaceParams, adminErrors, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { GuardrailSchema } from '../workspaces/schemas.js';
import { GuardrailBody, createGuardrail, deleteGuardrail, updateGuardrail } from './guardrails.js';

const security = [{ cookieAuth: [] }];
const tags = ['guardrails'];
const GuardrailParams = WorkspaceParams.extend({
  gid: z.string().min(1).max(200).openapi({ param: { name: 'gid', in: 'path' } }),
});
const GuardrailResponse = z.object({ guardrail: GuardrailSchema });
const errors = { ...adminErrors, ...notFoundError, ...validationErrors };

const routes = {
  create: createRoute({
    method: 'post',
    path: '/workspaces/{id}/guardrails',
    tags,
    summary: 'Add a guardrail, or a preset (email, card_number, phone_number) (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: WorkspaceParams, body: jsonBody(GuardrailBody) },
    responses: { 201: jsonResponse(GuardrailResponse, 'the new guardrail'), ...errors },
  }),
  update: createRoute({
    method: 'put',
    path: '/workspaces/{id}/guardrails/{gid}',
    tags,
    summary: 'Change a guardrail (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: GuardrailParams, body: jsonBody(GuardrailBody) },
    responses: { 200: jsonResponse(GuardrailResponse, 'the updated guardrail'), ...errors },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/workspaces/{id}/guardrails/{gid}',
    tags,
    summary: 'Delete a guardrail (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: GuardrailParams },
    responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...errors },
  }),
};

export function guardrailRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create, async (c) => {
      const guardrail = await createGuardrail(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ guardrail }, 201);
    })
    .openapi(routes.update, async (c) => {
      const { id, gid } = c.req.valid('param');
      return c.json({ guardrail: await updateGuardrail(deps, orgIdOf(c), id, gid, c.req.valid('json')) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      const { id, gid } = c.req.valid('param');
      await deleteGuardrail(deps, orgIdOf(c), id, gid);
      return c.json({ status: 'ok' as const }, 200);
    });
}
