import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../org/index.js';
import type { Key } from '../platform/table.js';
import { nullableString, tableEntity, updateOf } from '../platform/updates.js';

/*
 * The organisation's SCIM provisioning (docs/data-model.md): one item of its partition. The users
 * and teams SCIM provisions are the organisation's own items (org/entities.ts, org/team-entities.ts).
 */

/** The organisation's SCIM provisioning (`ORG#<org>` / `SCIM`): its bearer token's SHA-256, never the token. */
const scimEntity = tableEntity('scim', {
  token_hash: string(),
  /** The token's first characters, to tell tokens apart in the console. */
  token_hint: string(),
  created_at: string(),
  created_by: string(),
  last_sync_at: nullableString,
});

export type ScimItem = FormattedItem<typeof scimEntity>;

export const scimKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'SCIM' });

/** A sync marked at `at`, only while the token of `tokenHash` is still the organisation's. */
export function syncMarkUpdate(orgId: string, tokenHash: string, at: string) {
  const command = scimEntity
    .build(UpdateItemCommand)
    .item({ ...scimKey(orgId), last_sync_at: at })
    .options({ condition: { attr: 'token_hash', eq: tokenHash } });
  return updateOf(command);
}
