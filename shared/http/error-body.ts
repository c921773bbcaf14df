import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { DomainError } from '../platform/errors.js';

/**
 * The status and `{ error, details? }` body of an error the client caused (a domain error, or
 * Hono's own malformed JSON / unsupported media type); undefined for anything unexpected, which
 * is a 500 whose details go only to the log.
 */
export function clientErrorOf(error: unknown): { status: ContentfulStatusCode; body: { error: string; details?: unknown } } | undefined {
  if (error instanceof DomainError) {
    const body = error.details ? { error: error.message, details: error.details } : { ...error.extra, error: error.message };
    return { status: error.status, body };
  }
  if (error instanceof HTTPException && error.status < 500) {
    const message = error.message || 'bad request';
    const body = error.status === 400 ? { error: message, details: [{ path: '', message }] } : { error: message };
    return { status: error.status, body };
  }
  return undefined;
}
