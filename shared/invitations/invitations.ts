import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { getOrganisationItem, assertEmailFree, isActiveAdmin, writeUser, type UserItem, userKey } from '../org/index.js';
import { GoneError, NotFoundError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { onConditionFailed } from '../platform/table.js';
import { INVITATION_HOURS, type AcceptInvitationInput, type CreateInvitationInput, type Invitation } from './schemas.js';
import { tokenHash } from '../platform/compare.js';
import {
  acceptanceUndone,
  acceptanceUpdate,
  type InvitationItem,
  invitationKey,
  invitationListing,
  invitationsOfOrganisation,
} from './entities.js';

/*
 * Invitations by link: an admin names an email and a role, the service makes a one-time link, the
 * person it is sent to opens it, picks their name and password and is signed in as a user of the
 * organisation. It is the admin's intent, so it works whatever SIGNUP_MODE says, and only while
 * they are an active admin: demoting, deactivating or removing them revokes their invitations
 * (`revokeInvitationsBy`), and opening or accepting one checks its inviter again.
 */

/** An invitation stays readable this long past its expiry, to say "expired" rather than "unknown". */
const KEPT_AFTER_EXPIRY_SECONDS = 7 * 24 * 3600;

const toInvitation = (item: InvitationItem): Invitation => ({
  id: item.id,
  email: item.email,
  org_role: item.org_role,
  created_at: item.created_at,
  expires_at: item.expires_at,
  invited_by: item.invited_by,
});

/** `POST /api/org/invitations`: the invitation, and its link (the token in it is shown only now). */
export async function createInvitation(
  deps: Deps,
  admin: Principal,
  input: CreateInvitationInput,
  baseUrl: string,
): Promise<Invitation & { url: string }> {
  await assertEmailFree(deps, input.email);
  const now = deps.clock.now();
  const id = newId('inv', now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (input.expires_in_hours ?? INVITATION_HOURS.default) * 3_600_000);
  const item: InvitationItem = {
    ...invitationKey(tokenHash(token)),
    id,
    org_id: admin.orgId,
    email: input.email,
    org_role: input.org_role,
    invited_by: admin.name,
    invited_by_id: admin.userId,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    ttl: Math.floor(expiresAt.getTime() / 1000) + KEPT_AFTER_EXPIRY_SECONDS,
  };
  await deps.table.put({ ...item, ...invitationListing(admin.orgId, item.created_at, id) });
  return { ...toInvitation(item), url: `${baseUrl}/invite/${token}` };
}

async function invitationsOf(deps: Deps, orgId: string): Promise<InvitationItem[]> {
  return deps.table.queryAll<InvitationItem>(invitationsOfOrganisation(orgId));
}

/** `GET /api/org/invitations`: those still waiting (neither used nor expired), oldest first. */
export async function listInvitations(deps: Deps, orgId: string): Promise<Invitation[]> {
  const now = deps.clock.now().toISOString();
  return (await invitationsOf(deps, orgId)).filter((item) => !item.used_at && item.expires_at > now).map(toInvitation);
}

/** `DELETE /api/org/invitations/:id`: its link stops working (404 from then on). */
export async function revokeInvitation(deps: Deps, orgId: string, invitationId: string): Promise<void> {
  const item = (await invitationsOf(deps, orgId)).find((candidate) => candidate.id === invitationId);
  if (!item) throw new NotFoundError(`invitation ${invitationId} not found`);
  await deps.table.delete({ pk: item.pk, sk: item.sk });
}

/**
 * Revokes the waiting invitations a user made: they were demoted, deactivated or removed, and only
 * an active admin invites (`POST /api/org/invitations`), whatever role the invitation gives.
 */
export async function revokeInvitationsBy(deps: Deps, orgId: string, userId: string): Promise<void> {
  const theirs = (await invitationsOf(deps, orgId)).filter((item) => item.invited_by_id === userId && !item.used_at);
  await Promise.all(theirs.map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
}

const UNKNOWN = 'this invitation link is not valid: it may have been revoked; ask for a new one';
const WITHDRAWN =
  'this invitation no longer works: the admin who made it is no longer an active admin of the organisation; ask an admin for a new one';

/** Whether the invitation's inviter may still invite: an active admin of its organisation now. */
async function inviterStands(deps: Deps, item: InvitationItem): Promise<boolean> {
  if (!item.invited_by_id) return false;
  const inviter = await deps.table.get<UserItem>(userKey(item.org_id, item.invited_by_id), true);
  return inviter !== undefined && isActiveAdmin(inviter);
}

/** The invitation a link's token names: 404 unknown (or revoked), 410 used, expired, or its inviter no longer an admin. */
async function openInvitation(deps: Deps, token: string): Promise<InvitationItem> {
  const item = await deps.table.get<InvitationItem>(invitationKey(tokenHash(token)), true);
  if (!item) throw new NotFoundError(UNKNOWN);
  if (item.used_at) throw new GoneError('this invitation has been used already: sign in instead');
  if (item.expires_at <= deps.clock.now().toISOString()) {
    throw new GoneError(`this invitation expired at ${item.expires_at}; ask an admin of your organisation for a new one`);
  }
  if (!(await inviterStands(deps, item))) throw new GoneError(WITHDRAWN);
  return item;
}

/** `GET /api/invitations/:token` (public): what the link invites to. */
export async function viewInvitation(deps: Deps, token: string) {
  const item = await openInvitation(deps, token);
  const org = await getOrganisationItem(deps, item.org_id);
  return { org_name: org.name, email: item.email, org_role: item.org_role, expires_at: item.expires_at };
}

/**
 * `POST /api/invitations/:token/accept` (public): the user, made as `POST /api/org/users` makes one
 * (409 when the email was taken since). The invitation is claimed first, by a conditional update
 * (single use: a second acceptance is 410), and given back if the user cannot be made. Its inviter
 * is checked again once it is claimed (a revocation skips claimed invitations), so a demotion that
 * lands while it is accepted is seen either way, and the invitation withdrawn.
 */
export async function acceptInvitation(deps: Deps, token: string, input: AcceptInvitationInput): Promise<UserItem> {
  const item = await openInvitation(deps, token);
  await assertEmailFree(deps, item.email);
  const now = deps.clock.now().toISOString();
  const claim = acceptanceUpdate({ pk: item.pk, sk: item.sk }, now);
  await onConditionFailed(
    deps.table.update(claim.key, claim.input),
    () => new GoneError('this invitation has been used already: sign in instead'),
  );
  if (!(await inviterStands(deps, item))) {
    await deps.table.delete({ pk: item.pk, sk: item.sk });
    throw new GoneError(WITHDRAWN);
  }
  try {
    const passwordHash = await deps.passwords.hash(input.password);
    return await writeUser(deps, item.org_id, { name: input.name, email: item.email, org_role: item.org_role, passwordHash });
  } catch (error) {
    const undone = acceptanceUndone({ pk: item.pk, sk: item.sk });
    await deps.table.update(undone.key, undone.input);
    throw error;
  }
}
