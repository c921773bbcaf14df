import { toConnection, toTool, isConnectionItem, isToolItem } from '../connections/index.js';
import type { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import type { Pagination } from '../http/schemas.js';
import { str, strOrNull } from '../platform/attributes.js';
import { readPage } from '../platform/pages.js';
import type { Item } from '../platform/table.js';
import {
  type ConnectionSchema,
  type ConsumerSchema,
  type GuardrailSchema,
  type KnowledgeEntrySchema,
  type KnowledgeGapSchema,
  type PermissionSchema,
  type ToolSchema,
  type ViolationSchema,
  isWorkspaceItem,
  workspaceWithChildren,
  ownedWorkspace,
  type WorkspaceItem,
} from '../workspaces/index.js';
import { channelsOf } from '../chat/index.js';
import { isConsumerItem } from '../consumers/index.js';
import { isGuardrailItem, violationsOf } from '../guardrails/index.js';
import { isKnowledgeItem, recentGaps } from '../knowledge/index.js';

type Connection = z.infer<typeof ConnectionSchema>;
type Tool = z.infer<typeof ToolSchema>;
type KnowledgeEntry = z.infer<typeof KnowledgeEntrySchema>;
type Guardrail = z.infer<typeof GuardrailSchema>;
type Consumer = z.infer<typeof ConsumerSchema>;
type Permission = z.infer<typeof PermissionSchema>;
type KnowledgeGap = z.infer<typeof KnowledgeGapSchema>;
type Violation = z.infer<typeof ViolationSchema>;

/** Item → API shapes. Each picks its fields explicitly so nothing internal (hashes, tokens) leaks. */
const toKnowledge = (item: Item): KnowledgeEntry => ({
  id: str(item.id),
  title: str(item.title),
  content: str(item.content),
  created_at: str(item.created_at),
  updated_at: str(item.updated_at),
});
const toGuardrail = (item: Item): Guardrail => ({
  id: str(item.id),
  name: str(item.name),
  type: str(item.type),
  pattern: str(item.pattern),
  action: str(item.action),
  applies_to: str(item.applies_to),
  enabled: item.enabled !== false,
});
const toConsumer = (item: Item): Consumer => ({
  id: str(item.id),
  type: str(item.type),
  name: strOrNull(item.name),
  status: str(item.status, 'active'),
  channels: Array.isArray(item.channels)
    ? item.channels.map((channel: Record<string, unknown>) => ({
        channel_id: str(channel.channel_id),
        channel_name: strOrNull(channel.channel_name),
      }))
    : [],
  created_at: str(item.created_at),
  last_used_at: strOrNull(item.last_used_at),
});
export const toGap = (item: Item): KnowledgeGap => ({
  id: str(item.id),
  question: str(item.question),
  conversation_id: str(item.conversation_id),
  created_at: str(item.created_at),
});
const toViolation = (item: Item): Violation => ({
  id: str(item.id),
  guardrail_id: str(item.guardrail_id),
  guardrail_name: str(item.guardrail_name),
  conversation_id: str(item.conversation_id),
  direction: str(item.direction),
  action: str(item.action),
  excerpt: str(item.excerpt),
  created_at: str(item.created_at),
});

export interface WorkspaceChildren {
  connections: Connection[];
  tools: Tool[];
  knowledge: KnowledgeEntry[];
  guardrails: Guardrail[];
  consumers: Consumer[];
}

/**
 * A workspace heads its own partition (entities.ts): the workspace item, then its configuration
 * children. One Query reads them all and checks tenancy. Conversations, activity, gaps and violations grow
 * without bound and have partitions of their own.
 */
export async function readWorkspace(
  deps: Deps,
  orgId: string,
  workspaceId: string,
): Promise<{ workspace: WorkspaceItem; children: WorkspaceChildren }> {
  const items = await deps.table.queryAll(workspaceWithChildren(orgId, workspaceId));
  const workspace = ownedWorkspace(items.find(isWorkspaceItem), orgId, workspaceId);
  const children: WorkspaceChildren = { connections: [], tools: [], knowledge: [], guardrails: [], consumers: [] };
  for (const item of items) {
    if (isConnectionItem(item)) children.connections.push(toConnection(item));
    else if (isToolItem(item)) children.tools.push(toTool(item));
    else if (isKnowledgeItem(item)) children.knowledge.push(toKnowledge(item));
    else if (isGuardrailItem(item)) children.guardrails.push(toGuardrail(item));
    else if (isConsumerItem(item)) children.consumers.push(toConsumer(item));
  }
  return { workspace, children };
}

export function permissionsOf(workspace: WorkspaceItem): Permission[] {
  return Object.entries(workspace.permissions ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, toolPatterns]) => ({ role, tool_patterns: toolPatterns }));
}

/**
 * Connections as a viewer of `role` may see them: where they point (`url`, `args`) is for admins
 * only, since a URL or an argument can carry an internal host name or a token.
 */
export function connectionsFor(role: string, connections: Connection[]): Connection[] {
  return role === 'admin' ? connections : connections.map((connection) => ({ ...connection, url: null, args: [], headers: {}, env: {} }));
}

export async function listConnections(deps: Deps, viewer: { orgId: string; role: string }, workspaceId: string) {
  const { connections, tools } = (await readWorkspace(deps, viewer.orgId, workspaceId)).children;
  return { connections: connectionsFor(viewer.role, connections), tools };
}

/** The team-chat consumer lists the channels bound to the workspace. */
export function withChannels(consumers: Consumer[], channels: Consumer['channels']): Consumer[] {
  return consumers.map((consumer) => (consumer.type === 'team-chat' ? { ...consumer, channels } : consumer));
}

export async function listConsumers(deps: Deps, orgId: string, workspaceId: string) {
  const [{ children }, channels] = await Promise.all([readWorkspace(deps, orgId, workspaceId), channelsOf(deps, orgId, workspaceId)]);
  return { consumers: withChannels(children.consumers, channels) };
}

/** Most recent gaps shown with the knowledge list. */
const RECENT_LIMIT = 50;

export async function listKnowledge(deps: Deps, orgId: string, workspaceId: string) {
  const [{ children }, gaps] = await Promise.all([
    readWorkspace(deps, orgId, workspaceId),
    deps.table.query(recentGaps(orgId, workspaceId, RECENT_LIMIT)),
  ]);
  return { knowledge: children.knowledge, gaps: gaps.items.map(toGap) };
}

export async function listCompliance(deps: Deps, orgId: string, workspaceId: string, page: Pagination) {
  const [{ children }, violations] = await Promise.all([
    readWorkspace(deps, orgId, workspaceId),
    readPage<Item>(deps.table, violationsOf(orgId, workspaceId), page),
  ]);
  return { guardrails: children.guardrails, violations: violations.items.map(toViolation), next_cursor: violations.nextCursor };
}
