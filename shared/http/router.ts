import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Principal } from '../auth/tokens.js';
import { ValidationError } from '../platform/errors.js';
import { issueDetails } from '../platform/validation.js';

/** Variables set by middleware on the request context. */
export interface AppEnv {
  Variables: {
    /** Set by `authenticate` on every non-public `/api` route. */
    principal: Principal;
    /** Where the request came from, as per-address limits count it (`recordClientAddress`). */
    clientAddress: string;
  };
}

const TARGET_NAMES: Record<string, string> = {
  json: 'request body',
  query: 'query string',
  param: 'path parameter',
  header: 'header',
  cookie: 'cookie',
};

/**
 * A sub-app for one resource. Validation failures of body, query or params all become one
 * `ValidationError`, which the app's error handler answers as 400 `{ error, details }`.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const where = TARGET_NAMES[result.target] ?? result.target;
        throw new ValidationError(`invalid ${where}`, issueDetails(result.error));
      }
    },
  });
}

/** The organisation a request acts in: its principal's (a signed-in user's, or a consumer key's). */
export function orgIdOf(c: Context<AppEnv>): string {
  return c.get('principal').orgId;
}
