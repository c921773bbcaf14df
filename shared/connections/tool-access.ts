import type { ConnectionItem } from './connections.js';
import type { ToolItem } from './tool-cache.js';
import { blockingGuardrail, toGuardrail, type Guardrail, type GuardrailItem, isGuardrailItem } from '../guardrails/index.js';
import { globMatcher, type GlobMatcher } from '../platform/globs.js';
import type { Item } from '../platform/table.js';
import { isConnectionItem, isToolItem } from './entities.js';
import { isWorkspaceItem, ownedWorkspace, type WorkspaceItem } from '../workspaces/index.js';

/*
 * Which of a workspace's cached tools a caller may use, and the names they answer to: one place for
 * the query's offered tools and the tool search, so a tool the caller may not use is neither
 * offered nor found.
 */

/**
 * What decides a workspace's tools, from one Query of its partition (`workspaceWithChildren`): the workspace
 * item, its connections, their cached tools and its guardrails. Another organisation's workspace is
 * 404, like a missing one.
 */
export function workspaceToolsOf(items: Item[], orgId: string, workspaceId: string) {
  const workspace = ownedWorkspace(items.find(isWorkspaceItem), orgId, workspaceId);
  const connections = items.filter(isConnectionItem) as unknown as ConnectionItem[];
  const toolsByConnection = new Map<string, ToolItem[]>();
  for (const item of items) {
    if (!isToolItem(item)) continue;
    const tool = item as unknown as ToolItem;
    const listed = toolsByConnection.get(tool.connection_id);
    if (listed) listed.push(tool);
    else toolsByConnection.set(tool.connection_id, [tool]);
  }
  const guardrails = (items.filter(isGuardrailItem) as unknown as GuardrailItem[]).map(toGuardrail);
  return { workspace, connections, toolsByConnection, guardrails };
}

/** A cached tool with the names it goes by in its workspace. */
export interface NamedTool {
  tool: ToolItem;
  connection: ConnectionItem;
  /** The name offered to the model (and returned by the tool search). */
  name: string;
  /** The names permissions and `block_tool` guardrails match: see `namesOf`. */
  names: string[];
}

/** The patterns of a role (`permissions[role]`, a JSON-encoded array); none when unset or unreadable. */
function patternsFor(workspace: WorkspaceItem, role: string): GlobMatcher[] {
  const raw = workspace.permissions?.[role];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').map(globMatcher) : [];
  } catch {
    return [];
  }
}

/** Tool names the model accepts: letters, digits, `_` and `-`, at most 64 characters. */
function safeToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

/**
 * The names a tool answers to in permissions and `block_tool` guardrails: its MCP name, the name
 * offered to the model, and `<connection>__<tool>`. Rules match any of them, so a rule written for
 * one spelling still holds when a second connection renames the tool.
 */
function namesOf(connectionName: string, toolName: string, offeredName: string): string[] {
  return [...new Set([toolName, offeredName, `${connectionName}__${toolName}`])];
}

/**
 * Every cached tool of the workspace's connections, ordered by connection name and then tool
 * name: named by its MCP name, prefixed with the connection name only where two connections
 * expose the same name.
 */
export function namedTools(connections: ConnectionItem[], toolsByConnection: Map<string, ToolItem[]>): NamedTool[] {
  const counts = new Map<string, number>();
  for (const connection of connections) {
    for (const tool of toolsByConnection.get(connection.id) ?? []) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  }
  const named: NamedTool[] = [];
  for (const connection of [...connections].sort((a, b) => a.name.localeCompare(b.name))) {
    const tools = [...(toolsByConnection.get(connection.id) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const tool of tools) {
      const shared = (counts.get(tool.name) ?? 0) > 1;
      const name = safeToolName(shared ? `${connection.name}__${tool.name}` : tool.name);
      named.push({ tool, connection, name, names: namesOf(connection.name, tool.name, name) });
    }
  }
  return named;
}

/**
 * Whether a caller of `role` may use a tool, given its names: the role's permission patterns must
 * match one of them and no enabled `block_tool` guardrail may (patterns compiled once per call).
 */
export function toolPermission(workspace: WorkspaceItem, role: string, guardrails: Guardrail[]): (names: string[]) => boolean {
  const patterns = patternsFor(workspace, role);
  return (names) => patterns.some((matches) => names.some((candidate) => matches(candidate))) && !blockingGuardrail(guardrails, names);
}
