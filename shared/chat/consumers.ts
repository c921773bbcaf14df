import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { type Key, onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import { keys } from '../platform/keys.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';
import { readSetting } from '../org/settings.js';
import type { BindChannelInput } from './schemas.js';

/**
 * A channel binding: one item per organisation and channel, so a channel belongs to one
 * workspace; claimed with a conditional put (a rebind to the same workspace passes, another
 * workspace gets 409). Listed per workspace through GSI1.
 */
export interface ChannelBinding extends Key {
  org_id: string;
  channel_id: string;
  channel_name: string | null;
  workspace_id: string;
  workspace_name: string;
  gsi1pk: string;
  gsi1sk: string;
  created_at: string;
}

/** The team-chat consumer of a workspace has a fixed id: connecting twice is the same consumer. */
const teamChatConsumerId = (workspaceId: string) => `tc-${workspaceId}`;

export async function getBinding(deps: Deps, orgId: string, channelId: string): Promise<ChannelBinding | undefined> {
  return deps.table.get<ChannelBinding>(keys.channelBinding(orgId, channelId));
}

/** Creates the workspace's team-chat consumer (idempotent); a name given renames it. */
export async function ensureTeamChatConsumer(deps: Deps, orgId: string, workspaceId: string, name?: string): Promise<string> {
  const id = teamChatConsumerId(workspaceId);
  const created = await deps.table.putNew({
    ...keys.consumer(orgId, workspaceId, id),
    ...keys.consumerIdEntry(id),
    id,
    type: 'team-chat',
    status: 'active',
    org_id: orgId,
    workspace_id: workspaceId,
    ...(name ? { name } : {}),
    created_at: deps.clock.now().toISOString(),
  });
  if (!created) {
    // Connecting again reactivates a revoked team-chat consumer.
    await deps.table.update(keys.consumer(orgId, workspaceId, id), {
      update: name ? 'SET #status = :active, #name = :name' : 'SET #status = :active',
      names: name ? { '#status': 'status', '#name': 'name' } : { '#status': 'status' },
      values: name ? { ':active': 'active', ':name': name } : { ':active': 'active' },
    });
  }
  return id;
}

function boundElsewhere(channelId: string, holder: ChannelBinding | undefined): ConflictError {
  return new ConflictError(
    `channel ${channelId} is already bound to workspace "${holder?.workspace_name ?? 'another workspace'}" (${holder?.workspace_id ?? 'unknown'})`,
  );
}

/** True when the organisation has both team-chat tokens (the bridge runs its socket). */
async function botConnected(deps: Deps, orgId: string): Promise<boolean> {
  const [bot, app] = await Promise.all([readSetting(deps, orgId, 'chat_bot_token'), readSetting(deps, orgId, 'chat_app_token')]);
  return Boolean(bot && app);
}

/**
 * `POST /api/connectors/consumer/channel`: binds a channel to a workspace. One conditional put
 * decides: twenty parallel binds of one channel to different workspaces give one winner.
 */
export async function bindChannel(deps: Deps, orgId: string, input: BindChannelInput): Promise<{ status: 'saved'; message: string }> {
  const workspace = await getWorkspaceItem(deps, orgId, input.workspace_id);
  const consumer = await deps.table.get(keys.consumer(workspace.org_id, workspace.id, teamChatConsumerId(workspace.id)));
  if (consumer?.status !== 'active') {
    // The organisation's bot is already connected (by another workspace): this workspace's
    // team-chat consumer is made here, with no second post of the tokens.
    if (!(await botConnected(deps, orgId))) {
      throw new ValidationError('invalid request body', [
        {
          path: 'workspace_id',
          message: 'connect the team-chat bot first: POST /api/connectors/consumer with type team-chat and its tokens',
        },
      ]);
    }
    // A channel held by another workspace is refused before anything is made.
    const holder = await getBinding(deps, orgId, input.channel_id);
    if (holder && holder.workspace_id !== workspace.id) throw boundElsewhere(input.channel_id, holder);
    await ensureTeamChatConsumer(deps, orgId, workspace.id);
  }
  const binding: ChannelBinding = {
    ...keys.channelBinding(orgId, input.channel_id),
    org_id: orgId,
    channel_id: input.channel_id,
    channel_name: input.channel_name ?? null,
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    ...keys.workspaceChannelsEntry(workspace.org_id, workspace.id, input.channel_id),
    created_at: deps.clock.now().toISOString(),
  };
  const bound = await unlessConditionFailed(
    deps.table
      .put(binding, {
        condition: 'attribute_not_exists(pk) OR workspace_id = :workspace',
        values: { ':workspace': workspace.id },
      })
      .then(() => true),
    false,
  );
  if (!bound) throw boundElsewhere(input.channel_id, await getBinding(deps, orgId, input.channel_id));
  const name = input.channel_name ? `#${input.channel_name} (${input.channel_id})` : input.channel_id;
  return { status: 'saved', message: `Channel ${name} is bound to ${workspace.name}` };
}

/** `DELETE /api/connectors/consumer/channel/:channel_id`. */
export async function unbindChannel(deps: Deps, orgId: string, channelId: string): Promise<void> {
  await onConditionFailed(
    deps.table.delete(keys.channelBinding(orgId, channelId), { condition: 'attribute_exists(pk)' }),
    () => new NotFoundError(`channel ${channelId} is not bound`),
  );
}

/** The channels bound to a workspace (GSI1). */
export async function channelsOf(
  deps: Deps,
  orgId: string,
  workspaceId: string,
): Promise<{ channel_id: string; channel_name: string | null }[]> {
  const bindings = await deps.table.queryAll<ChannelBinding>({ index: 'gsi1', pk: keys.workspaceChannelsIndex(orgId, workspaceId) });
  return bindings.map((binding) => ({ channel_id: binding.channel_id, channel_name: binding.channel_name }));
}
