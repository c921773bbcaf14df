import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { userKey, type UserItem } from '../org/index.js';
import { tokenHash } from '../platform/compare.js';
import { accountIsLive, accountOf } from './accounts.js';
import { providerEpochSeconds } from './adapter.js';
import { clientRecordId, recordClientUse } from './clients.js';
import { connectedClientKey, oauthObjectKey, type ConnectedClientItem, type OAuthObjectItem } from './entities.js';
import { workspaceOfBoundResource } from './resources.js';

/*
 * The MCP endpoint's check of a person's access token (docs/mcp-gateway.md): the token as the
 * authorization server stored it, the person still active (and, for a grant given in a password
 * session, their organisation not requiring single sign-on since), the client still connected.
 * Cached as sessions are (auth/session-cache.ts): a revocation holds at once in the process that
 * made it, within the cache's bound in the others.
 */

/** Why a token is refused, for `WWW-Authenticate: Bearer error="invalid_token"`. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

interface StoredToken {
  accountId?: string;
  clientId?: string;
  grantId?: string;
  aud?: string | string[];
  exp?: number;
  kind?: string;
}

async function readToken(deps: Deps, token: string): Promise<StoredToken | undefined> {
  const key = oauthObjectKey('AccessToken', tokenHash(token));
  const item = await deps.table.get<OAuthObjectItem>(key, true);
  if (!item) return undefined;
  return JSON.parse(await deps.secrets.open(item.sealed, `oauth-object:${key.pk}`)) as StoredToken;
}

/** What the session cache keeps a token's principal under. */
export const tokenCacheKey = (token: string) => `oauth:${tokenHash(token)}`;

/** The principal a stored token stands for, or null: read once, then cached with the sessions. */
async function principalOfToken(deps: Deps, token: string): Promise<{ principal: Principal | null; userId: string }> {
  const stored = await readToken(deps, token);
  const account = stored?.accountId ? accountOf(stored.accountId) : undefined;
  const resource = Array.isArray(stored?.aud) ? stored.aud[0] : stored?.aud;
  const workspaceId = resource ? workspaceOfBoundResource(resource) : undefined;
  if (!stored || !account || !workspaceId || !stored.clientId || !stored.grantId || !stored.exp) return { principal: null, userId: '' };
  const clientKey = connectedClientKey(account.orgId, account.userId, clientRecordId(account.userId, stored.clientId));
  const ofUser = userKey(account.orgId, account.userId);
  const found = await deps.table.batchGet<Record<string, unknown>>([ofUser, clientKey]);
  const user = found.find((item) => item.sk === ofUser.sk) as UserItem | undefined;
  const client = found.find((item) => item.sk === clientKey.sk) as ConnectedClientItem | undefined;
  if (!accountIsLive(account, user) || !client?.grant_ids.includes(stored.grantId)) return { principal: null, userId: account.userId };
  recordClientUse(deps, client);
  const oauth = { clientId: stored.clientId, clientName: client.name, verified: client.verified, grantId: stored.grantId, workspaceId };
  const principal: Principal = {
    userId: user.id,
    orgId: account.orgId,
    email: user.email,
    name: user.name,
    role: user.org_role,
    expiresAt: new Date(stored.exp * 1000),
    oauth,
  };
  return { principal, userId: user.id };
}

/**
 * The person an access token presented at a workspace's MCP endpoint stands for. A token unknown,
 * expired, revoked, of a person no longer active, or bound to another workspace's endpoint is
 * refused (`InvalidTokenError`, a 401).
 */
export async function tokenPrincipal(deps: Deps, token: string, workspaceId: string): Promise<Principal> {
  const { principal } = await deps.sessions.read(tokenCacheKey(token), '', () => principalOfToken(deps, token));
  // The provider's clock, on which the token's expiry was set (oauth/adapter.ts).
  if (!principal || principal.expiresAt.getTime() <= providerEpochSeconds() * 1000) {
    throw new InvalidTokenError('the access token is invalid, expired or revoked');
  }
  if (principal.oauth?.workspaceId !== workspaceId) throw new InvalidTokenError("the access token is for another workspace's MCP endpoint");
  return principal;
}
