import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import { newId } from '../platform/ids.js';
import { unlessConditionFailed } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { tokenHash } from '../platform/compare.js';
import {
  type ApiKeyItem,
  apiKeyKey,
  consumerKey,
  consumerLookup,
  consumerUseUpdate,
  type KeyConsumerType,
  keyUseUpdate,
} from './entities.js';

const PREFIX = { api: 'wap_api', messaging: 'wap_msg', 'coding-agent': 'wap_mcp' } as const;

/**
 * Connects an `api`, `messaging` or `coding-agent` consumer: a new key, returned once and stored
 * only as its hash. The consumer item is listed with the workspace's consumers; the key record is
 * what authenticates.
 */
export async function connectKeyConsumer(
  deps: Deps,
  orgId: string,
  input: { workspace_id: string; type: KeyConsumerType; name?: string | undefined },
) {
  const { type, name } = input;
  const workspace = await getWorkspaceItem(deps, orgId, input.workspace_id);
  const now = deps.clock.now();
  const id = newId('cons', now);
  const apiKey = `${PREFIX[type]}_${randomBytes(32).toString('base64url')}`;
  const hash = tokenHash(apiKey);
  await deps.table.put({
    ...consumerKey(workspace.org_id, workspace.id, id),
    ...consumerLookup(id),
    id,
    type,
    status: 'active',
    org_id: orgId,
    workspace_id: workspace.id,
    key_hash: hash,
    key_prefix: apiKey.slice(0, 12),
    ...(name ? { name } : {}),
    created_at: now.toISOString(),
  });
  const record: ApiKeyItem = { ...apiKeyKey(hash), consumer_id: id, workspace_id: workspace.id, org_id: orgId, type, status: 'active' };
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

/**
 * The active key record of a presented key, or undefined (unknown or revoked): read consistently,
 * and cached for a few seconds (auth/session-cache.ts: a revocation holds at once in the process
 * that made it, within `AUTH_CACHE_MS` in the others).
 */
export async function findKey(deps: Deps, presented: string): Promise<ApiKeyItem | undefined> {
  const hash = tokenHash(presented);
  const record = await deps.apiKeys.read(hash, async () => {
    const found = await deps.table.get<ApiKeyItem>(apiKeyKey(hash), true);
    return found?.status === 'active' ? found : null;
  });
  return record ?? undefined;
}

/** How stale a key's `last_used_at` may get: a key that authenticates writes it at most once a minute. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Records that a key authenticated, at most once a minute per key: decided from the key record the
 * request read anyway, so a key in steady use costs no write per request (and the request does not
 * wait for the one it makes: the middleware runs it alongside). A conditional update of
 * the key record (only if still older than a minute: one of several requests at once wins), then
 * the consumer item the listing reads. A failure to record it never fails the request.
 */
export async function recordKeyUse(deps: Deps, record: ApiKeyItem): Promise<void> {
  const now = deps.clock.now();
  if (record.last_used_at && now.getTime() - Date.parse(record.last_used_at) < LAST_USED_EVERY_MS) return;
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString();
  // The record is this process's cached one (findKey): the next requests within the minute see it recorded.
  record.last_used_at = at;
  try {
    const used = keyUseUpdate({ pk: record.pk, sk: record.sk }, at, cutoff);
    const won = await unlessConditionFailed(
      deps.table.update(used.key, used.input).then(() => true),
      false,
    );
    if (!won) return;
    const { key, input } = consumerUseUpdate(consumerKey(record.org_id, record.workspace_id, record.consumer_id), at);
    await deps.table.update(key, input);
  } catch (error) {
    deps.logger.warn('could not record when a key was last used', { consumerId: record.consumer_id, error });
  }
}
