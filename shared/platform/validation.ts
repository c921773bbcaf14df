import type { ZodError } from 'zod';
import type { ErrorDetail } from './errors.js';

/**
 * The one way a zod failure is told: one `{ path, message }` per issue (a 400's `details`), the
 * path dotted and, when the value sat inside a larger one, prefixed with where (`credentials`).
 */
export function issueDetails(error: ZodError, prefix: string[] = []): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: [...prefix, ...issue.path.map(String)].join('.'), message: issue.message }));
}

/** The same issues as one line each (`path: message`), for errors that are logged or stored rather than answered. */
export function issueLines(error: ZodError): string[] {
  return issueDetails(error).map((detail) => `${detail.path}: ${detail.message}`);
}
