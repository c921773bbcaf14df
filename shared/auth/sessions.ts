import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import { UnauthorizedError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { passwordEpochUpdate, userKey, isActive, type UserItem } from '../org/index.js';
import { type SessionItem, sessionEpochUpdate, sessionKey, type SIGN_IN_METHODS } from './entities.js';
import type { CachedSession } from './session-cache.js';
import {
  SESSION_LIFETIME_SECONDS,
  signSessionToken,
  verifySessionToken,
  type Principal,
  type SessionClaims,
  type SessionUser,
} from './tokens.js';

export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** Starts a session for a user who just signed in or up: the session item, then the token naming it. */
export async function createSession(
  deps: Deps,
  user: SessionUser & { password_epoch?: number },
  method: SignInMethod = 'password',
): Promise<{ token: string; expiresAt: Date }> {
  const sessionId = randomBytes(24).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = Math.floor(now.getTime() / 1000) + SESSION_LIFETIME_SECONDS;
  const item: SessionItem = {
    ...sessionKey(sessionId),
    user_id: user.id,
    org_id: user.org_id,
    created_at: now.toISOString(),
    expires_at: new Date(expiresAt * 1000).toISOString(),
    ttl: expiresAt,
    ...(user.session_epoch ? { epoch: user.session_epoch } : {}),
    method,
    ...(method === 'password' && user.password_epoch ? { password_epoch: user.password_epoch } : {}),
  };
  await deps.table.put({ ...item });
  return signSessionToken(deps.sessionKey, deps.clock, user, sessionId, expiresAt);
}

/**
 * The principal of verified token claims, or null when the session was revoked or its user is gone
 * (or moved to another organisation, or deactivated by the identity provider, or the user's sessions
 * were ended by a password change: `session_epoch`; or it is a password session and their organisation
 * has since required single sign-on: `password_epoch`). The role, name and email are the stored user's, not the
 * token's. One BatchGetItem, cached for `AUTH_CACHE_MS` (auth/session-cache.ts).
 */
async function resolveSession(deps: Deps, claims: SessionClaims): Promise<Principal | null> {
  const { principal } = await deps.sessions.read(claims.sessionId, claims.userId, () => readSessionItems(deps, claims));
  return principal;
}

async function readSessionItems(deps: Deps, claims: SessionClaims): Promise<CachedSession> {
  const ofSession = sessionKey(claims.sessionId);
  const found = await deps.table.batchGet<Record<string, unknown>>([ofSession, userKey(claims.orgId, claims.userId)]);
  const session = found.find((item) => item.sk === ofSession.sk) as SessionItem | undefined;
  const user = found.find((item) => item.sk !== ofSession.sk) as UserItem | undefined;
  const live =
    session &&
    user &&
    isActive(user) &&
    session.user_id === claims.userId &&
    session.org_id === claims.orgId &&
    (session.epoch ?? 0) === (user.session_epoch ?? 0) &&
    (session.method === 'sso' || (session.password_epoch ?? 0) === (user.password_epoch ?? 0));
  const principal: Principal | null = live
    ? {
        userId: user.id,
        orgId: claims.orgId,
        email: user.email,
        name: user.name,
        role: user.org_role,
        expiresAt: claims.expiresAt,
        sessionId: claims.sessionId,
      }
    : null;
  return { principal, userId: claims.userId };
}

/** How a session began (a password, with the user's password epoch then, or single sign-on), if it is still there. */
export async function sessionSignIn(
  deps: Deps,
  sessionId: string,
): Promise<{ method: 'password' | 'sso'; passwordEpoch: number } | undefined> {
  const session = await deps.table.get<SessionItem>(sessionKey(sessionId), true);
  return session ? { method: session.method, passwordEpoch: session.password_epoch ?? 0 } : undefined;
}

/** Logout: the session item goes, so its cookie stops working everywhere (here at once). */
export async function revokeSession(deps: Deps, sessionId: string): Promise<void> {
  await deps.table.delete(sessionKey(sessionId));
  deps.sessions.forgetSession(sessionId);
}

/** After a password change: the session that made it goes on in the user's new generation (the others end). */
export async function carrySession(deps: Deps, sessionId: string, epoch: number): Promise<void> {
  const { key, input } = sessionEpochUpdate(sessionId, epoch);
  await unlessConditionFailed(deps.table.update(key, input), undefined);
  deps.sessions.forgetSession(sessionId);
}

/**
 * Ends the password sessions of these users of an organisation (it now requires single sign-on):
 * their `password_epoch` moves on, so a session begun with a password before stops working, here
 * at once and elsewhere within the session cache's life; single sign-on sessions go on.
 */
export async function endPasswordSessions(deps: Deps, orgId: string, userIds: string[]): Promise<void> {
  for (let start = 0; start < userIds.length; start += 25) {
    await Promise.all(
      userIds.slice(start, start + 25).map(async (userId) => {
        const { key, input } = passwordEpochUpdate(orgId, userId);
        await unlessConditionFailed(deps.table.update(key, input), undefined);
        deps.sessions.forgetUser(userId);
      }),
    );
  }
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
