import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { $get, $remove, $sum, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import type { OrgRole } from '../auth/index.js';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../platform/updates.js';
import { OrgRoleSchema } from './schemas.js';

/*
 * An organisation and its people (docs/data-model.md): the organisation item and its slug claim,
 * its users and their login records. The organisation's partition (`ORG#<org>`) also holds its
 * small collections, each in its domain's entities: teams (team-entities.ts), settings
 * (setting-entities.ts), SCIM, single sign-on, budgets, chat links, evaluation counts.
 */

/** The organisation's partition: its item and its small collections. */
export const orgPartition = (orgId: string) => `ORG#${orgId}`;

/** The organisation item (`ORG#<id>` / `ORG`); `admins_held_until` is its admin lease (standing.ts). */
const organisationEntity = tableEntity('organisation', {
  id: string(),
  name: string(),
  slug: string(),
  default_team_id: string(),
  created_at: string(),
  admins_held_until: string().optional(),
});

export type OrganisationItem = FormattedItem<typeof organisationEntity>;

export const organisationKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'ORG' });

/** The claim of an organisation's slug (`ORGSLUG#<slug>` / `ORGSLUG`, attribute org_id): one organisation per slug. */
export const orgSlugClaimKey = (slug: string): Key => ({ pk: `ORGSLUG#${slug}`, sk: 'ORGSLUG' });

/** The user item (`ORG#<id>` / `USER#<id>`). */
const userEntity = tableEntity('user', {
  id: string(),
  org_id: string(),
  name: string(),
  email: string(),
  org_role: string().enum(...OrgRoleSchema.options),
  created_at: string(),
  updated_at: string().optional(),
  /** False once the identity provider deactivated the user (SCIM); absent: active. */
  active: boolean().optional(),
  /** What SCIM provisions from: the provider's id and the parts of the name. */
  external_id: nullableString.optional(),
  given_name: nullableString.optional(),
  family_name: nullableString.optional(),
  /** Moved on by a password change: sessions of an older generation stop working (absent: 0). */
  session_epoch: number().optional(),
  /** Moved on when the organisation requires single sign-on: password sessions begun before stop working (absent: 0). */
  password_epoch: number().optional(),
});

export type UserItem = FormattedItem<typeof userEntity>;

export const userKey = (orgId: string, userId: string): Key => ({ pk: orgPartition(orgId), sk: `USER#${userId}` });

/** The login record (`EMAIL#<lower-case email>` / `EMAIL`): whose the address is, and their password's hash. */
const emailEntity = tableEntity('email', { email: string(), user_id: string(), org_id: string(), password_hash: string() });

export type EmailItem = FormattedItem<typeof emailEntity>;

export const emailKey = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });

/** The organisation renamed, if it exists. */
export function renameOrganisationUpdate(orgId: string, name: string) {
  const command = organisationEntity
    .build(UpdateItemCommand)
    .item({ ...organisationKey(orgId), name })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** Takes the organisation's admin lease until `until`, if the organisation exists and nobody holds it since before `now`. */
export function holdAdminsUpdate(orgId: string, until: string, now: string) {
  const command = organisationEntity
    .build(UpdateItemCommand)
    .item({ ...organisationKey(orgId), admins_held_until: until })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          {
            or: [
              { attr: 'admins_held_until', exists: false },
              { attr: 'admins_held_until', lt: now },
            ],
          },
        ],
      },
    });
  return updateOf(command);
}

/** Lets the organisation's admin lease go, if it is still the one taken until `until`. */
export function releaseAdminsUpdate(orgId: string, until: string) {
  const command = organisationEntity
    .build(UpdateItemCommand)
    .item({ ...organisationKey(orgId), admins_held_until: $remove() })
    .options({ condition: { attr: 'admins_held_until', eq: until } });
  return updateOf(command);
}

/** A user's new role, if the user exists. */
export function roleUpdate(orgId: string, userId: string, role: OrgRole) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...userKey(orgId, userId), org_role: role })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** A user's new display name, if the user exists. */
export function renameUserUpdate(orgId: string, userId: string, name: string, at: string) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...userKey(orgId, userId), name, updated_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** What SCIM writes of a user. */
export interface ProvisionedUserFields {
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
  external_id: string | null;
  active: boolean;
}

/** A user's provisioned fields written, if the user exists. */
export function provisionedUserUpdate(orgId: string, userId: string, fields: ProvisionedUserFields, at: string) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...userKey(orgId, userId), ...fields, updated_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** A user's new session generation (from 0 when not there yet), if the user exists: their other sessions end. */
export function nextSessionEpochUpdate(orgId: string, userId: string, at: string) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...userKey(orgId, userId), session_epoch: $sum($get('session_epoch', 0), 1), updated_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** Moves a user's `password_epoch` on (from 0 when not there yet), if the user exists. */
export function passwordEpochUpdate(orgId: string, userId: string) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...userKey(orgId, userId), password_epoch: $sum($get('password_epoch', 0), 1) })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** The condition that a login record is still this user's (the email may have been reused). */
export function ownEmailCondition(userId: string) {
  return conditionOf(emailEntity, { attr: 'user_id', eq: userId });
}

/** A login record's new password hash, while the record is still this user's. */
export function passwordHashUpdate(email: string, userId: string, passwordHash: string) {
  const command = emailEntity
    .build(UpdateItemCommand)
    .item({ ...emailKey(email), password_hash: passwordHash })
    .options({ condition: { attr: 'user_id', eq: userId } });
  return updateOf(command);
}

// --- Access patterns ---

/** The users of an organisation. */
export const usersOfOrganisation = (orgId: string): QueryInput => ({ pk: orgPartition(orgId), sk: { beginsWith: 'USER#' } });
