import { keys } from '../platform/keys.js';
import type { DiscoveredTool } from './mcp-hub.js';

/** A tool as cached with its connection (`WS#<workspace>` / `TOOL#<connection>#<name>`). */
export interface ToolItem {
  pk: string;
  sk: string;
  id: string;
  name: string;
  description: string;
  /**
   * The tool's JSON Schema as the server sent it, as JSON text: DynamoDB refuses a map nested
   * more than 32 levels (dynalite does not check), and a query reads every tool of its workspace,
   * which a string makes cheaper to read than a nested map. Tools cached before were stored as a
   * map (`toolSchemaOf` reads both).
   */
  input_schema: string | Record<string, unknown>;
  is_write: boolean;
  connection_id: string;
}

/** A cached tool's JSON Schema (stored as JSON text, or as a map by older versions). */
export function toolSchemaOf(tool: ToolItem): Record<string, unknown> {
  if (typeof tool.input_schema !== 'string') return tool.input_schema;
  const schema: unknown = JSON.parse(tool.input_schema);
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
}

/** The cache items of a connection's listed tools. */
export function toolItemsOf(orgId: string, workspaceId: string, connectionId: string, tools: DiscoveredTool[]): ToolItem[] {
  return tools.map((tool) => ({
    ...keys.tool(orgId, workspaceId, connectionId, tool.name),
    id: `${connectionId}:${tool.name}`,
    name: tool.name,
    description: tool.description,
    input_schema: JSON.stringify(tool.inputSchema),
    is_write: tool.isWrite,
    connection_id: connectionId,
  }));
}
