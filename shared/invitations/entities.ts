import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { OrgRoleSchema } from '../org/index.js';
import { indexEntry, type Key, type QueryInput } from '../platform/table.js';
import { tableEntity, updateOf } from '../platform/updates.js';

/*
 * Invitations by link (docs/data-model.md): found by the SHA-256 of the link's token (the token is
 * never stored), listed by their organisation.
 */

/** An invitation (`INVITE#<token hash>` / `INVITATION`), kept (TTL) a week past its expiry so a late link says "expired". */
const invitationEntity = tableEntity('invitation', {
  id: string(),
  org_id: string(),
  email: string(),
  org_role: string().enum(...OrgRoleSchema.options),
  /** The inviting admin's name. */
  invited_by: string(),
  /**
   * The inviting admin's user id. Absent on invitations made before it was kept: nobody's standing
   * can be checked for them, so they do not work (410); only their inviter's name was kept, so no
   * migration can give them one.
   */
  invited_by_id: string().optional(),
  created_at: string(),
  expires_at: string(),
  /** Set once, by the acceptance (a conditional update: single use). */
  used_at: string().optional(),
  ttl: number(),
});

export type InvitationItem = FormattedItem<typeof invitationEntity>;

export const invitationKey = (tokenHash: string): Key => ({ pk: `INVITE#${tokenHash}`, sk: 'INVITATION' });

const invitationsPartition = (orgId: string) => `ORG#${orgId}#INVITES`;

/** An invitation's entry in its organisation's listing, oldest first. */
export const invitationListing = (orgId: string, createdAt: string, invitationId: string) =>
  indexEntry('listings', invitationsPartition(orgId), `${createdAt}#${invitationId}`);

/** The invitation claimed by its acceptance at `now`: only if it is there, unused and not expired (single use). */
export function acceptanceUpdate(key: Key, now: string) {
  const command = invitationEntity
    .build(UpdateItemCommand)
    .item({ ...key, used_at: now })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'used_at', exists: false },
          { attr: 'expires_at', gt: now },
        ],
      },
    });
  return updateOf(command);
}

/** The acceptance given back (the user could not be made). */
export const acceptanceUndone = (key: Key) => updateOf(invitationEntity.build(UpdateItemCommand).item({ ...key, used_at: $remove() }));

// --- Access patterns ---

/** The invitations of an organisation, oldest first. */
export const invitationsOfOrganisation = (orgId: string): QueryInput => ({ index: 'listings', pk: invitationsPartition(orgId) });
