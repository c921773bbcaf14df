import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import type { Key } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';

export type KeyConsumerType = 'api' | 'messaging' | 'coding-agent';

/** The key record, found by the key's hash: what a Bearer key authenticates as. */
export interface ApiKeyItem extends Key {
  consumer_id: string;
  workspace_id: string;
  org_id: string;
  type: KeyConsumerType;
  status: 'active' | 'revoked';
}

/** Keys are long random strings: a SHA-256 of one is enough to store (no key is ever stored). */
function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const PREFIX = { api: 'wap_api', messaging: 'wap_msg', 'coding-agent': 'wap_mcp' } as const;

/**
 * Connects an `api`, `messaging` or `coding-agent` consumer: a new key, returned once and stored
 * only as its hash. The consumer item is listed with the workspace's consumers; the key record is
 * what authenticates.
 */
export async function connectKeyConsumer(deps: Deps, orgId: string, workspaceId: string, type: KeyConsumerType) {
  const workspace = await getWorkspaceItem(deps, orgId, workspaceId);
  const now = deps.clock.now();
  const id = newId('cons', now);
  const apiKey = `${PREFIX[type]}_${randomBytes(32).toString('base64url')}`;
  const hash = hashKey(apiKey);
  await deps.table.put({
    ...keys.consumer(workspace.org_id, workspace.id, id),
    ...keys.consumerIdEntry(id),
    id,
    type,
    status: 'active',
    org_id: orgId,
    workspace_id: workspace.id,
    key_hash: hash,
    key_prefix: apiKey.slice(0, 12),
    created_at: now.toISOString(),
  });
  const record: ApiKeyItem = { ...keys.apiKey(hash), consumer_id: id, workspace_id: workspace.id, org_id: orgId, type, status: 'active' };
  await deps.table.put(record);
  const use = {
    api: `Use it as "Authorization: Bearer <key>" on /api/workspaces/${workspace.id}/query and its conversation endpoints.`,
    messaging: `POST messages to /api/consumers/${id}/messages with "Authorization: Bearer <key>".`,
    'coding-agent': `Point your coding agent's MCP client at /api/workspaces/${workspace.id}/mcp with "Authorization: Bearer <key>".`,
  }[type];
  return {
    status: 'connected' as const,
    id,
    api_key: apiKey,
    message: `Connected a ${type} consumer to ${workspace.name}. The key is shown only now. ${use}`,
  };
}

/** The active key record of a presented key, or undefined (unknown or revoked). */
export async function findKey(deps: Deps, presented: string): Promise<ApiKeyItem | undefined> {
  const record = await deps.table.get<ApiKeyItem>(keys.apiKey(hashKey(presented)), true);
  return record?.status === 'active' ? record : undefined;
}

/**
 * `DELETE /api/connectors/consumer/:id`: revokes a consumer. A key consumer's key stops working
 * at once (its record is marked revoked); a team-chat consumer's channels are unbound. The
 * consumer stays listed, with status `revoked`.
 */
export async function revokeConsumer(deps: Deps, orgId: string, consumerId: string): Promise<void> {
  // A team-chat consumer's id is `tc-<workspace id>`, and workspace ids are unique only within an
  // organisation: the index may hold one such consumer per organisation.
  const found = await deps.table.queryAll({ index: 'gsi2', pk: keys.consumerIdIndex(consumerId) });
  const consumer = found.find((item) => item.org_id === orgId);
  if (!consumer) throw new NotFoundError(`consumer ${consumerId} not found`);
  const workspaceId = String(consumer.workspace_id);
  if (typeof consumer.key_hash === 'string') {
    await deps.table.update(keys.apiKey(consumer.key_hash), {
      update: 'SET #status = :revoked',
      names: { '#status': 'status' },
      values: { ':revoked': 'revoked' },
    });
  }
  if (consumer.type === 'team-chat') {
    const bindings = await deps.table.queryAll({ index: 'gsi1', pk: keys.workspaceChannelsIndex(orgId, workspaceId) });
    await Promise.all(bindings.map((binding) => deps.table.delete({ pk: binding.pk, sk: binding.sk })));
  }
  await deps.table.update(keys.consumer(orgId, workspaceId, consumerId), {
    update: 'SET #status = :revoked, revoked_at = :at',
    names: { '#status': 'status' },
    values: { ':revoked': 'revoked', ':at': deps.clock.now().toISOString() },
  });
}
