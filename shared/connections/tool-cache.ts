import type { Deps } from '../deps.js';
import { connectionsOfWorkspace, toolKey } from './entities.js';
import type { DiscoveredTool, ToolListing } from './tool-listing.js';

/** A tool as cached with its connection (entities.ts: in its workspace's partition). */
export interface ToolItem {
  pk: string;
  sk: string;
  id: string;
  name: string;
  description: string;
  /**
   * The tool's JSON Schema as the server sent it, as JSON text: DynamoDB refuses a map nested
   * more than 32 levels (dynalite does not check), and a query reads every tool of its workspace,
   * which a string makes cheaper to read than a nested map.
   */
  input_schema: string;
  is_write: boolean;
  connection_id: string;
}

/** A cached tool's JSON Schema (stored as JSON text). */
export function toolSchemaOf(tool: ToolItem): Record<string, unknown> {
  const schema: unknown = JSON.parse(tool.input_schema);
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
}

/** The cache items of a connection's listed tools. */
export function toolItemsOf(orgId: string, workspaceId: string, connectionId: string, tools: DiscoveredTool[]): ToolItem[] {
  return tools.map((tool) => ({
    ...toolKey(orgId, workspaceId, connectionId, tool.name),
    id: `${connectionId}:${tool.name}`,
    name: tool.name,
    description: tool.description,
    input_schema: JSON.stringify(tool.inputSchema),
    is_write: tool.isWrite,
    connection_id: connectionId,
  }));
}

/**
 * A connection's listing within its workspace's bound (`MCP_MAX_TOOLS_PER_WORKSPACE`): the tools the
 * workspace's other connections hold leave this one its room, and what is past it is dropped and
 * noted. A listing with a note is logged as a warning. Checked against the stored counts, so saves
 * that race may pass the bound together (each within its own connection's bound).
 */
export async function fitToWorkspace(
  deps: Deps,
  connection: { orgId: string; workspaceId: string; id: string; name: string },
  listing: ToolListing,
): Promise<ToolListing> {
  const { orgId, workspaceId, id } = connection;
  const connections = await deps.table.queryAll(connectionsOfWorkspace(orgId, workspaceId));
  const held = connections.filter((item) => item.id !== id).reduce((sum, item) => sum + (Number(item.tool_count) || 0), 0);
  const { perWorkspace } = deps.config.mcpToolLimits;
  const room = Math.max(0, perWorkspace - held);
  const fitted: ToolListing =
    listing.tools.length <= room
      ? listing
      : {
          tools: listing.tools.slice(0, room),
          truncated: [
            listing.truncated,
            `the workspace's other connections hold ${held} tools: ${room} of this one's ${listing.tools.length} are kept (MCP_MAX_TOOLS_PER_WORKSPACE is ${perWorkspace})`,
          ]
            .filter(Boolean)
            .join('; '),
        };
  if (fitted.truncated) {
    const where = { org_id: orgId, workspace_id: workspaceId, connection_id: id, connection: connection.name };
    deps.logger.warn("a tool server's list was cut to the tool limits", { ...where, tools_truncated: fitted.truncated });
  }
  return fitted;
}
