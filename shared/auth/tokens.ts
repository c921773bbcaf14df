import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../platform/clock.js';
import { UnauthorizedError } from '../platform/errors.js';

export const SESSION_COOKIE = 'service_session';
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = 'workspace-agent-proxy';
const AUDIENCE = 'workspace-agent-proxy:api';
const ALGORITHM = 'HS256';

export type OrgRole = 'admin' | 'member';

/** Who is calling: a user of a live session (role and name as stored now), or a consumer's API key. */
export interface Principal {
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: OrgRole;
  expiresAt: Date;
  /** The session a cookie names (what logout revokes); absent for API keys. */
  sessionId?: string;
  /** Set when the caller is a consumer's API key rather than a user's session. */
  apiKey?: { consumerId: string; workspaceId: string; type: 'api' | 'messaging' | 'coding-agent' };
  /**
   * Set when the caller is a person through an MCP client's OAuth access token (the MCP gateway,
   * shared/oauth): the client, the grant the token came from, and the one workspace it is for.
   */
  oauth?: { clientId: string; clientName: string; verified: boolean; grantId: string; workspaceId: string };
}

export function sessionKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** What a session token is made from. */
export interface SessionUser {
  id: string;
  org_id: string;
  email: string;
  name: string;
  org_role: OrgRole;
  /** The user's session generation (`UserItem.session_epoch`): a session of an older one no longer works. */
  session_epoch?: number;
}

/** The claims of a verified session token. The role in it is informative: the stored user's role decides. */
export interface SessionClaims {
  userId: string;
  orgId: string;
  sessionId: string;
  expiresAt: Date;
}

export async function signSessionToken(
  key: Uint8Array,
  clock: Clock,
  user: SessionUser,
  sessionId: string,
  expiresAt: number,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  const token = await new SignJWT({ email: user.email, name: user.name, role: user.org_role, org: user.org_id, sid: sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/**
 * Tokens this process has verified, per key: the same string verifies the same way again, so only
 * its expiry is checked again. Verifying costs about 5% of a read route's CPU (WebCrypto's HMAC
 * behind jose); a browser sends the same cookie on every request. Bounded, and only verified
 * tokens enter, so forged ones cannot grow it.
 */
const verified = new WeakMap<Uint8Array, LRUCache<string, SessionClaims>>();

function verifiedWith(key: Uint8Array): LRUCache<string, SessionClaims> {
  const known = verified.get(key);
  if (known) return known;
  const cache = new LRUCache<string, SessionClaims>({ max: 10_000 });
  verified.set(key, cache);
  return cache;
}

/**
 * Verifies a session token: algorithm pinned to HS256 (so `none` and key-confusion tokens fail),
 * issuer, audience and expiry checked against the injected clock. A valid token is not yet a
 * session: its `sid` must still be in the store (`resolveSession`).
 */
export async function verifySessionToken(key: Uint8Array, clock: Clock, token: string): Promise<SessionClaims> {
  const cache = verifiedWith(key);
  const known = cache.get(token);
  if (known) {
    if (known.expiresAt.getTime() > clock.now().getTime()) return known;
    cache.delete(token);
    throw new UnauthorizedError('invalid or expired session');
  }
  const claims = await verifyOnce(key, clock, token);
  cache.set(token, claims);
  return claims;
}

async function verifyOnce(key: Uint8Array, clock: Clock, token: string): Promise<SessionClaims> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: clock.now(),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const { sub, org, sid, exp } = payload;
    // A token without a session id predates revocable sessions: its holder signs in again.
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') {
      throw new UnauthorizedError('invalid session');
    }
    return { userId: sub, orgId: org, sessionId: sid, expiresAt: new Date(exp * 1000) };
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError('invalid or expired session', { cause: error });
    throw error;
  }
}
