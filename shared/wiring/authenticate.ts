import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { readSession } from '../auth/sessions.js';
import { SESSION_COOKIE, type Principal } from '../auth/tokens.js';
import { findKey, recordKeyUse } from '../consumers/keys.js';
import type { Deps } from '../deps.js';
import { bearerToken } from '../http/middleware.js';
import type { AppEnv } from '../http/router.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../platform/errors.js';
import { keyMatchers, publicPathMatcher } from './route-table.js';
import { InvalidTokenError, tokenPrincipal } from '../oauth/access.js';
import { MCP_SCOPE, resourceMetadataUrl } from '../oauth/resources.js';
import { publicOriginOf } from '../http/public-origin.js';

/*
 * Who is calling: a session cookie or a consumer's key, checked against the route table (its
 * public routes, each key type's routes), and the request rates they count against.
 */

/** Routes reachable without a session (the table's public routes, the OpenAPI document among them); logout in both its forms. */
const PUBLIC_PATH = publicPathMatcher();

function isPublicPath(path: string): boolean {
  return PUBLIC_PATH(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
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

/** A workspace's MCP endpoint: a coding-agent key, or a person's OAuth access token (the MCP gateway, shared/oauth). */
const MCP_PATH = /^\/api\/workspaces\/([^/]+)\/mcp$/;

/** Consumer keys begin so (consumers/keys.ts); any other Bearer at the MCP endpoint is an access token. */
const API_KEY_PREFIX = 'wap_';

/**
 * A person at a workspace's MCP endpoint: their access token, checked (oauth/access.ts); without
 * one, or with one refused, 401 with the challenge that leads an MCP client to sign in (RFC 9728).
 */
async function personAtMcp(c: Context<AppEnv>, deps: Deps, token: string | undefined, encodedWorkspace: string): Promise<Principal> {
  let workspaceId: string;
  try {
    workspaceId = decodeURIComponent(encodedWorkspace);
  } catch {
    throw new NotFoundError(`workspace ${encodedWorkspace} not found`);
  }
  const metadata = resourceMetadataUrl(publicOriginOf(deps.config.publicBaseUrl, c.req.raw), workspaceId);
  const challenge = `Bearer resource_metadata="${metadata}", scope="${MCP_SCOPE}"`;
  if (!token) {
    c.header('WWW-Authenticate', challenge);
    throw new UnauthorizedError('sign in: this MCP endpoint takes an OAuth access token (its metadata says where) or a coding-agent key');
  }
  try {
    return await tokenPrincipal(deps, token, workspaceId);
  } catch (error) {
    if (!(error instanceof InvalidTokenError)) throw error;
    c.header('WWW-Authenticate', `${challenge}, error="invalid_token", error_description="${error.message}"`);
    throw new UnauthorizedError(error.message);
  }
}

/** Requires a valid session (or a consumer's Bearer key) on every `/api` route that is not public; default deny. */
export function authenticate(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isPublicPath(c.req.path)) return next();
    const authorization = c.req.header('authorization');
    const mcp = MCP_PATH.exec(c.req.path);
    const presented = authorization === undefined ? undefined : bearerToken(authorization);
    if (mcp?.[1] && !presented?.startsWith(API_KEY_PREFIX)) {
      c.set('principal', await personAtMcp(c, deps, presented ?? undefined, mcp[1]));
      return next();
    }
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
