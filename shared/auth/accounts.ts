import type { Deps } from '../deps.js';
import { ConflictError, TooManyRequestsError, UnauthorizedError } from '../platform/errors.js';
import { newId, slugify } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import { claimUniqueId } from '../platform/unique.js';
import { toOrganisation, type OrganisationItem } from '../org/organisations.js';
import type { Organisation, User } from '../org/schemas.js';
import { EMAIL_TAKEN, isEmailRegistered, toUser, writeUser, type EmailItem, type UserItem } from '../org/users.js';
import type { SignupInput } from './schemas.js';

export const DEFAULT_TEAM_NAME = 'General';

/**
 * `POST /api/signup`: a new organisation (with its default team "General") and its first user,
 * an admin. The email claim inside `writeUser` is the commit point: if it loses a race, the
 * organisation's items are removed again and the caller gets 409.
 */
export async function signUp(deps: Deps, input: SignupInput): Promise<{ user: User; org: Organisation }> {
  if (await isEmailRegistered(deps, input.email)) throw new ConflictError(EMAIL_TAKEN);
  const now = deps.clock.now();
  const orgId = newId('org', now);
  const orgName = input.org_name ?? `${input.name}'s organisation`;
  const teamId = newId('team', now);
  const [passwordHash, slug] = await Promise.all([
    deps.passwords.hash(input.password),
    claimUniqueId(deps.table, 'org', slugify(orgName) || 'org', (candidate) => ({
      ...keys.orgSlugClaim(candidate),
      org_id: orgId,
    })),
  ]);
  const org: OrganisationItem = {
    ...keys.org(orgId),
    id: orgId,
    name: orgName,
    slug,
    default_team_id: teamId,
    created_at: now.toISOString(),
  };
  const createdAt = now.toISOString();
  await Promise.all([
    deps.table.put({ ...org }),
    deps.table.put({ ...keys.team(orgId, teamId), id: teamId, name: DEFAULT_TEAM_NAME, created_at: createdAt }),
    deps.table.put({ ...keys.teamName(orgId, DEFAULT_TEAM_NAME), team_id: teamId, name: DEFAULT_TEAM_NAME, created_at: createdAt }),
  ]);
  try {
    const user = await writeUser(deps, orgId, { name: input.name, email: input.email, org_role: 'admin', passwordHash });
    return { user: toUser(user), org: toOrganisation(org) };
  } catch (error) {
    await Promise.all([
      deps.table.delete(keys.org(orgId)),
      deps.table.delete(keys.team(orgId, teamId)),
      deps.table.delete(keys.teamName(orgId, DEFAULT_TEAM_NAME)),
      deps.table.delete(keys.orgSlugClaim(slug)),
    ]);
    throw error;
  }
}

/** Failed logins allowed per email in one window before 429. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const INVALID_LOGIN = 'invalid email or password';

interface ThrottleItem {
  failures: number;
}

/**
 * `POST /api/auth/login`. Unknown email and wrong password take the same path: one password
 * verification (against a dummy hash for an unknown email), one failure counted, the same 401.
 * Failures are counted per email in fixed windows stored in the table, so the limit holds across
 * Lambda containers.
 */
export async function logIn(deps: Deps, email: string, password: string): Promise<UserItem> {
  const nowMs = deps.clock.now().getTime();
  const window = Math.floor(nowMs / 1000 / LOGIN_WINDOW_SECONDS);
  const windowEnds = (window + 1) * LOGIN_WINDOW_SECONDS;
  const throttleKey = keys.loginThrottle(email, window);
  const [record, throttle] = await Promise.all([
    deps.table.get<EmailItem & Record<string, unknown>>(keys.email(email), true),
    deps.table.get<ThrottleItem & Record<string, unknown>>(throttleKey, true),
  ]);
  if (throttle && throttle.failures >= LOGIN_FAILURE_LIMIT) {
    throw new TooManyRequestsError('too many failed logins for this email; try again later', Math.max(1, Math.ceil(windowEnds - nowMs / 1000)));
  }
  const valid = await deps.passwords.verify(password, record?.password_hash);
  const user = valid && record ? await deps.table.get<UserItem>(keys.user(record.org_id, record.user_id)) : undefined;
  if (!user) {
    await deps.table.update(throttleKey, {
      update: 'ADD failures :one SET #ttl = :ttl',
      names: { '#ttl': 'ttl' },
      values: { ':one': 1, ':ttl': windowEnds },
    });
    throw new UnauthorizedError(INVALID_LOGIN);
  }
  if (throttle) await deps.table.delete(throttleKey);
  return user;
}
