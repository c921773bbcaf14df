import { putNew } from '../platform/updates.js';
import type { Deps } from '../deps.js';
import { ConflictError, hasErrorCode, NotFoundError, ValidationError } from '../platform/errors.js';
import { onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import { consumerKey, consumerLookup, consumerStatusUpdate } from '../consumers/index.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { readSetting } from '../org/index.js';
import { bindingExists, bindingFreeFor, type ChannelBinding, channelBindingKey, channelListing, channelsOfWorkspace } from './entities.js';
import type { BindChannelInput } from './schemas.js';

/*
 * Channel bindings: one item per organisation and channel, so a channel belongs to one workspace;
 * claimed with a conditional put (a rebind to the same workspace passes, another workspace gets
 * 409), and listed per workspace (chat/entities.ts).
 */

/** The team-chat consumer of a workspace has a fixed id: connecting twice is the same consumer. */
const teamChatConsumerId = (workspaceId: string) => `tc-${workspaceId}`;

export async function getBinding(deps: Deps, orgId: string, channelId: string): Promise<ChannelBinding | undefined> {
  return deps.table.get<ChannelBinding>(channelBindingKey(orgId, channelId));
}

/** Creates the workspace's team-chat consumer (idempotent); a name given renames it. */
export async function ensureTeamChatConsumer(deps: Deps, orgId: string, workspaceId: string, name?: string): Promise<string> {
  const id = teamChatConsumerId(workspaceId);
  const created = await putNew(deps.table, {
    ...consumerKey(orgId, workspaceId, id),
    ...consumerLookup(id),
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
    const { key, input } = consumerStatusUpdate(consumerKey(orgId, workspaceId, id), 'active', name ? { name } : {});
    await deps.table.update(key, input);
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
  const consumer = await deps.table.get(consumerKey(workspace.org_id, workspace.id, teamChatConsumerId(workspace.id)));
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
    ...channelBindingKey(orgId, input.channel_id),
    org_id: orgId,
    channel_id: input.channel_id,
    channel_name: input.channel_name ?? null,
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    created_at: deps.clock.now().toISOString(),
  };
  const listed = channelListing(workspace.org_id, workspace.id, input.channel_id);
  const bound = await unlessConditionFailed(
    deps.table.put({ ...binding, ...listed }, bindingFreeFor(workspace.id)).then(() => true),
    false,
  );
  if (!bound) throw boundElsewhere(input.channel_id, await getBinding(deps, orgId, input.channel_id));
  const name = input.channel_name ? `#${input.channel_name} (${input.channel_id})` : input.channel_id;
  return { status: 'saved', message: `Channel ${name} is bound to ${workspace.name}` };
}

/** `DELETE /api/connectors/consumer/channel/:channel_id`. */
export async function unbindChannel(deps: Deps, orgId: string, channelId: string): Promise<void> {
  await onConditionFailed(
    deps.table.delete(channelBindingKey(orgId, channelId), bindingExists()),
    () => new NotFoundError(`channel ${channelId} is not bound`),
  );
}

/**
 * Posts `text` in each team-chat channel bound to the workspace (a budget's alert, a routine's
 * answer): in the channel itself, or in the thread `threads` names for that channel (a routine's
 * answer under the approval message it waited on). An organisation without team chat is skipped:
 * its notices go by webhook only.
 */
export async function postInWorkspaceChannels(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  text: string,
  threads: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  for (const channel of await channelsOf(deps, orgId, workspaceId)) {
    await deps.chat.postInThread(orgId, channel.channel_id, threads.get(channel.channel_id) ?? '', text).catch((error: unknown) => {
      if (!hasErrorCode(error, 'not_connected')) throw error;
    });
  }
}

/** The channels bound to a workspace. */
export async function channelsOf(
  deps: Deps,
  orgId: string,
  workspaceId: string,
): Promise<{ channel_id: string; channel_name: string | null }[]> {
  const bindings = await deps.table.queryAll<ChannelBinding>(channelsOfWorkspace(orgId, workspaceId));
  return bindings.map((binding) => ({ channel_id: binding.channel_id, channel_name: binding.channel_name }));
}
