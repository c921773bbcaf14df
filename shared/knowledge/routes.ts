import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/middleware.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { StatusOkSchema, WorkspaceParams, adminErrors, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { KnowledgeEntrySchema } from '../workspaces/schemas.js';
import { KnowledgeBody, KnowledgeUpdateBody, createKnowledge, deleteKnowledge, updateKnowledge } from './knowledge.js';

const security = [{ cookieAuth: [] }];
const tags = ['knowledge'];
const EntryParams = WorkspaceParams.extend({
  kid: z.string().min(1).max(200).openapi({ param: { name: 'kid', in: 'path' } }),
});
const KnowledgeResponse = z.object({ knowledge: KnowledgeEntrySchema });
const errors = { ...adminErrors, ...notFoundError, ...validationErrors };

const routes = {
  create: createRoute({
    method: 'post',
    path: '/workspaces/{id}/knowledge',
    tags,
    summary: 'Add a knowledge entry (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: WorkspaceParams, body: jsonBody(KnowledgeBody) },
    responses: { 201: jsonResponse(KnowledgeResponse, 'the new entry'), ...errors },
  }),
  update: createRoute({
    method: 'put',
    path: '/workspaces/{id}/knowledge/{kid}',
    tags,
    summary: 'Change a knowledge entry (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: EntryParams, body: jsonBody(KnowledgeUpdateBody) },
    responses: { 200: jsonResponse(KnowledgeResponse, 'the updated entry'), ...errors },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/workspaces/{id}/knowledge/{kid}',
    tags,
    summary: 'Delete a knowledge entry (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: EntryParams },
    responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...errors },
  }),
};

export function knowledgeRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create, async (c) => {
      const knowledge = await createKnowledge(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ knowledge }, 201);
    })
    .openapi(routes.update, async (c) => {
      const { id, kid } = c.req.valid('param');
      return c.json({ knowledge: await updateKnowledge(deps, orgIdOf(c), id, kid, c.req.valid('json')) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      const { id, kid } = c.req.valid('param');
      await deleteKnowledge(deps, orgIdOf(c), id, kid);
      return c.json({ status: 'ok' as const }, 200);
    });
}
