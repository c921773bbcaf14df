import { createRoute } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { MEMBERS, PUBLIC, onApi } from '../http/placement.js';
import { StatusOkSchema, authErrors, conflictError, jsonBody, jsonResponse, validationErrors } from '../http/schemas.js';
import { UserSchema } from '../org/index.js';
import { ErrorSchema } from '../http/schemas.js';
import {
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  ProfileSchema,
  SessionSchema,
  SignupBody,
  SignupResponse,
  SignupStateSchema,
  UpdateProfileBody,
} from './schemas.js';

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

const signupStateRoute = createRoute({
  method: 'get',
  path: '/signup',
  tags,
  summary: 'Who may sign up, and whether anyone has yet (a fresh install opens the console on sign-up)',
  responses: { 200: jsonResponse(SignupStateSchema, 'the sign-up mode and whether the first sign-up is still to come') },
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

const meTags = ['profile'];

const getMeRoute = createRoute({
  method: 'get',
  path: '/me',
  tags: meTags,
  summary: 'Your own user, and whether you have a password here',
  responses: { 200: jsonResponse(ProfileSchema, 'your profile'), ...authErrors },
});

const putMeRoute = createRoute({
  method: 'put',
  path: '/me',
  tags: meTags,
  summary: 'Change your display name',
  request: { body: jsonBody(UpdateProfileBody) },
  responses: { 200: jsonResponse(z.object({ user: UserSchema }), 'your updated user'), ...authErrors, ...validationErrors },
});

const changePasswordRoute = createRoute({
  method: 'post',
  path: '/me/password',
  tags: meTags,
  summary: 'Change your password (the current one is checked); your other sessions end',
  description:
    'A wrong current password is 400 on current_password and counts as a failed sign-in (429 past the login limits). A user single sign-on made has no password: 400. Every other session of yours ends; the one that asked goes on.',
  request: { body: jsonBody(ChangePasswordBody) },
  responses: { 200: jsonResponse(StatusOkSchema, 'changed'), ...authErrors, ...validationErrors },
});

/** Public: signing up and in need no session; the session and logout routes read the cookie themselves. `/me` is any member's own. */
export const authRouteDefinitions = {
  signup: onApi(PUBLIC, signupRoute),
  signupState: onApi(PUBLIC, signupStateRoute),
  login: onApi(PUBLIC, loginRoute),
  session: onApi(PUBLIC, sessionRoute),
  logout: onApi(PUBLIC, logoutRoute),
  logoutGet: onApi(PUBLIC, logoutGetRoute),
  getMe: onApi(MEMBERS, getMeRoute),
  putMe: onApi(MEMBERS, putMeRoute),
  changePassword: onApi(MEMBERS, changePasswordRoute),
};
