import type { Principal, sessionSignIn } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { isActive, userKey, type UserItem } from '../org/index.js';

/*
 * Whom a grant is for, as the provider keeps it (`accountId`, the token's subject):
 * `<org>/<user>/<how they signed in>`. A grant given in a password session carries the user's
 * `password_epoch` then (`p<epoch>`): once the organisation requires single sign-on, the epoch
 * moves on and its tokens stop working, as the password sessions do. Single sign-on's is `s`.
 */

export interface GrantAccount {
  orgId: string;
  userId: string;
  /** The user's password epoch the grant was given in; undefined for a single sign-on one. */
  passwordEpoch: number | undefined;
}

/** The subject of a grant the person gives in the session that signed them in (`sessionSignIn`). */
export function accountIdOf(principal: Principal, signIn: Awaited<ReturnType<typeof sessionSignIn>>): string {
  const method = signIn?.method === 'sso' ? 's' : `p${signIn?.passwordEpoch ?? 0}`;
  return `${principal.orgId}/${principal.userId}/${method}`;
}

export function accountOf(accountId: string): GrantAccount | undefined {
  const [orgId, userId, method] = accountId.split('/');
  if (!orgId || !userId || !method) return undefined;
  if (method === 's') return { orgId, userId, passwordEpoch: undefined };
  const epoch = Number(method.slice(1));
  return method.startsWith('p') && Number.isInteger(epoch) ? { orgId, userId, passwordEpoch: epoch } : undefined;
}

/** Whether a grant's person may still use it: an active user of the organisation, in the sign-in generation the grant was given in. */
export function accountIsLive(account: GrantAccount, user: UserItem | undefined): user is UserItem {
  return !!user && isActive(user) && (account.passwordEpoch === undefined || account.passwordEpoch === (user.password_epoch ?? 0));
}

/**
 * The provider's account lookup, made when a code or a refresh token is exchanged: a person no
 * longer active (or whose grant's sign-in no longer counts) gets no new tokens (invalid_grant).
 */
export async function findLiveAccount(deps: Deps, accountId: string) {
  const account = accountOf(accountId);
  if (!account) return undefined;
  const user = await deps.table.get<UserItem>(userKey(account.orgId, account.userId), true);
  return accountIsLive(account, user) ? { accountId, claims: async () => ({ sub: accountId }) } : undefined;
}
