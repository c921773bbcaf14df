import { createRoute } from '@hono/zod-openapi';
import { PUBLIC, onApi } from '../http/placement.js';
import { StatusOkSchema, conflictError, jsonBody, jsonResponse, validationErrors } from '../http/schemas.js';
import { ErrorSchema } from '../http/schemas.js';
import { LoginBody, LoginResponse, SessionSchema, SignupBody, SignupResponse } from './schemas.js';

const tags = ['auth'];

const signupRoute = createRoute({
  method: 'post',
  path: '/signup',
  tags,
  summary: 'Create an organisation and its first (admin) user; sets the session cookie',
  request: { body: jsonBody(SignupBody) },
  responses: {
    201: jsonResponse(SignupResponse, 'account created'),
    ...validationErrors,
    ...conflictError,
  },
});

const loginRoute = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in; sets the session cookie',
  request: { body: jsonBody(LoginBody) },
  responses: {
    200: jsonResponse(LoginResponse, 'signed in'),
    ...validationErrors,
    401: jsonResponse(ErrorSchema, 'invalid email or password'),
    429: jsonResponse(ErrorSchema, 'too many failed logins for this email (see Retry-After)'),
  },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/auth/session',
  tags,
  summary: 'The current session, or null',
  responses: { 200: jsonResponse(SessionSchema, 'the session, or null when not signed in') },
});

const logoutShape = { path: '/auth/logout', tags, responses: { 200: jsonResponse(StatusOkSchema, 'signed out') } } as const;

const logoutRoute = createRoute({
  ...logoutShape,
  method: 'post',
  summary: 'Sign out: revokes the session everywhere and expires its cookie',
});

const logoutGetRoute = createRoute({
  ...logoutShape,
  method: 'get',
  summary: 'Sign out in this browser: expires the session cookie (use POST to also revoke the session)',
  description:
    'Kept for clients of the GET form. A GET changes nothing on the server (a link on another site could call it), so a copy of the cookie keeps working until it expires or POST revokes it.',
});

/** Public: signing up and in need no session; the session and logout routes read the cookie themselves. */
export const authRouteDefinitions = {
  signup: onApi(PUBLIC, signupRoute),
  login: onApi(PUBLIC, loginRoute),
  session: onApi(PUBLIC, sessionRoute),
  logout: onApi(PUBLIC, logoutRoute),
  logoutGet: onApi(PUBLIC, logoutGetRoute),
};
