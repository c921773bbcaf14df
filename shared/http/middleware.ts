import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE, verifySessionToken, type Principal, type SessionClaims } from '../auth/tokens.js';
import { resolveSession } from '../auth/sessions.js';
import type { Deps } from '../deps.js';
import { findKey, recordKeyUse } from '../consumers/keys.js';
import { ForbiddenError, NotFoundError, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError } from '../platform/errors.js';
import { keyMatchers, publicPathMatcher } from './route-table.js';
import type { AppEnv } from './router.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const utf8 = new TextDecoder();

/** Routes reachable without a session (the table's public routes, the OpenAPI document among them); logout in both its forms. */
const PUBLIC_PATH = publicPathMatcher();

function isPublicPath(path: string): boolean {
  return PUBLIC_PATH(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
}

/**
 * The principal of the request's session cookie, or null when there is none, it does not verify,
 * or its session was revoked or its user removed. Role and name are the stored user's.
 */
export async function readSession(deps: Deps, cookie: string | undefined): Promise<Principal | null> {
  if (!cookie) return null;
  let claims: SessionClaims;
  try {
    claims = await verifySessionToken(deps.sessionKey, deps.clock, cookie);
  } catch (error) {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  }
  return resolveSession(deps, claims);
}

/** The routes a consumer key may use (the table's, for its type): its workspace's query and conversations, its MCP endpoint, or its messages. */
const KEY_MATCHERS = keyMatchers();

/** Whose id the first parameter of a key's route is: an api or coding-agent key's workspace, a messaging key's consumer. */
const KEY_SCOPE = { api: 'workspace', 'coding-agent': 'workspace', messaging: 'consumer' } as const;

const KEY_USE = {
  api: "its workspace's query and conversation endpoints",
  'coding-agent': "its workspace's MCP endpoint",
  messaging: "its consumer's messages endpoint",
};

/**
 * A consumer's API key: valid only on its type's routes, and only for its own workspace (another is
 * 404). With the principal, the recording of the key's use (`recordKeyUse`), which runs alongside
 * the request.
 */
async function keyPrincipal(deps: Deps, presented: string, path: string): Promise<{ principal: Principal; recording: Promise<void> }> {
  const record = await findKey(deps, presented);
  if (!record) throw new UnauthorizedError('invalid or revoked API key');
  const scope = KEY_SCOPE[record.type];
  const match = KEY_MATCHERS[record.type].map((matcher) => matcher.exec(path)).find((found) => found !== null);
  if (!match) throw new ForbiddenError(`this ${record.type} key can only use ${KEY_USE[record.type]}`);
  let target: string;
  try {
    target = decodeURIComponent(match[1] ?? '');
  } catch {
    throw new NotFoundError(`${scope} not found`); // not percent-decodable: not an id of this key
  }
  const own = scope === 'workspace' ? record.workspace_id : record.consumer_id;
  if (target !== own) throw new NotFoundError(`${scope} ${target} not found`);
  const recording = recordKeyUse(deps, record);
  const principal: Principal = {
    userId: record.consumer_id,
    orgId: record.org_id,
    email: '',
    name: `${record.type} consumer ${record.consumer_id}`,
    role: 'member',
    expiresAt: new Date(8.64e15),
    apiKey: { consumerId: record.consumer_id, workspaceId: record.workspace_id, type: record.type },
  };
  return { principal, recording };
}

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/** Requires a valid session (or a consumer's Bearer key) on every `/api` route that is not public; default deny. */
export function authenticate(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isPublicPath(c.req.path)) return next();
    const authorization = c.req.header('authorization');
    if (authorization !== undefined) {
      const key = bearerToken(authorization);
      if (!key) throw new UnauthorizedError('the Authorization header must be "Bearer <API key>"');
      const { principal, recording } = await keyPrincipal(deps, key, c.req.path);
      c.set('principal', principal);
      try {
        return await next();
      } finally {
        await recording;
      }
    }
    const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
    if (!principal) throw new UnauthorizedError();
    c.set('principal', principal);
    return next();
  };
}

/**
 * Every authenticated request counts against its organisation's rate, and a consumer key's also
 * against its own (`platform/request-rate.ts`): past either, 429 with `Retry-After`. The count's
 * add to the store, when this request makes one, runs alongside it and is waited for before the
 * request ends.
 */
export function limitRequestRate(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal') as Principal | undefined;
    if (!principal) return next();
    const { requestRate, config } = deps;
    const limit = config.orgRequestRateLimitPerMinute;
    const adds = [requestRate.admit(`org:${principal.orgId}`, limit, `too many requests: this organisation may make ${limit} a minute`)];
    if (principal.apiKey) {
      const keyLimit = config.keyRequestRateLimitPerMinute;
      adds.push(
        requestRate.admit(`key:${principal.apiKey.consumerId}`, keyLimit, `too many requests: this key may make ${keyLimit} a minute`),
      );
    }
    try {
      await next();
    } finally {
      await Promise.all(adds);
    }
  };
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/**
 * Bodies: a POST/PUT/PATCH whose Content-Type is not JSON is 415 (this also blocks cross-site form
 * posts), a body over 1 MiB is 413 whether or not it declares its length. A body the local runtime
 * has read already (`incoming.rawBody`) is handed to Hono as it is.
 */
export function limitBodies(): MiddlewareHandler<AppEnv> {
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
