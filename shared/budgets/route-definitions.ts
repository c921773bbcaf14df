import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, MEMBERS, onApi } from '../http/placement.js';
import {
  StatusOkSchema,
  adminErrors,
  authErrors,
  conflictError,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import { BudgetParams, BudgetSchema, CreateBudgetBody, UpdateBudgetBody } from './schemas.js';

const tags = ['budgets'];
const BudgetResponse = z.object({ budget: BudgetSchema });

/** The organisation's budgets: any member reads them, admins set them (API function). */
export const budgetRouteDefinitions = {
  list: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/org/budgets',
      tags,
      summary: "The organisation's budgets, with what each has spent this period",
      responses: { 200: jsonResponse(z.object({ budgets: z.array(BudgetSchema) }), 'the budgets'), ...authErrors },
    }),
  ),
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/budgets',
      tags,
      summary: 'Add a budget: a limit per day or month on what the organisation, a workspace, a consumer, a user or a routine spends',
      request: { body: jsonBody(CreateBudgetBody) },
      responses: { 201: jsonResponse(BudgetResponse, 'the budget'), ...adminErrors, ...validationErrors, ...conflictError },
    }),
  ),
  update: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org/budgets/{id}',
      tags,
      summary: "Change a budget's limit or alert thresholds",
      request: { params: BudgetParams, body: jsonBody(UpdateBudgetBody) },
      responses: { 200: jsonResponse(BudgetResponse, 'the budget'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/budgets/{id}',
      tags,
      summary: 'Delete a budget',
      request: { params: BudgetParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError },
    }),
  ),
};
