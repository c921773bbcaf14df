import { createHmac } from 'node:crypto';
import type { Client, Configuration, Interaction, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { Deps } from '../deps.js';
import { createGuardedFetch, type GuardedFetch } from '../platform/url-policy.js';
import { tokenCacheKey } from './access.js';
import { findLiveAccount } from './accounts.js';
import { tableAdapter } from './adapter.js';
import { ACCESS_TOKEN_SECONDS, CONSENT_PATH, OAUTH_PATH, workspaceOfResource } from './resources.js';

/*
 * The MCP gateway's authorization server (docs/mcp-gateway.md): oidc-provider, the certified
 * OpenID provider library, configured as an OAuth 2.1 server for MCP clients: authorization code
 * with PKCE (S256 only), exact redirect URIs, `iss` in the authorization response, resource
 * indicators bound into opaque access tokens, rotating refresh tokens, revocation, dynamic client
 * registration and Client ID Metadata Documents (fetched through the address policy). Signing in
 * and consent are the console's (`/oauth/consent/:uid`, interactions.ts).
 */

const DAY = 86_400;

/** What the configuration's hooks read of the provider's request context. */
interface ProviderContext {
  oidc: { result?: { consent?: { grantId?: string } }; provider: Provider };
}

/** Lifetimes, in seconds: short access tokens, a refresh token that is rotated at each use and lapses after 30 days unused. */
const TTL = {
  AccessToken: ACCESS_TOKEN_SECONDS,
  AuthorizationCode: 60,
  RefreshToken: 30 * DAY,
  Grant: 365 * DAY,
  Interaction: 10 * 60,
  Session: 10 * 60,
};

/** A page for what cannot go back to the client (an unknown client, a redirect URI not registered): no script, no outside resource. */
function renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): void {
  const escaped = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  ctx.type = 'html';
  ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in refused</title><h1>Sign-in refused</h1><p>${escaped(out.error)}: ${escaped(out.error_description ?? '')}</p><p>Close this page and connect again from your MCP client.</p>`;
}

/** Cookie keys of the provider's own short cookies (the interaction's), derived from the session key. */
const cookieKey = (deps: Deps) => createHmac('sha256', deps.sessionKey).update('oauth-provider-cookies').digest('base64url');

/** The guarded fetch of each address policy (one per process: its connection pools are kept). */
const guardedFetches = new Map<boolean, GuardedFetch>();

/**
 * How the provider fetches a Client ID Metadata Document: through the address policy (no private,
 * loopback or link-local address, checked again at each redirect and at connect), the answer cut
 * past 64 KiB, within the provider's own time bound (2.5 s, its signal) and 5 KB document limit.
 */
export function clientMetadataFetch(allowPrivate: boolean) {
  const fetcher = guardedFetches.get(allowPrivate) ?? createGuardedFetch(allowPrivate);
  guardedFetches.set(allowPrivate, fetcher);
  return (url: URL | string, options: RequestInit) => fetcher.oauthFetch(url, options);
}

async function configurationOf(deps: Deps, issuer: string): Promise<Configuration> {
  const { errors } = await import('oidc-provider');
  const { generateKeyPair, exportJWK } = await import('jose');
  // Signs only an id token, which a client gets only if it asks for `openid`: the MCP flow does not.
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    adapter: tableAdapter(deps, () => new errors.InvalidGrant('authorization code already used')),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] as never },
    // The interaction's cookie reaches the consent page's API too (/api/oauth/interactions/:uid), which
    // checks it names the authorization (interactions.ts); the resume cookie keeps its own path.
    cookies: { keys: [cookieKey(deps)], short: { httpOnly: true, sameSite: 'lax', path: '/' } },
    clientDefaults: {
      grant_types: ['authorization_code'],
      id_token_signed_response_alg: 'ES256',
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    features: {
      devInteractions: { enabled: false },
      // Neither is offered to MCP clients: no pushed requests, no proof-of-possession tokens (the MCP endpoint reads Bearer).
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' } as never,
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!workspaceOfResource(issuer, resource)) throw new errors.InvalidTarget(`not a workspace's MCP endpoint of ${issuer}`);
          return { scope: 'mcp', audience: resource, accessTokenTTL: ACCESS_TOKEN_SECONDS, accessTokenFormat: 'opaque' };
        },
      },
    },
    routes: {
      authorization: `${OAUTH_PATH}/authorize`,
      token: `${OAUTH_PATH}/token`,
      registration: `${OAUTH_PATH}/register`,
      revocation: `${OAUTH_PATH}/revoke`,
      jwks: `${OAUTH_PATH}/jwks`,
      userinfo: `${OAUTH_PATH}/userinfo`,
      end_session: `${OAUTH_PATH}/session/end`,
    },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: Interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    scopes: ['mcp'],
    responseTypes: ['code'],
    // Every authorization asks the person: only the grant their consent just made counts, never one of before.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    expiresWithSession: () => false,
    issueRefreshToken: async (_ctx: unknown, client: Client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    findAccount: (_ctx: unknown, sub: string) => findLiveAccount(deps, sub),
    ttl: TTL,
    fetch: clientMetadataFetch(deps.config.mcpAllowPrivateUrls),
    renderError,
    clientBasedCORS: () => true,
  };
}

const providers = new Map<string, Promise<Provider>>();

/** The provider of an issuer (the service's public origin), made once per process. */
export function providerFor(deps: Deps, issuer: string): Promise<Provider> {
  let made = providers.get(issuer);
  if (!made) {
    made = (async () => {
      const { default: OidcProvider } = await import('oidc-provider');
      const provider = new OidcProvider(issuer, await configurationOf(deps, issuer));
      provider.proxy = true;
      // A redirect URI matches exactly, also a loopback one of a native client (RFC 8252 lets the port vary; MCP clients register theirs).
      provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(this: { redirectUris: string[] }, value: string) {
        return this.redirectUris.includes(value);
      };
      provider.on('server_error', (_ctx, error) => deps.logger.error('authorization server error', { error }));
      // A grant revoked here (a refresh token revoked, RFC 7009; a code replayed): its tokens stop in this process at once.
      provider.on('grant.revoked', (_ctx, grantId) => deps.sessions.forgetGrants([String(grantId)]));
      // An access token revoked alone: the token check's cache of it goes (oauth/access.ts keys it by the token's hash).
      provider.on('access_token.destroyed', (token) => deps.sessions.forgetSession(tokenCacheKey(String((token as { jti?: string }).jti))));
      return provider;
    })();
    made.catch(() => providers.delete(issuer));
    providers.set(issuer, made);
  }
  return made;
}
