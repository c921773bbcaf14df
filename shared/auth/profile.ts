import type { Deps } from '../deps.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../platform/errors.js';
import { emailKey, renameUserUpdate, userKey, type User, replacePassword, toUser, type EmailItem, type UserItem } from '../org/index.js';
import { onConditionFailed } from '../platform/table.js';
import { logIn } from './accounts.js';
import type { ChangePasswordInput } from './schemas.js';
import { carrySession } from './sessions.js';
import type { Principal } from './tokens.js';

/*
 * A person's own account (`/api/me`): their display name and their password. What an admin may
 * change of others (role, password, removal) is `org/users.ts`.
 */

const userNotFound = (userId: string) => new NotFoundError(`user ${userId} not found`);

/** The login record of a signed-in user, if it is still theirs. */
async function loginRecordOf(deps: Deps, principal: Principal): Promise<EmailItem | undefined> {
  const record = await deps.table.get<EmailItem>(emailKey(principal.email), true);
  return record?.user_id === principal.userId ? record : undefined;
}

/** `GET /api/me`: the signed-in user, and whether they have a password (a user single sign-on made has none). */
export async function readProfile(deps: Deps, principal: Principal): Promise<{ user: User; has_password: boolean }> {
  const [user, record] = await Promise.all([
    deps.table.get<UserItem>(userKey(principal.orgId, principal.userId), true),
    loginRecordOf(deps, principal),
  ]);
  if (!user) throw userNotFound(principal.userId);
  return { user: toUser(user), has_password: Boolean(record?.password_hash) };
}

/** `PUT /api/me`: the user's display name, shown from their next request on (sessions read the stored name). */
export async function renameSelf(deps: Deps, principal: Principal, name: string): Promise<User> {
  const { key, input } = renameUserUpdate(principal.orgId, principal.userId, name, deps.clock.now().toISOString());
  const user = await onConditionFailed(deps.table.update<UserItem>(key, input), () => userNotFound(principal.userId));
  deps.sessions.forgetUser(principal.userId);
  return toUser(user);
}

const SIGNS_IN_WITH_SSO = 'you sign in with single sign-on: your password is kept by your identity provider, not here';

/**
 * `POST /api/me/password`. The current password is checked as a sign-in checks it, through the same
 * per-account and per-address counters (so this is no way around the login limits): a wrong one is
 * 400 on `current_password`, too many are 429. Then every other session of the user ends (a new
 * generation); the one that asked is carried into it, so this browser stays signed in.
 */
export async function changeOwnPassword(deps: Deps, principal: Principal, input: ChangePasswordInput, address: string): Promise<void> {
  const record = await loginRecordOf(deps, principal);
  if (!record) throw userNotFound(principal.userId);
  if (!record.password_hash) {
    throw new ValidationError(SIGNS_IN_WITH_SSO, [
      { path: 'current_password', message: 'you have no password here: you sign in with single sign-on' },
    ]);
  }
  const user = await logIn(deps, principal.email, input.current_password, address).catch((error: unknown) => {
    if (error instanceof UnauthorizedError) {
      throw new ValidationError('your current password is not correct', [
        { path: 'current_password', message: 'is not your current password' },
      ]);
    }
    throw error;
  });
  const updated = await replacePassword(deps, principal.orgId, user, await deps.passwords.hash(input.new_password));
  if (principal.sessionId) await carrySession(deps, principal.sessionId, updated.session_epoch ?? 0);
}
