import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, PUBLIC, onApi } from '../http/placement.js';
import {
  ErrorSchema,
  StatusOkSchema,
  adminErrors,
  conflictError,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../http/schemas.js';
import {
  AcceptInvitationBody,
  AcceptInvitationResponse,
  CreateInvitationBody,
  CreatedInvitationSchema,
  InvitationIdParams,
  InvitationSchema,
  InvitationTokenParams,
  InvitationViewSchema,
} from './schemas.js';

const tags = ['organisation'];
const linkErrors = {
  404: jsonResponse(ErrorSchema, 'unknown or revoked link'),
  410: jsonResponse(ErrorSchema, 'the invitation was used already, has expired, or its inviter is no longer an active admin'),
};

export const invitationRouteDefinitions = {
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/invitations',
      tags,
      summary: 'Invite someone by link (admin): the link is shown once',
      description: 'Works whatever SIGNUP_MODE says. An email that already has an account is 409.',
      request: { body: jsonBody(CreateInvitationBody) },
      responses: {
        201: jsonResponse(z.object({ invitation: CreatedInvitationSchema }), 'the invitation and its link'),
        ...adminErrors,
        ...validationErrors,
        ...conflictError,
      },
    }),
  ),
  list: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/invitations',
      tags,
      summary: 'Invitations still waiting (neither used nor expired) (admin)',
      responses: { 200: jsonResponse(z.object({ invitations: z.array(InvitationSchema) }), 'the invitations'), ...adminErrors },
    }),
  ),
  revoke: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/invitations/{id}',
      tags,
      summary: 'Revoke an invitation (admin): its link stops working',
      request: { params: InvitationIdParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'revoked'), ...adminErrors, ...notFoundError, ...validationErrors },
    }),
  ),
  view: onApi(
    PUBLIC,
    createRoute({
      method: 'get',
      path: '/invitations/{token}',
      tags,
      summary: 'What an invitation link invites to (public: the token is the credential)',
      request: { params: InvitationTokenParams },
      responses: { 200: jsonResponse(InvitationViewSchema, 'the invitation'), ...validationErrors, ...linkErrors },
    }),
  ),
  accept: onApi(
    PUBLIC,
    createRoute({
      method: 'post',
      path: '/invitations/{token}/accept',
      tags,
      summary: 'Accept an invitation (public): creates your user and signs you in (sets the session cookie)',
      request: { params: InvitationTokenParams, body: jsonBody(AcceptInvitationBody) },
      responses: {
        201: jsonResponse(AcceptInvitationResponse, 'you are a user of the organisation, signed in'),
        ...validationErrors,
        ...conflictError,
        ...linkErrors,
      },
    }),
  ),
};
