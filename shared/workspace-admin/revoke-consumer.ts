import { channelsOfWorkspace } from '../chat/index.js';
import { consumerKey, consumersById, consumerStatusUpdate, keyRevocation } from '../consumers/index.js';
import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';

/*
 * Revoking a consumer of any type: a key's record, or team chat's channel bindings (chat/), then the
 * consumer item itself. Here, above both consumers/ and chat/, because team chat is a consumer.
 */

/**
 * `DELETE /api/connectors/consumer/:id`: revokes a consumer. A key consumer's key stops working
 * (its record is marked revoked): at once in this process, within `AUTH_CACHE_MS` in the others
 * (findKey); a team-chat consumer's channels are unbound. The
 * consumer stays listed, with status `revoked`.
 */
export async function revokeConsumer(deps: Deps, orgId: string, consumerId: string): Promise<void> {
  const found = await deps.table.queryAll(consumersById(consumerId));
  const consumer = found.find((item) => item.org_id === orgId);
  if (!consumer) throw new NotFoundError(`consumer ${consumerId} not found`);
  const workspaceId = String(consumer.workspace_id);
  if (typeof consumer.key_hash === 'string') {
    const { key, input } = keyRevocation(consumer.key_hash);
    await deps.table.update(key, input);
    deps.apiKeys.forgetAll();
  }
  if (consumer.type === 'team-chat') {
    const bindings = await deps.table.queryAll(channelsOfWorkspace(orgId, workspaceId));
    await Promise.all(bindings.map((binding) => deps.table.delete({ pk: binding.pk, sk: binding.sk })));
  }
  const revoked = consumerStatusUpdate(consumerKey(orgId, workspaceId, consumerId), 'revoked', {
    revoked_at: deps.clock.now().toISOString(),
  });
  await deps.table.update(revoked.key, revoked.input);
}
