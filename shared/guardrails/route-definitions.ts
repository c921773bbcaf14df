import { ADMINS, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import { StatusOkSchema, WorkspaceParams, adminErrors, jsonBody, jsonResponse, notFoundError, validationErrors } from '../http/schemas.js';
import { GuardrailSchema } from '../workspaces/index.js';
import { GuardrailBody } from './guardrails.js';

const tags = ['guardrails'];
const GuardrailParams = WorkspaceParams.extend({
  gid: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'gid', in: 'path' } }),
});
const GuardrailResponse = z.object({ guardrail: GuardrailSchema });
const errors = { ...adminErrors, ...notFoundError, ...validationErrors };

export const guardrailRouteDefinitions = {
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/guardrails',
      tags,
      summary: 'Add a guardrail, or a preset (email, card_number, phone_number) (admin)',
      request: { params: WorkspaceParams, body: jsonBody(GuardrailBody) },
      responses: { 201: jsonResponse(GuardrailResponse, 'the new guardrail'), ...errors },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}/guardrails/{gid}',
      tags,
      summary: 'Change a guardrail (admin)',
      request: { params: GuardrailParams, body: jsonBody(GuardrailBody) },
      responses: { 200: jsonResponse(GuardrailResponse, 'the updated guardrail'), ...errors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/guardrails/{gid}',
      tags,
      summary: 'Delete a guardrail (admin)',
      request: { params: GuardrailParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...errors },
    }),
  ),
};
