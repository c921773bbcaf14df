import { putNew } from '../platform/updates.js';
import type { Deps } from '../deps.js';
import {
  userTeamIds,
  emailTaken,
  isActive,
  writeUser,
  type EmailItem,
  type UserItem,
  emailKey,
  ownEmailCondition,
  type ProvisionedUserFields,
  provisionedUserUpdate,
  userKey,
  usersOfOrganisation,
  teamKey,
} from '../org/index.js';
import { deleteUser, writeDeactivation } from '../org-admin/index.js';
import { emailAddress } from '../http/schemas.js';
import { readSso } from '../auth/index.js';
import { hasErrorCode, NotFoundError } from '../platform/errors.js';
import { onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import { scimRefusal } from './errors.js';
import { parseEquality } from './filter.js';
import { pageOf, type Page } from './paging.js';
import { personName, SCHEMA, type ScimListQuery, type ScimPatchOperation, type ScimUserInput } from './schemas.js';
import { patchUser } from './user-patch.js';

/*
 * SCIM Users are the organisation's users. `userName` is the sign-in e-mail; a provisioned user has
 * no password and signs in through the organisation's provider. `active: false` keeps the user but
 * signs them out at once and refuses their sign-in (DEACTIVATED); DELETE removes them as an admin
 * would. Neither may take the organisation's last active admin (`org-admin/standing.ts`: 409). Names pass
 * the users API's schema.
 */

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  displayName: string;
  name: { formatted: string; givenName?: string; familyName?: string };
  emails: { value: string; type: 'work'; primary: true }[];
  active: boolean;
  groups?: { value: string; display: string; $ref: string }[];
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

function scimUserOf(item: UserItem, baseUrl: string, groups?: { id: string; name: string }[]): ScimUser {
  return {
    schemas: [SCHEMA.user],
    id: item.id,
    ...(item.external_id ? { externalId: item.external_id } : {}),
    userName: item.email,
    displayName: item.name,
    name: {
      formatted: item.name,
      ...(item.given_name ? { givenName: item.given_name } : {}),
      ...(item.family_name ? { familyName: item.family_name } : {}),
    },
    emails: [{ value: item.email, type: 'work', primary: true }],
    active: item.active !== false,
    ...(groups ? { groups: groups.map((team) => ({ value: team.id, display: team.name, $ref: `${baseUrl}/Groups/${team.id}` })) } : {}),
    meta: {
      resourceType: 'User',
      created: item.created_at,
      lastModified: item.updated_at ?? item.created_at,
      location: `${baseUrl}/Users/${item.id}`,
    },
  };
}

/** The sign-in address of a SCIM user: `userName` when it is an address, else the primary (or first) e-mail. */
function emailOf(input: Pick<ScimUserInput, 'userName' | 'emails'>): string {
  const candidates = [input.userName, input.emails?.find((email) => email.primary)?.value, input.emails?.[0]?.value];
  for (const candidate of candidates) {
    const parsed = emailAddress.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  throw scimRefusal('invalid', 'userName (or a primary e-mail) must be an e-mail address: it is what the user signs in with');
}

/**
 * The name shown: `displayName`, else `name.formatted` (both checked by the schema), else the given
 * and family names joined, else the address; a joined or address name is cut to the users API's
 * 100 characters and checked by its schema too.
 */
function nameOf(input: ScimUserInput, email: string): string {
  const chosen = input.displayName ?? input.name?.formatted;
  if (chosen) return chosen;
  const joined = [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ');
  const cut = Array.from(joined || email).slice(0, 100);
  const parsed = personName.safeParse(cut.join(''));
  if (!parsed.success) throw scimRefusal('invalid', `name: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** The fields a create or a replace (PUT) sets; `active` left out keeps the stored one (a new user is active). */
function fieldsOf(input: ScimUserInput, stored?: UserItem): ProvisionedUserFields {
  const email = emailOf(input);
  return {
    email,
    name: nameOf(input, email),
    given_name: input.name?.givenName ?? null,
    family_name: input.name?.familyName ?? null,
    external_id: input.externalId || null,
    active: input.active ?? (stored ? isActive(stored) : true),
  };
}

/** SCIM's 409 `uniqueness` for an address with an account: it names the address. */
const addressTaken = (email: string, cause?: unknown) => emailTaken(`${email} already has an account`, cause);

async function userItem(deps: Deps, orgId: string, userId: string): Promise<UserItem> {
  const item = await deps.table.get<UserItem>(userKey(orgId, userId), true);
  if (!item) throw new NotFoundError(`user ${userId.slice(0, 100)} not found`);
  return item;
}

export async function getScimUser(deps: Deps, orgId: string, userId: string, baseUrl: string): Promise<ScimUser> {
  const item = await userItem(deps, orgId, userId);
  const teamIds = await userTeamIds(deps, orgId, userId);
  const teams = await deps.table.batchGet<{ id: string; name: string }>(teamIds.map((teamId) => teamKey(orgId, teamId)));
  return scimUserOf(item, baseUrl, teams);
}

const USER_FILTERS = ['username', 'externalid', 'id', 'emails.value', 'emails'] as const;

/** `GET /Users`: every user, or those one equality filter matches, a page at a time. */
export async function listScimUsers(deps: Deps, orgId: string, query: ScimListQuery, baseUrl: string): Promise<Page<ScimUser>> {
  let items: UserItem[];
  const filter = query.filter ? parseEquality(query.filter, USER_FILTERS) : undefined;
  if (filter && filter.attribute !== 'externalid' && filter.attribute !== 'id') {
    // By address: the login record names the user, in one read.
    const record = await deps.table.get<EmailItem>(emailKey(filter.value), true);
    const item = record?.org_id === orgId ? await deps.table.get<UserItem>(userKey(orgId, record.user_id), true) : undefined;
    items = item ? [item] : [];
  } else {
    items = await deps.table.queryAll<UserItem>(usersOfOrganisation(orgId));
    if (filter?.attribute === 'id') items = items.filter((item) => item.id === filter.value);
    if (filter?.attribute === 'externalid') items = items.filter((item) => item.external_id === filter.value);
  }
  return pageOf(items, query, (item) => scimUserOf(item, baseUrl));
}

/** `POST /Users`: 409 `uniqueness` when the address has an account already (the provider then looks it up). */
export async function createScimUser(deps: Deps, orgId: string, input: ScimUserInput, baseUrl: string): Promise<ScimUser> {
  const fields = fieldsOf(input);
  const sso = await readSso(deps, orgId);
  try {
    const item = await writeUser(deps, orgId, { ...fields, org_role: sso?.default_role ?? 'member', passwordHash: '' });
    return scimUserOf(item, baseUrl, []);
  } catch (error) {
    if (hasErrorCode(error, 'email_taken')) throw addressTaken(fields.email, error);
    throw error;
  }
}

/**
 * `PUT /Users/:id`: the user as the provider has them now (attributes left out are cleared, but
 * `active`: a provider that does not send it has not reactivated anyone).
 */
export async function replaceScimUser(deps: Deps, orgId: string, userId: string, input: ScimUserInput, baseUrl: string): Promise<ScimUser> {
  const item = await userItem(deps, orgId, userId);
  return scimUserOf(await saveFields(deps, item, fieldsOf(input, item)), baseUrl);
}

/** `PATCH /Users/:id`: the operations applied in order, then written once. */
export async function patchScimUser(
  deps: Deps,
  orgId: string,
  userId: string,
  operations: ScimPatchOperation[],
  baseUrl: string,
): Promise<ScimUser> {
  const item = await userItem(deps, orgId, userId);
  return scimUserOf(await saveFields(deps, item, patchUser(item, operations)), baseUrl);
}

/** `DELETE /Users/:id`: as an admin removes a user (`org-admin/standing.ts`), so not the last active admin (409). */
export async function deleteScimUser(deps: Deps, orgId: string, userId: string): Promise<void> {
  await userItem(deps, orgId, userId);
  await deleteUser(deps, orgId, userId);
}

/** Writes provisioned fields; one that leaves the user inactive goes through `writeDeactivation` (the last admin, their invitations). */
async function saveFields(deps: Deps, item: UserItem, fields: ProvisionedUserFields): Promise<UserItem> {
  if (fields.active) return writeFields(deps, item, fields);
  return writeDeactivation(deps, item.org_id, item.id, (current) => writeFields(deps, current, fields));
}

/**
 * Writes a user's provisioned fields. A new address claims its login record first (409 when it is
 * someone else's) and gives the old one up after. Whatever changed, the user's cached sessions are
 * forgotten, so a deactivation signs them out on their next request.
 */
async function writeFields(deps: Deps, item: UserItem, fields: ProvisionedUserFields): Promise<UserItem> {
  const moving = fields.email !== item.email;
  if (moving) await claimEmail(deps, item, fields.email);
  const { key, input } = provisionedUserUpdate(item.org_id, item.id, fields, deps.clock.now().toISOString());
  const updated = await onConditionFailed(deps.table.update<UserItem>(key, input), () => new NotFoundError(`user ${item.id} not found`));
  deps.sessions.forgetUser(item.id);
  if (moving) {
    const old = deps.table.delete(emailKey(item.email), ownEmailCondition(item.id));
    await unlessConditionFailed(old, undefined);
  }
  return updated;
}

async function claimEmail(deps: Deps, item: UserItem, email: string): Promise<void> {
  const current = await deps.table.get<EmailItem>(emailKey(item.email), true);
  const claimed = await putNew(deps.table, {
    ...emailKey(email),
    email,
    user_id: item.id,
    org_id: item.org_id,
    password_hash: current?.password_hash ?? '',
  });
  if (!claimed) throw addressTaken(email);
}
