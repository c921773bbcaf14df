import { putNew } from '../platform/updates.js';
import type { Deps } from '../deps.js';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../platform/errors.js';
import { newId, slugify } from '../platform/ids.js';
import { addToWindow } from '../platform/windows.js';
import type { Key } from '../platform/table.js';
import { claimUniqueId } from '../platform/unique.js';
import {
  emailKey,
  organisationKey,
  orgSlugClaimKey,
  userKey,
  toOrganisation,
  type OrganisationItem,
  teamKey,
  teamNameKey,
  type Organisation,
  type User,
  assertEmailFree,
  DEACTIVATED,
  isActive,
  toUser,
  writeUser,
  type EmailItem,
  type UserItem,
} from '../org/index.js';
import { addressLoginThrottleKey, firstSignupKey, loginFromThrottleKey, loginThrottleKey, signupThrottleKey } from './entities.js';
import type { SignupInput } from './schemas.js';

const DEFAULT_TEAM_NAME = 'General';

/** Sign-ups allowed from one client address per hour (each makes an organisation). */
export const SIGNUP_LIMIT_PER_HOUR = 10;

/**
 * Whether this sign-up may go ahead: at most `SIGNUP_LIMIT_PER_HOUR` per client address (counted
 * before anything else, atomically), then `SIGNUP_MODE`: `closed` refuses, `invite` lets only the
 * deployment's first sign-up through (a conditional put claims it). Returns how to give the first
 * sign-up claim back if the sign-up then fails.
 */
async function admitSignup(deps: Deps, address: string): Promise<{ release(): Promise<void> }> {
  const nowMs = deps.clock.now().getTime();
  const hour = Math.floor(nowMs / 3_600_000);
  const counted = await addToWindow(deps.table, signupThrottleKey(address, hour), 1, (hour + 1) * 3600);
  if (counted > SIGNUP_LIMIT_PER_HOUR) {
    throw new TooManyRequestsError(
      'too many sign-ups from your address; try again later',
      Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - nowMs) / 1000)),
    );
  }
  const mode = deps.config.signupMode;
  if (mode === 'closed') throw new ForbiddenError('sign-up is closed on this service: ask an admin of your organisation to add you');
  if (mode === 'open') return { release: async () => undefined };
  if (!(await putNew(deps.table, { ...firstSignupKey(), claimed_at: deps.clock.now().toISOString() }))) {
    throw new ForbiddenError('sign-up is by invitation on this service: an admin of your organisation adds you (POST /api/org/users)');
  }
  return { release: () => deps.table.delete(firstSignupKey()) };
}

/**
 * `GET /api/signup`: the sign-up mode, and whether nobody has signed up yet (the first sign-up's
 * fact, recorded in every mode), so a fresh install's console opens on sign-up rather than sign-in.
 */
export async function signupState(deps: Deps): Promise<{ mode: 'open' | 'invite' | 'closed'; first: boolean }> {
  const claimed = await deps.table.get(firstSignupKey());
  return { mode: deps.config.signupMode, first: !claimed };
}

/**
 * `POST /api/signup`: a new organisation (with its default team "General") and its first user,
 * an admin. The email claim inside `writeUser` is the commit point: if it loses a race, the
 * organisation's items are removed again and the caller gets 409.
 */
export async function signUp(deps: Deps, input: SignupInput, address: string): Promise<{ user: User; org: Organisation }> {
  const admitted = await admitSignup(deps, address);
  try {
    const result = await createOrganisationWithAdmin(deps, input);
    // Recorded in every mode, so switching to invite later does not open a "first" sign-up again.
    await putNew(deps.table, { ...firstSignupKey(), claimed_at: deps.clock.now().toISOString() });
    return result;
  } catch (error) {
    await admitted.release();
    throw error;
  }
}

