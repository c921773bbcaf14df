import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, onApi } from '../http/placement.js';
import {
  StatusOkSchema,
  WorkspaceParams,
  adminErrors,
  conflictError,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import { CreateRoutineBody, RotateSecretBody, RoutineParams, RoutineRunSchema, RoutineSchema, UpdateRoutineBody } from './schemas.js';

const tags = ['routines'];
const RoutineResponse = z.object({
  routine: RoutineSchema,
  secret: z.string().optional().openapi({ description: "the webhook's signing secret: shown once, when it is made" }),
});
const tooManyRuns = { 429: jsonResponse(z.object({ error: z.string() }), 'the routine was started too often this minute') } as const;

/** A workspace's routines: admins make, change, run and read them (API function; runs are jobs). */
export const routineRouteDefinitions = {
  list: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/routines',
      tags,
      summary: "The workspace's routines, each with its next run and its last",
      request: { params: WorkspaceParams },
      responses: { 200: jsonResponse(z.object({ routines: z.array(RoutineSchema) }), 'the routines'), ...adminErrors, ...notFoundError },
    }),
  ),
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/routines',
      tags,
      summary: 'Add a routine: a prompt run on a schedule or by its webhook (at most 100 in an organisation: 409 past them)',
      request: { params: WorkspaceParams, body: jsonBody(CreateRoutineBody) },
      responses: {
        201: jsonResponse(RoutineResponse, 'the routine, and its webhook secret once'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  get: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/routines/{routine_id}',
      tags,
      summary: 'A routine',
      request: { params: RoutineParams },
      responses: { 200: jsonResponse(z.object({ routine: RoutineSchema }), 'the routine'), ...adminErrors, ...notFoundError },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}/routines/{routine_id}',
      tags,
      summary: 'Change a routine (its schedule moves with it; `enabled: false` pauses it)',
      request: { params: RoutineParams, body: jsonBody(UpdateRoutineBody) },
      responses: { 200: jsonResponse(RoutineResponse, 'the routine'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/routines/{routine_id}',
      tags,
      summary: 'Delete a routine and its schedule (its runs and their conversations stay)',
      request: { params: RoutineParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError },
    }),
  ),
  rotateSecret: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/routines/{routine_id}/secret',
      tags,
      summary:
        "Rotate a webhook routine's signing secret: the new one is answered once; the old one stops verifying at once or after `keep_old_for_minutes` (400 for a scheduled routine)",
      request: { params: RoutineParams, body: { ...jsonBody(RotateSecretBody), required: false } },
      responses: {
        200: jsonResponse(
          z.object({ routine: RoutineSchema, secret: z.string().openapi({ description: 'the new signing secret: shown once' }) }),
          'the routine and its new secret, once',
        ),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  run: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/routines/{routine_id}/run',
      tags,
      summary: 'Run a routine now (queued: it runs as a job)',
      request: { params: RoutineParams },
      responses: {
        202: jsonResponse(z.object({ run: RoutineRunSchema }), 'the run, queued'),
        ...adminErrors,
        ...notFoundError,
        ...tooManyRuns,
      },
    }),
  ),
  runs: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/routines/{routine_id}/runs',
      tags,
      summary: "A routine's runs, newest first (the last 50): status, duration, cost and the conversation of each",
      request: { params: RoutineParams },
      responses: { 200: jsonResponse(z.object({ runs: z.array(RoutineRunSchema) }), 'the runs'), ...adminErrors, ...notFoundError },
    }),
  ),
};
