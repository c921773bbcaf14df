import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OrgRole, Principal } from '../auth/index.js';
import { deleteChatLinksOf } from '../chat/index.js';
import { forgetUserGrants } from '../connections/index.js';
import type { Deps } from '../deps.js';
import { revokeInvitationsBy } from '../invitations/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { Store } from '../platform/store.js';
import { onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import {
  emailKey,
  holdAdminsUpdate,
  ownEmailCondition,
  releaseAdminsUpdate,
  roleUpdate,
  userKey,
  usersOfOrganisation,
  type User,
  removeMemberships,
  isActive,
  isActiveAdmin,
  toUser,
  type UserItem,
} from '../org/index.js';

/*
 * What a person may do follows their standing in the organisation, by whichever way it changes
 * (the users API, SCIM): whatever takes an admin away (a demotion, a deactivation, a removal) keeps
 * one active admin, and what a person set going stops acting for them. The invitations they made
 * are revoked once they are demoted, deactivated or removed; a removed person's chat links and
 * per-user grants are deleted. A deactivated person's links and grants stay, used by nobody
 * (`chat/links.ts` `linkedUserOf`, `connections/oauth.ts` `tokens`), so a reactivation gives them back.
 */

const LAST_ADMIN = 'this would leave the organisation without an active admin: make another user an admin first';

/** How long one change of an organisation's admins holds the others back at most (a holder that crashed lets go then). */
const HOLD_MS = 10_000;
/** How long a change waits for another to end, in short naps, before it gives up (409). */
const WAIT_NAPS = 200;
const NAP_MS = 25;

/**
 * Takes the organisation's admin lease (`admins_held_until` on its item, by a conditional write):
 * changes that may take an admin away run one at a time, so two that each leave one admin cannot
 * together leave none. Answers the lease's value, to let it go with.
 */
async function holdAdmins(deps: Store, orgId: string): Promise<string> {
  for (let nap = 0; nap < WAIT_NAPS; nap += 1) {
    const now = deps.clock.now();
    const until = `${new Date(now.getTime() + HOLD_MS).toISOString()}#${randomBytes(6).toString('hex')}`;
    const { key, input } = holdAdminsUpdate(orgId, until, now.toISOString());
    const held = await unlessConditionFailed(
      deps.table.update(key, input).then(() => true),
      false,
    );
    if (held) return until;
    await sleep(NAP_MS + Math.random() * NAP_MS);
  }
  throw new ConflictError("another change of the organisation's admins is under way: try again");
}

async function releaseAdmins(deps: Store, orgId: string, until: string): Promise<void> {
  const { key, input } = releaseAdminsUpdate(orgId, until);
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/**
 * Runs a change that takes the user's admin standing away if they have it (a demotion, a
 * deactivation, a removal): 409 when they are the organisation's last active admin (a deactivated
 * admin does not count), 404 when they are not a user of it. The change gets the user as stored
 * under the lease.
 */
async function keepingAnAdmin<T>(deps: Store, orgId: string, userId: string, change: (user: UserItem) => Promise<T>): Promise<T> {
  const until = await holdAdmins(deps, orgId);
  try {
    const users = await deps.table.queryAll<UserItem>({ ...usersOfOrganisation(orgId), consistent: true });
    const user = users.find((item) => item.id === userId);
    if (!user) throw new NotFoundError(`user ${userId.slice(0, 100)} not found`);
    if (isActiveAdmin(user) && !users.some((item) => item.id !== userId && isActiveAdmin(item))) throw new ConflictError(LAST_ADMIN);
    return await change(user);
  } finally {
    await releaseAdmins(deps, orgId, until);
  }
}

/**
 * Writes a change that may deactivate a user (SCIM), keeping an active admin; when it did
 * deactivate them, their invitations are revoked. Answers the user as written.
 */
export async function writeDeactivation(
  deps: Deps,
  orgId: string,
  userId: string,
  write: (user: UserItem) => Promise<UserItem>,
): Promise<UserItem> {
  let wasActive = false;
  const updated = await keepingAnAdmin(deps, orgId, userId, (user) => {
    wasActive = isActive(user);
    return write(user);
  });
  if (wasActive && !isActive(updated)) await revokeInvitationsBy(deps, orgId, userId);
  return updated;
}

/** An admin may not change or remove themselves: the organisation always keeps the admin acting. */
function refuseSelf(admin: Principal, userId: string, what: string): void {
  if (admin.userId === userId)
    throw new ValidationError(`you cannot ${what} yourself`, [{ path: 'id', message: `is your own user: another admin must ${what} it` }]);
}

/** `PUT /api/org/users/:id`: the role a user's next request is served with. A demoted admin's invitations are revoked. */
export async function changeUserRole(deps: Deps, admin: Principal, userId: string, role: OrgRole): Promise<User> {
  refuseSelf(admin, userId, 'change the role of');
  const { key, input } = roleUpdate(admin.orgId, userId, role);
  const setRole = () => onConditionFailed(deps.table.update<UserItem>(key, input), () => new NotFoundError(`user ${userId} not found`));
  const user = role === 'admin' ? await setRole() : await keepingAnAdmin(deps, admin.orgId, userId, setRole);
  deps.sessions.forgetUser(userId);
  if (role !== 'admin') await revokeInvitationsBy(deps, admin.orgId, userId);
  return toUser(user);
}

/**
 * `DELETE /api/org/users/:id`: the user and their login record. Sessions check the user item, so
 * theirs stop working; their conversations and audit entries stay, under the name they had.
 */
export async function removeUser(deps: Deps, admin: Principal, userId: string): Promise<void> {
  refuseSelf(admin, userId, 'remove');
  await deleteUser(deps, admin.orgId, userId);
}

/**
 * A user gone (the users API or SCIM), unless they are the last active admin: the profile (which
 * signs their sessions out), then their team memberships, their login record, their invitations,
 * chat links and per-user grants. Each of those also checks the user at use, so one left behind by
 * a failure half-way acts for nobody.
 */
export async function deleteUser(deps: Deps, orgId: string, userId: string): Promise<void> {
  const user = await keepingAnAdmin(deps, orgId, userId, async (item) => {
    await deps.table.delete(userKey(orgId, userId));
    return item;
  });
  deps.sessions.forgetUser(userId);
  await removeMemberships(deps, orgId, userId);
  // The login record goes only if it is still this user's (the email may be reused).
  await unlessConditionFailed(deps.table.delete(emailKey(user.email), ownEmailCondition(userId)), undefined);
  await Promise.all([
    revokeInvitationsBy(deps, orgId, userId),
    deleteChatLinksOf(deps, orgId, userId),
    forgetUserGrants(deps, orgId, userId),
  ]);
}
