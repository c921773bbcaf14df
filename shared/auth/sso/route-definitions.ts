import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, PUBLIC, onApi } from '../../http/placement.js';
import {
  StatusOkSchema,
  adminErrors,
  conflictError,
  errorResponse,
  jsonBody,
  jsonResponse,
  notFoundError,
  validationErrors,
} from '../../http/schemas.js';
import { SsoCallbackQuery, SsoConfigBody, SsoSchema, SsoStartQuery, SsoTestBody, SsoTestResponse } from './schemas.js';

const tags = ['single sign-on'];
const SsoResponse = z.object({ sso: SsoSchema });
/** The setting as read: null while single sign-on is not configured, an answer like any other (not a 404). */
// A union, not `.nullable()`: the generator would make the shared `Sso` schema itself nullable (PUT's answer too).
const SsoReadResponse = z.object({ sso: z.union([SsoSchema, z.null()]) });
const redirect = (description: string) => ({ 302: { description, headers: { location: { schema: { type: 'string' as const } } } } });

/** The organisation's OpenID provider (admins) and the sign-in through it (public). API function. */
export const ssoRouteDefinitions = {
  get: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/sso',
      tags,
      summary: "The organisation's single sign-on (its client secret masked), or null while it is off",
      responses: { 200: jsonResponse(SsoReadResponse, 'the setting, or null'), ...adminErrors },
    }),
  ),
  put: onApi(
    ADMINS,
    createRoute({
      method: 'put',
      path: '/org/sso',
      tags,
      summary: 'Sign in through an OpenID provider: its issuer and client, the e-mail domains it signs in, what a first sign-in makes',
      request: { body: jsonBody(SsoConfigBody) },
      responses: { 200: jsonResponse(SsoResponse, 'the setting'), ...adminErrors, ...validationErrors, ...conflictError },
    }),
  ),
  test: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/sso/test',
      tags,
      summary: 'Check a provider before saving it: runs its discovery for this issuer and client',
      description: 'A provider that cannot be discovered answers `{ ok: false, error }`, not an error status.',
      request: { body: jsonBody(SsoTestBody) },
      responses: { 200: jsonResponse(SsoTestResponse, 'what discovery found, or why it failed'), ...adminErrors, ...validationErrors },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/sso',
      tags,
      summary: 'Turn single sign-on off (password sign-in works again)',
      responses: { 200: jsonResponse(StatusOkSchema, 'removed'), ...adminErrors, ...notFoundError },
    }),
  ),
  start: onApi(
    PUBLIC,
    createRoute({
      method: 'get',
      path: '/auth/sso',
      tags,
      summary: "Start signing in with single sign-on: redirects to the provider of the address's domain",
      request: { query: SsoStartQuery },
      responses: {
        ...redirect("to the organisation's identity provider"),
        ...validationErrors,
        404: errorResponse('no organisation signs in this domain with single sign-on'),
        401: errorResponse('the identity provider could not be reached'),
        429: errorResponse('too many sign-ins started from this address (see Retry-After)'),
      },
    }),
  ),
  callback: onApi(
    PUBLIC,
    createRoute({
      method: 'get',
      path: '/auth/sso/callback',
      tags,
      summary:
        "The provider's redirect: checks its answer, signs the person in (created on their first sign-in) and redirects to the console",
      request: { query: SsoCallbackQuery },
      responses: {
        ...redirect('to the console, signed in'),
        ...validationErrors,
        401: errorResponse(
          'the answer could not be verified, expired or was used already, or the sign-in was not started in this browser (its binding cookie)',
        ),
        403: errorResponse(
          'the address is not one of the organisation’s, belongs to another organisation, or the provider did not say it is verified',
        ),
      },
    }),
  ),
};
