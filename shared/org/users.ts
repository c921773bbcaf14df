import { putNew } from '../platform/updates.js';
import type { OrgRole, Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { onConditionFailed } from '../platform/table.js';
import { newId } from '../platform/ids.js';
import { emailKey, nextSessionEpochUpdate, passwordHashUpdate, type UserItem, userKey, usersOfOrganisation } from './entities.js';
import type { CreateUserInput, User } from './schemas.js';

/** A user item and a login record (keyed by email: claiming it is what makes an email unique), as org/entities.ts stores them. */
export type { EmailItem, UserItem } from './entities.js';

export function toUser(item: UserItem): User {
  return {
    id: item.id,
    name: item.name,
    email: item.email,
    org_role: item.org_role,
    active: isActive(item),
    created_at: item.created_at,
  };
}

/** Whether a user may sign in and be served: not deactivated by the identity provider. */
export function isActive(item: Pick<UserItem, 'active'>): boolean {
  return item.active !== false;
}

/** Whether a user may administer the organisation now: an admin, and active. */
export function isActiveAdmin(item: Pick<UserItem, 'active' | 'org_role'>): boolean {
  return item.org_role === 'admin' && isActive(item);
}

export async function listUsers(deps: Deps, orgId: string): Promise<User[]> {
  const items = await deps.table.queryAll<UserItem>(usersOfOrganisation(orgId));
  return items.map(toUser);
}

const EMAIL_TAKEN = 'an account with this email already exists';
export const DEACTIVATED = 'this account has been deactivated by your organisation';

/** 409 for an address that already has an account, with code `email_taken` (SCIM answers it `uniqueness`). */
export function emailTaken(message = EMAIL_TAKEN, cause?: unknown): ConflictError {
  return new ConflictError(message, { code: 'email_taken', cause });
}

/** 409 `email_taken` unless the address is free: checked before work a taken address would waste (a password hash). */
export async function assertEmailFree(deps: Deps, email: string): Promise<void> {
  if ((await deps.table.get(emailKey(email), true)) !== undefined) throw emailTaken();
}

/** What a user provisioned by SCIM carries besides a user's own fields. */
export type ProvisionedFields = Partial<Pick<UserItem, 'active' | 'external_id' | 'given_name' | 'family_name'>>;

/**
 * Writes a user: the profile first, then the email claim as the commit point. If the email was
 * taken in the meantime the profile is removed again, so no half-made account stays visible.
 */
export async function writeUser(
  deps: Deps,
  orgId: string,
  input: { name: string; email: string; org_role: OrgRole; passwordHash: string } & ProvisionedFields,
): Promise<UserItem> {
  const now = deps.clock.now();
  const id = newId('usr', now);
  const user: UserItem = {
    ...userKey(orgId, id),
    id,
    org_id: orgId,
    name: input.name,
    email: input.email,
    org_role: input.org_role,
    created_at: now.toISOString(),
    ...(input.active === false ? { active: false } : {}),
    ...(input.external_id ? { external_id: input.external_id } : {}),
    ...(input.given_name ? { given_name: input.given_name } : {}),
    ...(input.family_name ? { family_name: input.family_name } : {}),
  };
  await deps.table.put(user);
  const claimed = await putNew(deps.table, {
    ...emailKey(input.email),
    email: input.email,
    user_id: id,
    org_id: orgId,
    password_hash: input.passwordHash,
  });
  if (!claimed) {
    await deps.table.delete(userKey(orgId, id));
    throw emailTaken();
  }
  return user;
}

/** `POST /api/org/users`: an admin adds a user to their organisation. */
export async function createUser(deps: Deps, orgId: string, input: CreateUserInput): Promise<User> {
  await assertEmailFree(deps, input.email);
  const passwordHash = await deps.passwords.hash(input.password);
  return toUser(await writeUser(deps, orgId, { ...input, passwordHash }));
}

/**
 * A user's new password: the login record's hash (only while it is still theirs), then a new
 * session generation, which ends every session begun before it (`resolveSession`). Answers the
 * user as stored now, so a session started for them afterwards is of the new generation.
 */
export async function replacePassword(deps: Deps, orgId: string, user: UserItem, passwordHash: string): Promise<UserItem> {
  const notFound = () => new NotFoundError(`user ${user.id} not found`);
  const hashed = passwordHashUpdate(user.email, user.id, passwordHash);
  await onConditionFailed(deps.table.update(hashed.key, hashed.input), notFound);
  const epoch = nextSessionEpochUpdate(orgId, user.id, deps.clock.now().toISOString());
  const updated = await onConditionFailed(deps.table.update<UserItem>(epoch.key, epoch.input), notFound);
  deps.sessions.forgetUser(user.id);
  return updated;
}

/**
 * `PUT /api/org/users/:id/password`: an admin sets a member's password (a forgotten one, or a
 * first one for a user single sign-on made). Their sessions end; an admin's own goes through
 * `POST /api/me/password`, which asks for the current one.
 */
export async function setUserPassword(deps: Deps, admin: Principal, userId: string, password: string): Promise<User> {
  if (admin.userId === userId) {
    throw new ValidationError('change your own password on your profile', [
      { path: 'id', message: 'is your own user: change your password with POST /api/me/password, which asks for the current one' },
    ]);
  }
  const user = await deps.table.get<UserItem>(userKey(admin.orgId, userId), true);
  if (!user) throw new NotFoundError(`user ${userId} not found`);
  return toUser(await replacePassword(deps, admin.orgId, user, await deps.passwords.hash(password)));
}
