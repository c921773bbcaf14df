import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { requireAdmin } from '../http/middleware.js';
import { createRouter, orgIdOf } from '../http/router.js';
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
import { listModels } from '../models/catalogue.js';
import { getOrganisation, renameOrganisation } from './organisations.js';
import {
  CreateTeamBody,
  CreateUserBody,
  ModelSchema,
  OrganisationSchema,
  PutSettingBody,
  SettingKeyParams,
  SettingsSchema,
  TeamSchema,
  UpdateOrgBody,
  UpdateUserBody,
  UserParams,
  UserSchema,
} from './schemas.js';
import { deleteSetting, listSettings, putSetting } from './settings.js';
import { createTeam, listTeams } from './teams.js';
import { changeUserRole, createUser, listUsers, removeUser } from './users.js';

const security = [{ cookieAuth: [] }];
const OrgResponse = z.object({ org: OrganisationSchema });

const routes = {
  getOrg: createRoute({
    method: 'get',
    path: '/org',
    tags: ['organisation'],
    summary: 'Your organisation',
    security,
    responses: { 200: jsonResponse(OrgResponse, 'the organisation'), ...authErrors },
  }),
  putOrg: createRoute({
    method: 'put',
    path: '/org',
    tags: ['organisation'],
    summary: 'Rename your organisation (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(UpdateOrgBody) },
    responses: { 200: jsonResponse(OrgResponse, 'the updated organisation'), ...adminErrors, ...validationErrors },
  }),
  listSettings: createRoute({
    method: 'get',
    path: '/org/settings',
    tags: ['organisation'],
    summary: 'Settings, secrets masked (admin)',
    security,
    middleware: [requireAdmin] as const,
    responses: { 200: jsonResponse(SettingsSchema, 'settings and which keys are configured'), ...adminErrors },
  }),
  putSetting: createRoute({
    method: 'put',
    path: '/org/settings/{key}',
    tags: ['organisation'],
    summary: 'Set one setting (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: SettingKeyParams, body: jsonBody(PutSettingBody) },
    responses: { 200: jsonResponse(StatusOkSchema, 'saved'), ...adminErrors, ...validationErrors },
  }),
  deleteSetting: createRoute({
    method: 'delete',
    path: '/org/settings/{key}',
    tags: ['organisation'],
    summary: 'Remove one setting (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { params: SettingKeyParams },
    responses: { 200: jsonResponse(StatusOkSchema, 'removed'), ...adminErrors, ...notFoundError, ...validationErrors },
  }),
  listUsers: createRoute({
    method: 'get',
    path: '/org/users',
    tags: ['organisation'],
    summary: 'Users of your organisation',
    security,
    responses: { 200: jsonResponse(z.object({ users: z.array(UserSchema) }), 'the users'), ...authErrors },
  }),
  createUser: createRoute({
    method: 'post',
    path: '/org/users',
    tags: ['organisation'],
    summary: 'Add a user (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(CreateUserBody) },
    responses: {
      201: jsonResponse(z.object({ user: UserSchema }), 'the new user'),
      ...adminErrors,
      ...validationErrors,
      ...conflictError,
    },
  }),
  updateUser: createRoute({
    method: 'put',
    path: '/org/users/{id}',
    tags: ['organisation'],
    summary: "Change a user's role (admin; not your own)",
    description: "Takes effect on the user's next request: sessions read the stored role.",
    security,
    middleware: [requireAdmin] as const,
    request: { params: UserParams, body: jsonBody(UpdateUserBody) },
    responses: { 200: jsonResponse(z.object({ user: UserSchema }), 'the updated user'), ...adminErrors, ...validationErrors, ...notFoundError },
  }),
  deleteUser: createRoute({
    method: 'delete',
    path: '/org/users/{id}',
    tags: ['organisation'],
    summary: 'Remove a user (admin; not yourself)',
    description: "Their sessions stop working on the next request and their email can sign up or be added again; their conversations stay.",
    security,
    middleware: [requireAdmin] as const,
    request: { params: UserParams },
    responses: { 200: jsonResponse(StatusOkSchema, 'removed'), ...adminErrors, ...validationErrors, ...notFoundError },
  }),
  listTeams: createRoute({
    method: 'get',
    path: '/teams',
    tags: ['organisation'],
    summary: 'Teams of your organisation',
    security,
    responses: { 200: jsonResponse(z.object({ teams: z.array(TeamSchema) }), 'the teams'), ...authErrors },
  }),
  createTeam: createRoute({
    method: 'post',
    path: '/teams',
    tags: ['organisation'],
    summary: 'Create a team (admin)',
    security,
    middleware: [requireAdmin] as const,
    request: { body: jsonBody(CreateTeamBody) },
    responses: {
      201: jsonResponse(z.object({ team: TeamSchema }), 'the new team'),
      ...adminErrors,
      ...validationErrors,
      ...conflictError,
    },
  }),
  listModels: createRoute({
    method: 'get',
    path: '/models',
    tags: ['models'],
    summary: 'Model tiers with their prices (USD per million tokens)',
    responses: { 200: jsonResponse(z.object({ models: z.array(ModelSchema) }), 'the model tiers') },
  }),
};

export function orgRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.getOrg, async (c) => c.json({ org: await getOrganisation(deps, orgIdOf(c)) }, 200))
    .openapi(routes.putOrg, async (c) => {
      const org = await renameOrganisation(deps, orgIdOf(c), c.req.valid('json').name);
      return c.json({ org }, 200);
    })
    .openapi(routes.listSettings, async (c) => c.json(await listSettings(deps, orgIdOf(c)), 200))
    .openapi(routes.putSetting, async (c) => {
      await putSetting(deps, orgIdOf(c), c.req.valid('param').key, c.req.valid('json').value);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.deleteSetting, async (c) => {
      await deleteSetting(deps, orgIdOf(c), c.req.valid('param').key);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.listUsers, async (c) => c.json({ users: await listUsers(deps, orgIdOf(c)) }, 200))
    .openapi(routes.createUser, async (c) => {
      const user = await createUser(deps, orgIdOf(c), c.req.valid('json'));
      return c.json({ user }, 201);
    })
    .openapi(routes.updateUser, async (c) => {
      const user = await changeUserRole(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('json').org_role);
      return c.json({ user }, 200);
    })
    .openapi(routes.deleteUser, async (c) => {
      await removeUser(deps, c.get('principal'), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.listTeams, async (c) => c.json({ teams: await listTeams(deps, orgIdOf(c)) }, 200))
    .openapi(routes.createTeam, async (c) => {
      const team = await createTeam(deps, orgIdOf(c), c.req.valid('json').name);
      return c.json({ team }, 201);
    })
    .openapi(routes.listModels, (c) => c.json({ models: listModels() }, 200));
}
