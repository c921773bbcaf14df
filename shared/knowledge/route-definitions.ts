import { ADMINS, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import { StatusOkSchema, WorkspaceParams, adminErrors, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { KnowledgeEntrySchema } from '../workspaces/index.js';
import { KnowledgeBody, KnowledgeUpdateBody } from './knowledge.js';

const tags = ['knowledge'];
const EntryParams = WorkspaceParams.extend({
  kid: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'kid', in: 'path' } }),
});
const KnowledgeResponse = z.object({ knowledge: KnowledgeEntrySchema });
const errors = { ...adminErrors, ...notFoundError, ...validationErrors };

export const knowledgeRouteDefinitions = {
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/knowledge',
      tags,
      summary: 'Add a knowledge entry (admin)',
      request: { params: WorkspaceParams, body: jsonBody(KnowledgeBody) },
      responses: { 201: jsonResponse(KnowledgeResponse, 'the new entry'), ...errors },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}/knowledge/{kid}',
      tags,
      summary: 'Change a knowledge entry (admin)',
      request: { params: EntryParams, body: jsonBody(KnowledgeUpdateBody) },
      responses: { 200: jsonResponse(KnowledgeResponse, 'the updated entry'), ...errors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/knowledge/{kid}',
      tags,
      summary: 'Delete a knowledge entry (admin)',
      request: { params: EntryParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...errors },
    }),
  ),
};
