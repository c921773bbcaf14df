import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../platform/errors.js';
import type { AppEnv } from './router.js';

/*
 * Middleware every router may use, knowing no domain: the body rules and the Bearer header. Who is
 * calling (a session, a consumer's key) is found by shared/wiring/authenticate.ts, which reads the
 * route table.
 */

export const MAX_BODY_BYTES = 1024 * 1024;
const utf8 = new TextDecoder();

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** A route that takes files: `multipart/form-data` up to `maxBytes` at the paths `path` matches (a POST). */
export interface UploadRoute {
  path: RegExp;
  maxBytes: number;
  /** What a body over `maxBytes` is told. */
  tooLarge: string;
}

const isMultipart = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data';

/** A file upload's own limit, counted as it is read: past it 413, before the body is read whole. */
function limitUpload(c: Parameters<MiddlewareHandler<AppEnv>>[0], next: () => Promise<void>, upload: UploadRoute) {
  if (Number(c.req.header('content-length') ?? '0') > upload.maxBytes) throw new PayloadTooLargeError(upload.tooLarge);
  return bodyLimit({
    maxSize: upload.maxBytes,
    onError: () => {
      throw new PayloadTooLargeError(upload.tooLarge);
    },
  })(c, next);
}

/**
 * Bodies: a POST/PUT/PATCH whose Content-Type is not JSON is 415 (this also blocks cross-site form
 * posts), a body over 1 MiB is 413 whether or not it declares its length. A body the local runtime
 * has read already (`incoming.rawBody`) is handed to Hono as it is. The `uploads` routes also take
 * `multipart/form-data` up to their own limit (a cross-site form cannot send the session cookie
 * with a POST: it is `SameSite=Lax`).
 */
export function limitBodies(uploads: readonly UploadRoute[] = []): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new PayloadTooLargeError();
    },
  });
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const contentType = c.req.header('content-type');
    const upload = method === 'POST' && isMultipart(contentType) ? uploads.find((route) => route.path.test(c.req.path)) : undefined;
    if (upload) return limitUpload(c, next, upload);
    const declaredLength = Number(c.req.header('content-length') ?? '0');
    if (declaredLength > MAX_BODY_BYTES) throw new PayloadTooLargeError();
    if (contentType !== undefined && !isJsonMediaType(contentType)) throw new UnsupportedMediaTypeError();
    if (contentType === undefined && (declaredLength > 0 || c.req.header('transfer-encoding'))) {
      throw new UnsupportedMediaTypeError();
    }
    // A body the runtime has read already (bin/request-body.ts), within the limit: Hono takes it as
    // the body's text rather than building a web Request to read it from.
    const raw = (c.env as { incoming?: { rawBody?: unknown } } | undefined)?.incoming?.rawBody;
    if (raw instanceof Buffer && raw.length <= MAX_BODY_BYTES) {
      // Decoded as Request.text() does: UTF-8, a leading byte-order mark dropped.
      (c.req.bodyCache as { text?: Promise<string> }).text ??= Promise.resolve(utf8.decode(raw));
      return next();
    }
    return limit(c, next);
  };
}
