import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';

/*
 * Signing in (docs/data-model.md): sessions, the throttles of logins, sign-ups and single sign-on
 * starts (fixed-window counters: platform/windows.ts), and the deployment's first sign-up.
 */

/** How a session began. */
export const SIGN_IN_METHODS = ['password', 'sso'] as const;

/** A signed-in session (`SESSION#<id>` / `SESSION`). Its TTL removes it on AWS once it has expired. */
const sessionEntity = tableEntity('session', {
  user_id: string(),
  org_id: string(),
  created_at: string(),
  expires_at: string(),
  ttl: number(),
  /** The user's session generation when it began (absent: 0): a password change moves the user's on, ending the others. */
  epoch: number().optional(),
  method: string().enum(...SIGN_IN_METHODS),
  /** A password session's: the user's `password_epoch` when it began (absent: 0; moved on when single sign-on becomes required). */
  password_epoch: number().optional(),
});

export type SessionItem = FormattedItem<typeof sessionEntity>;

export const sessionKey = (sessionId: string): Key => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' });

/** Moves a session on to the user's session generation `epoch`, if the session is still there. */
export function sessionEpochUpdate(sessionId: string, epoch: number) {
  const command = sessionEntity
    .build(UpdateItemCommand)
    .item({ ...sessionKey(sessionId), epoch })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** A session of before `method` was kept recorded as what it was read as, a password session, if it is still there (migration 006). */
export function passwordMethodUpdate(key: Key) {
  const command = sessionEntity
    .build(UpdateItemCommand)
    .item({ ...key, method: 'password' })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'method', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/** Failed logins of one account, from anywhere, in one window. */
export const loginThrottleKey = (email: string, window: number): Key => ({ pk: `THROTTLE#${email.toLowerCase()}`, sk: `LOGIN#${window}` });

/** Failed logins of one account from one client address, in one window. */
export const loginFromThrottleKey = (email: string, address: string, window: number): Key => ({
  pk: `THROTTLE#${email.toLowerCase()}`,
  sk: `LOGIN#${window}#${address}`,
});

/** The throttle partition of one client address (or IPv6 /64). */
const addressThrottle = (address: string) => `THROTTLE#ADDR#${address}`;

/** Failed logins from one client address, to any account, in one window. */
export const addressLoginThrottleKey = (address: string, window: number): Key => ({ pk: addressThrottle(address), sk: `LOGIN#${window}` });

/** Sign-ups from one client address in one hour. */
export const signupThrottleKey = (address: string, hour: number): Key => ({ pk: addressThrottle(address), sk: `SIGNUP#${hour}` });

/** Single sign-on starts not completed from one client address in one window (auth/sso/flow.ts). */
export const ssoStartThrottleKey = (address: string, window: number): Key => ({ pk: addressThrottle(address), sk: `SSO#${window}` });

/** Claimed by the deployment's first sign-up (attribute claimed_at): under `SIGNUP_MODE=invite` only that one is open. */
export const firstSignupKey = (): Key => ({ pk: 'DEPLOYMENT', sk: 'FIRST_SIGNUP' });

// --- Access patterns ---

/** The sessions kept before their `method` was (migration 006). */
export const sessionsWithoutMethod = () =>
  conditionOf(sessionEntity, {
    and: [
      { attr: 'pk', beginsWith: 'SESSION#' },
      { attr: 'method', exists: false },
    ],
  });
