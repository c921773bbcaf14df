import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import { indexEntry, type Key, type QueryInput } from '../platform/table.js';
import { tableEntity, updateOf } from '../platform/updates.js';
import { workspacePartition } from '../workspaces/index.js';

/*
 * Consumers (docs/data-model.md): a consumer is a child of its workspace's partition, listed with
 * its configuration, and found by its id alone (to revoke it); a key consumer's key is a record of
 * its own, found by the key's SHA-256 (the key itself is never stored).
 */

const KEY_CONSUMER_TYPES = ['api', 'messaging', 'coding-agent'] as const;
/** Every type of consumer: team chat, and the key types. */
export const CONSUMER_TYPES = ['team-chat', ...KEY_CONSUMER_TYPES] as const;
export type KeyConsumerType = (typeof KEY_CONSUMER_TYPES)[number];

const STATUSES = ['active', 'revoked'] as const;

/** A consumer (`WS#<org>#<workspace>` / `CONSUMER#<id>`; the team-chat one's id is `tc-<workspace>`). */
const consumerEntity = tableEntity('consumer', {
  id: string(),
  type: string().enum(...KEY_CONSUMER_TYPES, 'team-chat'),
  /** Given on connect, optional. */
  name: string().optional(),
  status: string().enum(...STATUSES),
  org_id: string(),
  workspace_id: string(),
  /** Key types: the key's SHA-256 and its first characters. */
  key_hash: string().optional(),
  key_prefix: string().optional(),
  created_at: string(),
  revoked_at: string().optional(),
  /** Key types: copied from the key record when it is written (`recordKeyUse`). */
  last_used_at: string().optional(),
});

const CONSUMER_PREFIX = 'CONSUMER#';

export const consumerKey = (orgId: string, workspaceId: string, consumerId: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `${CONSUMER_PREFIX}${consumerId}`,
});

/** Whether an item of the workspace's partition is a consumer. */
export const isConsumerItem = (item: { sk: string }) => item.sk.startsWith(CONSUMER_PREFIX);

/** A consumer's entry in the lookup by its id alone. */
export const consumerLookup = (consumerId: string) => indexEntry('lookups', `CONSUMERID#${consumerId}`, 'CONSUMER');

/** A consumer's status (and its name, when one is given), whatever it was. */
export function consumerStatusUpdate(key: Key, status: (typeof STATUSES)[number], changes: { name?: string; revoked_at?: string } = {}) {
  return updateOf(consumerEntity.build(UpdateItemCommand).item({ ...key, status, ...changes }));
}

/** When a key consumer's key last authenticated, if the consumer is still there. */
export function consumerUseUpdate(key: Key, at: string) {
  const command = consumerEntity
    .build(UpdateItemCommand)
    .item({ ...key, last_used_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** The record a Bearer key authenticates as (`APIKEY#<key hash>` / `KEY`). */
const apiKeyEntity = tableEntity('api-key', {
  consumer_id: string(),
  workspace_id: string(),
  org_id: string(),
  type: string().enum(...KEY_CONSUMER_TYPES),
  status: string().enum(...STATUSES),
  /** When the key last authenticated, to the minute (`recordKeyUse`). */
  last_used_at: string().optional(),
});

export type ApiKeyItem = FormattedItem<typeof apiKeyEntity>;

export const apiKeyKey = (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: 'KEY' });

/** A key record revoked. */
export const keyRevocation = (hash: string) =>
  updateOf(apiKeyEntity.build(UpdateItemCommand).item({ ...apiKeyKey(hash), status: 'revoked' }));

/** A key's use at `at`, recorded only if the record is there and has none since `cutoff` (one of requests at once wins). */
export function keyUseUpdate(key: Key, at: string, cutoff: string) {
  const command = apiKeyEntity
    .build(UpdateItemCommand)
    .item({ ...key, last_used_at: at })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          {
            or: [
              { attr: 'last_used_at', exists: false },
              { attr: 'last_used_at', lt: cutoff },
            ],
          },
        ],
      },
    });
  return updateOf(command);
}

// --- Access patterns ---

/**
 * The consumers of an id (a team-chat consumer's id is `tc-<workspace id>`, and workspace ids are
 * unique only within an organisation: one such consumer per organisation).
 */
export const consumersById = (consumerId: string): QueryInput => ({ index: 'lookups', pk: `CONSUMERID#${consumerId}` });
