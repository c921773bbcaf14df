import { Entity } from 'dynamodb-toolbox/entity';
import { $get, $remove, $sum, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { item } from 'dynamodb-toolbox/schema/item';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import type { OrgRole } from '../auth/tokens.js';
import { keys } from '../platform/keys.js';
import { conditionOf, plainItems, singleTable, updateOf } from '../platform/updates.js';
import { OrgRoleSchema } from './schemas.js';

/*
 * The typed writes (shared/platform/updates.ts) of an organisation's people: their organisation's
 * admin lease, their user items, login records and sessions. The entities hold the attributes
 * these writes touch or their conditions read (used by standing.ts and auth/sessions.ts).
 */

/** The organisation item (`ORG#<id>` / `ORG`): the admin lease (standing.ts). */
const organisationEntity = new Entity({
  name: 'organisation',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), admins_held_until: string().optional() }),
});

/** The user item (`ORG#<id>` / `USER#<id>`). */
const userEntity = new Entity({
  name: 'user',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    org_role: string().enum(...OrgRoleSchema.options),
    /** Moved on when the organisation requires single sign-on: password sessions begun before stop working. */
    password_epoch: number().optional(),
  }),
});

/** The login record (`EMAIL#<email>`): whose it is. */
const emailEntity = new Entity({
  name: 'email',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), user_id: string() }),
});

/** A signed-in session (`SESSION#<id>` / `SESSION`, auth/sessions.ts): the user's session generation it belongs to. */
const sessionEntity = new Entity({
  name: 'session',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), epoch: number().optional() }),
});

/** Takes the organisation's admin lease until `until`, if the organisation exists and nobody holds it since before `now`. */
export function holdAdminsUpdate(orgId: string, until: string, now: string) {
  const command = organisationEntity
    .build(UpdateItemCommand)
    .item({ ...keys.org(orgId), admins_held_until: until })
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
    .item({ ...keys.org(orgId), admins_held_until: $remove() })
    .options({ condition: { attr: 'admins_held_until', eq: until } });
  return updateOf(command);
}

/** A user's new role, if the user exists. */
export function roleUpdate(orgId: string, userId: string, role: OrgRole) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...keys.user(orgId, userId), org_role: role })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** Moves a user's `password_epoch` on (from 0 when not there yet), if the user exists. */
export function passwordEpochUpdate(orgId: string, userId: string) {
  const command = userEntity
    .build(UpdateItemCommand)
    .item({ ...keys.user(orgId, userId), password_epoch: $sum($get('password_epoch', 0), 1) })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** The condition that a login record is still this user's (the email may have been reused). */
export function ownEmailCondition(userId: string) {
  return conditionOf(emailEntity, { attr: 'user_id', eq: userId });
}

/** Moves a session on to the user's session generation `epoch`, if the session is still there. */
export function sessionEpochUpdate(sessionId: string, epoch: number) {
  const command = sessionEntity
    .build(UpdateItemCommand)
    .item({ ...keys.session(sessionId), epoch })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}