async function createOrganisationWithAdmin(deps: Deps, input: SignupInput): Promise<{ user: User; org: Organisation }> {
  await assertEmailFree(deps, input.email);
  const now = deps.clock.now();
  const orgId = newId('org', now);
  const orgName = input.org_name ?? `${input.name}'s organisation`;
  const teamId = newId('team', now);
  const [passwordHash, slug] = await Promise.all([
    deps.passwords.hash(input.password),
    claimUniqueId(deps.table, 'org', slugify(orgName) || 'org', (candidate) => ({
      ...orgSlugClaimKey(candidate),
      org_id: orgId,
    })),
  ]);
  const org: OrganisationItem = {
    ...organisationKey(orgId),
    id: orgId,
    name: orgName,
    slug,
    default_team_id: teamId,
    created_at: now.toISOString(),
  };
  const createdAt = now.toISOString();
  await Promise.all([
    deps.table.put({ ...org }),
    deps.table.put({ ...teamKey(orgId, teamId), id: teamId, name: DEFAULT_TEAM_NAME, created_at: createdAt }),
    deps.table.put({ ...teamNameKey(orgId, DEFAULT_TEAM_NAME), team_id: teamId, name: DEFAULT_TEAM_NAME, created_at: createdAt }),
  ]);
  try {
    const user = await writeUser(deps, orgId, { name: input.name, email: input.email, org_role: 'admin', passwordHash });
    return { user: toUser(user), org: toOrganisation(org) };
  } catch (error) {
    await Promise.all([
      deps.table.delete(organisationKey(orgId)),
      deps.table.delete(teamKey(orgId, teamId)),
      deps.table.delete(teamNameKey(orgId, DEFAULT_TEAM_NAME)),
      deps.table.delete(orgSlugClaimKey(slug)),
    ]);
    throw error;
  }
}

/** Failed logins allowed in one window: per account from one address, per account, per address. */
export const LOGIN_LIMITS = { accountFromAddress: 5, account: 50, address: 50 } as const;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
const INVALID_LOGIN = 'invalid email or password';

/**
 * `POST /api/auth/login`. Unknown email and wrong password take the same path: one password
 * verification (against a dummy hash for an unknown email), the same 401.
 *
 * Every attempt is counted before its password is checked, by atomic ADDs on three counters of a
 * fixed window (kept in the table, so the limits hold across Lambda containers): this account from
 * this address, this account from anywhere, and this address to any account. Parallel guesses
 * therefore cannot all pass a count read before any was raised. Past a limit the answer is 429
 * without hashing. A success takes its own count back, so only failures add up. The per-address
 * pair is what a guesser elsewhere fills: the owner, from their own address, still signs in (up to
 * the much higher per-account limit, which bounds guessing from many addresses).
 */
export async function logIn(deps: Deps, email: string, password: string, address: string): Promise<UserItem> {
  const nowMs = deps.clock.now().getTime();
  const window = Math.floor(nowMs / 1000 / LOGIN_WINDOW_SECONDS);
  const windowEnds = (window + 1) * LOGIN_WINDOW_SECONDS;
  const counters = [
    { key: loginFromThrottleKey(email, address, window), limit: LOGIN_LIMITS.accountFromAddress, what: 'this account from your address' },
    { key: loginThrottleKey(email, window), limit: LOGIN_LIMITS.account, what: 'this account' },
    { key: addressLoginThrottleKey(address, window), limit: LOGIN_LIMITS.address, what: 'your address' },
  ];
  const count = (key: Key, delta: number) => addToWindow(deps.table, key, delta, windowEnds);
  const [record, ...counted] = await Promise.all([
    deps.table.get<EmailItem & Record<string, unknown>>(emailKey(email), true),
    ...counters.map((counter) => count(counter.key, 1)),
  ]);
  const exceeded = counters.find((counter, index) => (counted[index] ?? 0) > counter.limit);
  if (exceeded) {
    throw new TooManyRequestsError(
      `too many failed logins for ${exceeded.what}; try again later`,
      Math.max(1, Math.ceil(windowEnds - nowMs / 1000)),
    );
  }
  const refund = () => Promise.all(counters.map((counter) => count(counter.key, -1)));
  // An attempt the service was too busy to check (429 from the hashing limit) is not a failure.
  const valid = await deps.passwords.verify(password, record?.password_hash).catch(async (error: unknown) => {
    await refund();
    throw error;
  });
  const user = valid && record ? await deps.table.get<UserItem>(userKey(record.org_id, record.user_id)) : undefined;
  if (!user) throw new UnauthorizedError(INVALID_LOGIN);
  await refund();
  if (!isActive(user)) throw new ForbiddenError(DEACTIVATED);
  return user;
}
