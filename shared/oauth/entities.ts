import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { list } from 'dynamodb-toolbox/schema/list';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../platform/table.js';
import { tableEntity, updateOf } from '../platform/updates.js';

/*
 * The MCP gateway's authorization server (docs/data-model.md, docs/mcp-gateway.md): what
 * oidc-provider keeps (its models: authorization codes, access and refresh tokens, clients,
 * grants, interactions, sessions), each found by the SHA-256 of its id (a token's id is the token),
 * its payload sealed; the pointers from a grant to what was issued under it (revoking a grant
 * deletes them all); and the person's connected clients, listed by their organisation.
 */

/** One stored object of the authorization server (`OAUTHAS#<model>#<id hash>` / `OBJECT`). */
const oauthObjectEntity = tableEntity('oauth-object', {
  /** The provider's payload (JSON), sealed under `oauth-object:<pk>`: it holds the token itself, a session's cookie, a client's metadata. */
  sealed: string(),
  /** The grant it was issued under, if any (its pointer is in the grant's partition). */
  grant_id: string().optional(),
  /** When it was used up (an authorization code exchanged, a refresh token rotated), epoch seconds. */
  consumed: number().optional(),
  /** Epoch seconds: the table's TTL removes it once it expired (reads treat it as gone before). */
  ttl: number().optional(),
});

export type OAuthObjectItem = FormattedItem<typeof oauthObjectEntity>;

export const oauthObjectKey = (model: string, idHash: string): Key => ({ pk: `OAUTHAS#${model}#${idHash}`, sk: 'OBJECT' });

/** Marks an object used up, only if it was not already: the second exchange of one code fails its condition. */
export function oauthConsumeUpdate(key: Key, at: number) {
  const command = oauthObjectEntity
    .build(UpdateItemCommand)
    .item({ ...key, consumed: at })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'consumed', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/** A pointer from a grant to an object issued under it (`OAUTHGRANT#<grant>` / `<model>#<id hash>`), expiring with it. */
const grantPointerEntity = tableEntity('oauth-grant-pointer', { ttl: number().optional() });

export const grantPointerKey = (grantId: string, model: string, idHash: string): Key => ({
  pk: `OAUTHGRANT#${grantId}`,
  sk: `${model}#${idHash}`,
});

/** A pointer from a session's uid to the session (`OAUTHUID#<uid hash>` / `UID`). */
const uidPointerEntity = tableEntity('oauth-uid-pointer', { session: string(), ttl: number().optional() });

export const uidPointerKey = (uidHash: string): Key => ({ pk: `OAUTHUID#${uidHash}`, sk: 'UID' });

export type UidPointerItem = FormattedItem<typeof uidPointerEntity>;
export type GrantPointerItem = FormattedItem<typeof grantPointerEntity>;

/**
 * A client a person connected to workspaces of their organisation (`ORGCLIENTS#<org>` /
 * `CLIENT#<user>#<id>`): one per person and client, with the grants the consents made.
 */
const connectedClientEntity = tableEntity('connected-client', {
  id: string(),
  org_id: string(),
  user_id: string(),
  /** The OAuth client_id: a registered client's id, or a Client ID Metadata Document's URL. */
  client_id: string(),
  name: string(),
  /** True for a client identified by its metadata document (its name is its domain's); false for a self-declared (registered) one. */
  verified: boolean(),
  redirect_host: string(),
  workspaces: list(string()),
  grant_ids: list(string()),
  created_at: string(),
  last_used_at: string().optional(),
});

export type ConnectedClientItem = FormattedItem<typeof connectedClientEntity>;

const clientsPartition = (orgId: string) => `ORGCLIENTS#${orgId}`;

export const connectedClientKey = (orgId: string, userId: string, id: string): Key => ({
  pk: clientsPartition(orgId),
  sk: `CLIENT#${userId}#${id}`,
});

/** When a connected client was last used, if it is still connected. */
export function clientUseUpdate(key: Key, at: string) {
  const command = connectedClientEntity
    .build(UpdateItemCommand)
    .item({ ...key, last_used_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

// --- Access patterns ---

/** Every client connected in an organisation, by person. */
export function orgClientsQuery(orgId: string): QueryInput {
  return { pk: clientsPartition(orgId), sk: { beginsWith: 'CLIENT#' } };
}

/** The clients one person connected. */
export function personClientsQuery(orgId: string, userId: string): QueryInput {
  return { pk: clientsPartition(orgId), sk: { beginsWith: `CLIENT#${userId}#` } };
}

/** What was issued under one grant (to revoke it). */
export function grantObjectsQuery(grantId: string): QueryInput {
  return { pk: `OAUTHGRANT#${grantId}` };
}

/** Dynamic client registrations from one client address (or IPv6 /64) in one hour. */
export const registrationThrottleKey = (address: string, hour: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `DCR#${hour}` });
