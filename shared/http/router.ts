import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { Principal } from '../auth/tokens.js';
import { ValidationError, type ErrorDetail } from '../platform/errors.js';

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

export function detailsOf(error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/**
 * A sub-app for one resource. Validation failures of body, query or params all become one
 * `ValidationError`, which the app's error handler answers as 400 `{ error, details }`.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const where = TARGET_NAMES[result.target] ?? result.target;
        throw new ValidationError(`invalid ${where}`, detailsOf(result.error));
      }
    },
  });
}
