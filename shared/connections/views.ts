import type { z } from '@hono/zod-openapi';
import { num, str, strOrNull, strings } from '../platform/attributes.js';
import type { Item } from '../platform/table.js';
import type { ConnectionSchema, ToolSchema } from '../workspaces/index.js';
import { masked } from './credentials.js';

type Connection = z.infer<typeof ConnectionSchema>;
type Tool = z.infer<typeof ToolSchema>;

/** A connection and its tools as the API shows them. Each picks its fields explicitly so nothing internal (hashes, tokens) leaks. */
export const toConnection = (item: Item): Connection => ({
  id: str(item.id),
  name: str(item.name),
  type: str(item.type, 'mcp'),
  status: str(item.status, 'connected'),
  transport: item.transport === 'stdio' ? 'stdio' : 'http',
  url: strOrNull(item.url),
  command: strOrNull(item.command),
  args: strings(item.args),
  headers: masked(item.header_names),
  env: masked(item.env_names),
  last_error: strOrNull(item.last_error),
  auth: item.auth === 'oauth' ? 'oauth' : 'none',
  credential: item.auth === 'oauth' ? (item.credential === 'per_user' ? 'per_user' : 'workspace') : null,
  tool_count: num(item.tool_count),
  // What the last listing of its tools dropped or cut (tool limits, docs/connections.md); absent when nothing.
  ...(typeof item.tools_truncated === 'string' && item.tools_truncated ? { tools_truncated: item.tools_truncated } : {}),
  created_at: str(item.created_at),
});
export const toTool = (item: Item): Tool => ({
  id: str(item.id),
  name: str(item.name),
  is_write: item.is_write !== false,
  connection_id: str(item.connection_id),
  description: str(item.description),
});
