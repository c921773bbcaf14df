import { mcpOf, type Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { onConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters } from '../workspaces/counters.js';
import { toConnection } from '../workspaces/children.js';
import { type ConnectionItem, findConnection, replaceTools, specOf } from './connections.js';
import { checkCredentials, credentialsOf, sealCredentials } from './credentials.js';
import { type ConnectionCredentials, type ConnectionSpec, McpConnectionError } from './mcp-hub.js';
import type { UpdateMcpInput } from './schemas.js';
import { UnresolvableHostError, UrlRefusedError } from './url-policy.js';

/** The connection's settings after the edit: what is given replaces what was, credentials as a whole. */
async function editedSettings(deps: Deps, connection: ConnectionItem, input: UpdateMcpInput) {
  if (input.url !== undefined && connection.transport !== 'http') {
    throw new ValidationError('invalid request body', [{ path: 'url', message: 'only http connections have a url' }]);
  }
  const spec: ConnectionSpec = specOf({ ...connection, url: input.url ?? connection.url });
  const stored = (await credentialsOf(deps, connection)?.()) ?? {};
  const credentials: ConnectionCredentials = { headers: input.headers ?? stored.headers, env: input.env ?? stored.env };
  checkCredentials(deps.config.mcpStdioServers, spec, {
    ...(input.headers ? { headers: input.headers } : {}),
    ...(input.env ? { env: input.env } : {}),
  });
  return { spec, credentials };
}

/** Reaches the server with the new settings; a server that cannot be reached changes nothing (400). */
async function rediscover(deps: Deps, spec: ConnectionSpec, credentials: ConnectionCredentials) {
  const path = spec.transport === 'http' ? 'url' : 'env';
  try {
    await mcpOf(deps).assertAllowed(spec);
    return await mcpOf(deps).probe({ ...spec, credentials: async () => credentials });
  } catch (error) {
    if (!(error instanceof McpConnectionError || error instanceof UrlRefusedError || error instanceof UnresolvableHostError)) throw error;
    throw new ValidationError('could not reach the MCP server with these settings', [{ path, message: error.message }], { cause: error });
  }
}

/** Whether two names are the same claim (names are unique in a workspace regardless of case and spaces around). */
const sameClaim = (workspaceId: string, a: string, b: string) =>
  keys.connectionName(workspaceId, a).sk === keys.connectionName(workspaceId, b).sk;

async function claimName(deps: Deps, connection: ConnectionItem, name: string | undefined): Promise<string> {
  if (name === undefined) return connection.name;
  // Another spelling of the same name keeps its claim.
  if (sameClaim(connection.workspace_id, name, connection.name)) return name;
  const claimed = await deps.table.putNew({ ...keys.connectionName(connection.workspace_id, name), connection_id: connection.id });
  if (!claimed) throw new ConflictError(`workspace ${connection.workspace_id} already has a connection named "${name}"`);
  return name;
}

/**
 * `PUT /api/connections/:id`: replaces the name, url, headers or env given, reaches the server with
 * the result and rediscovers its tools, then saves. Live sessions made with the old settings are
 * dropped here, and not reused by other processes (the connection's `updated_at` changes).
 */
export async function updateConnection(deps: Deps, orgId: string, connectionId: string, input: UpdateMcpInput) {
  const connection = await findConnection(deps, orgId, connectionId);
  const { spec, credentials } = await editedSettings(deps, connection, input);
  const { server, tools } = await rediscover(deps, spec, credentials);
  const name = await claimName(deps, connection, input.name);
  const sealed = await sealCredentials(deps, orgId, connection.id, credentials);
  const now = deps.clock.now().toISOString();
  const updated: ConnectionItem = {
    ...connection,
    name,
    url: spec.url ?? null,
    header_names: sealed.header_names,
    env_names: sealed.env_names,
    credentials_sealed: sealed.credentials_sealed,
    status: 'connected',
    last_error: null,
    server,
    tool_count: tools.length,
    tools_discovered: true,
    updated_at: now,
  };
  if (!updated.credentials_sealed) delete updated.credentials_sealed;
  const delta = await replaceTools(deps, connection, tools);
  await onConditionFailed(
    deps.table.put({ ...updated }, { condition: 'attribute_exists(pk)' }),
    () => new NotFoundError(`connection ${connectionId} not found`),
  );
  if (!sameClaim(connection.workspace_id, name, connection.name)) {
    await deps.table.delete(keys.connectionName(connection.workspace_id, connection.name));
  }
  if (delta) await addWorkspaceCounters(deps, connection.workspace_id, { tool_count: delta });
  await mcpOf(deps).drop(connection.id);
  return { connection: toConnection({ ...updated }) };
}
