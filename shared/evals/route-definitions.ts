import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, ADMINS_OR_API_KEY, MEMBERS_OR_API_KEY, onApi } from '../http/placement.js';
import {
  StatusOkSchema,
  WorkspaceParams,
  adminErrors,
  authErrors,
  conflictError,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  CreateEvalBody,
  EvalListItemSchema,
  EvalParams,
  EvalSchema,
  RunParams,
  RunSchema,
  RunSummarySchema,
  StartRunBody,
  UpdateEvalBody,
} from './schemas.js';

const tags = ['evaluations'];
const EvalResponse = z.object({ eval: EvalSchema });

/** A workspace's evaluations: members read them and their runs, admins change and run them (API function; cases run as jobs). */
export const evalRouteDefinitions = {
  list: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/evals',
      tags,
      summary: "The workspace's evaluations, each with its last run",
      request: { params: WorkspaceParams },
      responses: {
        200: jsonResponse(z.object({ evals: z.array(EvalListItemSchema) }), 'the evaluations'),
        ...authErrors,
        ...notFoundError,
      },
    }),
  ),
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/evals',
      tags,
      summary: 'Add an evaluation: cases, each a question and what a good answer does (at most 50 in a workspace: 409 past them)',
      request: { params: WorkspaceParams, body: jsonBody(CreateEvalBody) },
      responses: {
        201: jsonResponse(EvalResponse, 'the evaluation'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  get: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/evals/{eval_id}',
      tags,
      summary: 'An evaluation with its cases',
      request: { params: EvalParams },
      responses: { 200: jsonResponse(EvalResponse, 'the evaluation'), ...authErrors, ...notFoundError },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/workspaces/{id}/evals/{eval_id}',
      tags,
      summary: 'Rename an evaluation or replace its cases (a run under way keeps the cases it started with)',
      request: { params: EvalParams, body: jsonBody(UpdateEvalBody) },
      responses: { 200: jsonResponse(EvalResponse, 'the evaluation'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/evals/{eval_id}',
      tags,
      summary: 'Delete an evaluation',
      request: { params: EvalParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError },
    }),
  ),
  start: onApi(
    ADMINS_OR_API_KEY,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/evals/{eval_id}/runs',
      tags,
      summary:
        'Run an evaluation (queued: its cases run as jobs), optionally with settings tried in this run only; 409 while a run of it is under way, 429 past the cases the organisation may have under way',
      request: { params: EvalParams, body: jsonBody(StartRunBody) },
      responses: {
        202: jsonResponse(z.object({ run: z.object({ id: z.string(), status: z.literal('queued') }) }), 'the run, queued'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  runs: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/evals/{eval_id}/runs',
      tags,
      summary: "An evaluation's runs, newest first",
      request: { params: EvalParams },
      responses: { 200: jsonResponse(z.object({ runs: z.array(RunSummarySchema) }), 'the runs'), ...authErrors, ...notFoundError },
    }),
  ),
  run: onApi(
    MEMBERS_OR_API_KEY,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/evals/{eval_id}/runs/{run_id}',
      tags,
      summary: 'A run with the result of each case, and its regressions against the previous run',
      request: { params: RunParams },
      responses: { 200: jsonResponse(z.object({ run: RunSchema }), 'the run'), ...authErrors, ...notFoundError },
    }),
  ),
};
