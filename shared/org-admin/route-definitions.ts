import { ADMINS, MEMBERS, PUBLIC, onApi } from '../http/placement.js';
import { createRoute, z } from '@hono/zod-openapi';
import {
  StatusOkSchema,
  adminErrors,
  authErrors,
  conflictError,
  errorResponse,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  CreateTeamBody,
  CreateUserBody,
  ModelSchema,
  OrganisationSchema,
  PutSettingBody,
  SettingKeyParams,
  SettingsSchema,
  SetUserPasswordBody,
  TeamSchema,
  UpdateOrgBody,
  UpdateUserBody,
  UserParams,
  UserSchema,
} from '../org/index.js';
import { ModelKeyStatusSchema } from '../models/index.js';

const OrgResponse = z.object({ org: OrganisationSchema });

export const orgRouteDefinitions = {
  getOrg: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/org',
      tags: ['organisation'],
      summary: 'Your organisation',
      responses: { 200: jsonResponse(OrgResponse, 'the organisation'), ...authErrors },
    }),
  ),
  putOrg: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org',
      tags: ['organisation'],
      summary: 'Rename your organisation (admin)',
      request: { body: jsonBody(UpdateOrgBody) },
      responses: { 200: jsonResponse(OrgResponse, 'the updated organisation'), ...adminErrors, ...validationErrors },
    }),
  ),
  listSettings: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/settings',
      tags: ['organisation'],
      summary: 'Settings, secrets masked (admin)',
      responses: { 200: jsonResponse(SettingsSchema, 'settings and which keys are configured'), ...adminErrors },
    }),
  ),
  putSetting: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org/settings/{key}',
      tags: ['organisation'],
      summary: 'Set one setting (admin)',
      request: { params: SettingKeyParams, body: jsonBody(PutSettingBody) },
      responses: { 200: jsonResponse(StatusOkSchema, 'saved'), ...adminErrors, ...validationErrors },
    }),
  ),
  deleteSetting: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/settings/{key}',
      tags: ['organisation'],
      summary: 'Remove one setting (admin)',
      request: { params: SettingKeyParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'removed'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  getModelKey: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/org/model',
      tags: ['organisation'],
      summary: 'Whether a model key answers your questions (any member; never the key)',
      description:
        "The provider, and whose key answers as a query would choose it: the organisation's own `ai_api_key`, the deployment's " +
        '(`ANTHROPIC_API_KEY` or, for bedrock, its AWS account, lent with `ALLOW_SERVICE_MODEL_KEY`), or none.',
      responses: { 200: jsonResponse(ModelKeyStatusSchema, 'the model key status'), ...authErrors },
    }),
  ),
  listUsers: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/org/users',
      tags: ['organisation'],
      summary: 'Users of your organisation',
      responses: { 200: jsonResponse(z.object({ users: z.array(UserSchema) }), 'the users'), ...authErrors },
    }),
  ),
  createUser: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/users',
      tags: ['organisation'],
      summary: 'Add a user (admin)',
      request: { body: jsonBody(CreateUserBody) },
      responses: {
        201: jsonResponse(z.object({ user: UserSchema }), 'the new user'),
        ...adminErrors,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  updateUser: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org/users/{id}',
      tags: ['organisation'],
      summary: "Change a user's role (admin; not your own)",
      description: "Takes effect on the user's next request: sessions read the stored role.",
      request: { params: UserParams, body: jsonBody(UpdateUserBody) },
      responses: {
        200: jsonResponse(z.object({ user: UserSchema }), 'the updated user'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        409: errorResponse("the organisation's last active admin, or another change of its admins under way"),
      },
    }),
  ),
  setUserPassword: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org/users/{id}/password',
      tags: ['organisation'],
      summary: "Set a user's password (admin; not your own: use POST /api/me/password)",
      description: 'Their sessions end at once; they sign in with the new password.',
      request: { params: UserParams, body: jsonBody(SetUserPasswordBody) },
      responses: {
        200: jsonResponse(z.object({ user: UserSchema }), 'the user'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
      },
    }),
  ),
  deleteUser: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/users/{id}',
      tags: ['organisation'],
      summary: 'Remove a user (admin; not yourself)',
      description:
        'Their sessions stop working on the next request and their email can sign up or be added again; their conversations stay.',
      request: { params: UserParams },
      responses: {
        200: jsonResponse(StatusOkSchema, 'removed (with their chat links, per-user grants and unused invitations)'),
        ...adminErrors,
        ...validationErrors,
        ...notFoundError,
        409: errorResponse("the organisation's last active admin, or another change of its admins under way"),
      },
    }),
  ),
  listTeams: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/teams',
      tags: ['organisation'],
      summary: 'Teams of your organisation',
      responses: { 200: jsonResponse(z.object({ teams: z.array(TeamSchema) }), 'the teams'), ...authErrors },
    }),
  ),
  createTeam: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/teams',
      tags: ['organisation'],
      summary: 'Create a team (admin)',
      request: { body: jsonBody(CreateTeamBody) },
      responses: {
        201: jsonResponse(z.object({ team: TeamSchema }), 'the new team'),
        ...adminErrors,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  listModels: onApi(
    PUBLIC,
    createRoute({
      method: 'get',
      path: '/models',
      tags: ['models'],
      summary: 'Model tiers with their prices (USD per million tokens)',
      responses: { 200: jsonResponse(z.object({ models: z.array(ModelSchema) }), 'the model tiers') },
    }),
  ),
};
