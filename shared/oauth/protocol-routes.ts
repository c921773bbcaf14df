import { toFetchResponse } from 'fetch-to-node';
import { type Context, Hono } from 'hono';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../http/router.js';
import { TooManyRequestsError } from '../platform/errors.js';
import { addToWindow } from '../platform/windows.js';
import { registrationThrottleKey } from './entities.js';
import { nodeRequestOf } from './bridge.js';
import { providerFor } from './provider.js';
import { issuerOf, OAUTH_PATH, resourceMetadata } from './resources.js';

/*
 * The authorization server's own protocol routes, outside `/api` (docs/mcp-gateway.md): its
 * metadata (RFC 8414), each workspace's protected resource metadata (RFC 9728), and every
 * `/oauth/*` endpoint, answered by oidc-provider (a Koa app) through a Node request and response
 * made from the web one (fetch-to-node). The console's consent page (`/oauth/consent/*`) is not here.
 */

/** Registrations one address may make in an hour: a client registers once per machine, a flood is refused. */
const REGISTRATIONS_PER_HOUR = 20;

const WORKSPACE_METADATA = '/.well-known/oauth-protected-resource/api/workspaces/:id/mcp';

/** Refuses a registration past the address's hourly limit (429 with Retry-After). */
async function limitRegistrations(deps: Deps, address: string): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  const hour = Math.floor(nowMs / 3_600_000);
  const counted = await addToWindow(deps.table, registrationThrottleKey(address, hour), 1, (hour + 1) * 3600);
  if (counted > REGISTRATIONS_PER_HOUR) {
    const retryAfter = Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - nowMs) / 1000));
    throw new TooManyRequestsError(`too many client registrations from your address; try again in ${retryAfter} s`, retryAfter);
  }
}

/** The request as the provider reads it: the issuer's host and scheme, the body whole with its length. */
async function providerRequest(c: Context<AppEnv>, issuer: string): Promise<Request> {
  const raw = c.req.raw;
  const headers = new Headers(raw.headers);
  const origin = new URL(issuer);
  headers.set('host', origin.host);
  headers.set('x-forwarded-proto', origin.protocol.slice(0, -1));
  headers.delete('x-forwarded-host');
  const body = raw.method === 'GET' || raw.method === 'HEAD' ? undefined : await raw.arrayBuffer();
  if (body) headers.set('content-length', String(body.byteLength));
  return new Request(raw.url, { method: raw.method, headers, body });
}

/** Answers a request with oidc-provider. */
async function answerWithProvider(deps: Deps, c: Context<AppEnv>): Promise<Response> {
  const issuer = issuerOf(deps, c.req.url);
  const provider = await providerFor(deps, issuer);
  const { req, res } = nodeRequestOf(await providerRequest(c, issuer), issuer, c.get('clientAddress'));
  provider.callback()(req, res);
  return toFetchResponse(res);
}

/** The routes, mounted at the root of the API's app (which records the client's address on `/oauth/*`). */
export function oauthProtocolRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.get(WORKSPACE_METADATA, (c) => c.json(resourceMetadata(issuerOf(deps, c.req.url), c.req.param('id'))));
  app.get('/.well-known/oauth-authorization-server', (c) => answerWithProvider(deps, c));
  app.get('/.well-known/openid-configuration', (c) => answerWithProvider(deps, c));
  app.get(`${OAUTH_PATH}/authorize`, (c, next) => {
    // RFC 8707's resource is required: a token is always bound to one workspace's MCP endpoint.
    if (!c.req.query('resource')) {
      return c.json({ error: 'invalid_target', error_description: 'resource is required: the MCP endpoint the token is for' }, 400);
    }
    return next();
  });
  app.post(`${OAUTH_PATH}/register`, async (c, next) => {
    await limitRegistrations(deps, c.get('clientAddress') ?? 'unknown');
    return next();
  });
  app.all(`${OAUTH_PATH}/*`, (c) => answerWithProvider(deps, c));
  return app;
}
