import { putNew } from '../platform/updates.js';
import { mcpOf, type Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters, getWorkspaceItem } from '../workspaces/index.js';
import { type ConnectionCredentials, McpConnectionError, type ConnectionSpec } from './mcp-hub.js';
import { fitToWorkspace, toolItemsOf, type ToolItem } from './tool-cache.js';
import type { DiscoveredTool, ToolListing } from './tool-listing.js';
import type { Config } from '../platform/config.js';
import type { SecretStore } from '../platform/store.js';
import { checkCredentials, credentialsOf, sealCredentials } from './credentials.js';
import { discoverTools } from './discovery.js';
import {
  connectionById,
  connectionExists,
  connectionKey,
  connectionLookup,
  connectionNameKey,
  discoveredToolsUpdate,
  failedHealthUpdate,
  grantsOfConnection,
  listedToolsUpdate,
  reconnectedUpdate,
  toolsOfConnection,
} from './entities.js';
import { StoredOAuthProvider } from './oauth.js';
import { type CreateMcpInput, type TestMcpInput, truncatedField } from './schemas.js';
import { UnresolvableHostError, UrlRefusedError } from '../platform/url-policy.js';

/** A saved MCP connection (entities.ts: in its workspace's partition, found by id through the lookups index). */
export interface ConnectionItem extends ConnectionSpec {
  pk: string;
  sk: string;
  id: string;
  workspace_id: string;
  org_id: string;
  name: string;
  type: 'mcp';
  status: ConnectionStatus;
  /** Why the last attempt to reach it failed (status `error`); null once it is reached again. */
  last_error?: string | null;
  transport: 'http' | 'stdio';
  url: string | null;
  command: string | null;
  args: string[];
  tool_count: number;
  /** Why tools were dropped or cut to the tool limits when last listed (`tool-listing.ts`); null when none were. */
  tools_truncated?: string | null;
  /** False until its tools are listed once (at save, a refresh, or the first query of a stdio server that could not be reached at save). */
  tools_discovered: boolean;
  server: string | null;
  /** Sealed headers (http) or environment (stdio), and their names for listings (`credentials.ts`). */
  credentials_sealed?: string;
  header_names?: string[];
  env_names?: string[];
  created_at: string;
  /** Set when the connection is edited: live sessions made with the older settings are not reused. */
  updated_at?: string;
  /** An OAuth connection (`oauth-flow.ts`): its grants' tokens are sealed in a partition of their own (entities.ts). */
  auth?: 'oauth';
  /** Whose grant a call uses: the connection's own (`workspace`), or the caller's (`per_user`). */
  credential?: 'workspace' | 'per_user';
  oauth_redirect_url?: string;
}

type ConnectionStatus = 'connected' | 'needs_authorization' | 'error';

/** How to reach a connection (saved or about to be): the URL for http, the command and arguments for stdio. */
export function specOf(input: {
  transport: 'http' | 'stdio';
  url?: string | null;
  command?: string | null;
  args?: string[];
}): ConnectionSpec {
  return input.transport === 'http'
    ? { transport: 'http', url: input.url ?? null, args: [] }
    : { transport: 'stdio', command: input.command ?? null, args: input.args ?? [] };
}

/** The grant a caller's calls use: the connection's own, or (per-user connections) the caller's (`user:<id>`, `consumer:<id>`). */
function grantSubjectOf(item: ConnectionItem, caller: string): string {
  return item.credential === 'per_user' ? caller : 'workspace';
}

/**
 * How to reach a saved connection for a caller, with its stored credentials (opened only if a
 * session is opened). Each grant has sessions of its own: a per-user connection's callers never
 * share one.
 */
export function connectionSpec(deps: SecretStore, item: ConnectionItem, caller = 'workspace'): ConnectionSpec {
  const subject = grantSubjectOf(item, caller);
  const target = {
    orgId: item.org_id,
    connectionId: item.id,
    serverUrl: item.url ?? '',
    subject,
    redirectUrl: item.oauth_redirect_url ?? '',
  };
  const authProvider = item.auth === 'oauth' ? new StoredOAuthProvider(deps, target) : undefined;
  return {
    ...specOf(item),
    credentials: credentialsOf(deps, item),
    version: `${item.updated_at ?? item.created_at}|${subject}`,
    authProvider,
    orgId: item.org_id,
  };
}

/** How to reach a connection about to be tested or saved by an organisation, with the credentials of the request. */
export function requestSpec(config: Config, orgId: string, input: Parameters<typeof specOf>[0] & ConnectionCredentials): ConnectionSpec {
  const spec = specOf(input);
  const credentials = { ...(input.headers ? { headers: input.headers } : {}), ...(input.env ? { env: input.env } : {}) };
  checkCredentials(config.mcpStdioServers, spec, credentials);
  return { ...spec, credentials: async () => credentials, orgId };
}

/** Refusals (URL policy, stdio allowlist) as a 400 naming the field. */
function refusedField(spec: ConnectionSpec, error: unknown): ValidationError | undefined {
  if (!(error instanceof UrlRefusedError || error instanceof McpConnectionError)) return undefined;
  const path = spec.transport === 'http' ? 'url' : 'command';
  return new ValidationError('connection refused', [{ path, message: error.message }], { cause: error });
}

/** `POST /api/connectors/mcp/test`: connects, lists tools, disconnects. Unreachable is an answer, not an error. */
export async function testConnection(deps: Deps, orgId: string, input: TestMcpInput) {
  const spec = requestSpec(deps.config, orgId, input);
  try {
    await mcpOf(deps).assertAllowed(spec);
  } catch (error) {
    if (error instanceof UnresolvableHostError) return { ok: false, tools: 0, server: '', toolNames: [], error: error.message };
    throw refusedField(spec, error) ?? error;
  }
  try {
    const { server, tools, truncated } = await mcpOf(deps).probe(spec);
    return { ok: true, tools: tools.length, server, toolNames: tools.map((tool) => tool.name), ...truncatedField(truncated) };
  } catch (error) {
    if (!(error instanceof McpConnectionError)) throw error;
    return { ok: false, tools: 0, server: '', toolNames: [], error: error.message };
  }
}

/**
 * `POST /api/connectors/mcp`: saves a connection with its tools. An http server must be reached
 * now (a 400 otherwise). A stdio server is started once to list its tools (`discoverTools`, in
 * bounded time): one that is slow or broken is saved all the same, with status `error` and why,
 * and its tools are listed on the first query or a refresh.
 * The connection name is unique in its workspace (a conditional put of a name claim).
 */
export async function saveConnection(deps: Deps, orgId: string, input: CreateMcpInput) {
  const workspace = await getWorkspaceItem(deps, orgId, input.workspace_id);
  const spec = requestSpec(deps.config, orgId, input);
  await admitSpec(deps, spec);
  const found = await discoverTools(deps, spec);
  if (!found.ok && spec.transport === 'http') {
    throw new ValidationError('could not reach the MCP server', [{ path: 'url', message: found.reason }]);
  }
  const id = newId('conn', deps.clock.now());
  const target = { orgId, workspaceId: workspace.id, id, name: input.name };
  const { tools, truncated } = found.ok ? await fitToWorkspace(deps, target, found) : { tools: [], truncated: null };
  await storeConnection(deps, {
    workspaceId: workspace.id,
    orgId,
    id,
    name: input.name,
    spec,
    tools,
    server: found.ok ? found.server : null,
    credentials: { headers: input.headers, env: input.env },
    fields: found.ok
      ? { status: 'connected', tools_discovered: true, tools_truncated: truncated }
      : { status: found.status, tools_discovered: false, last_error: found.reason },
  });
  const message = found.ok
    ? `Connected "${input.name}" with ${tools.length} tool${tools.length === 1 ? '' : 's'}${truncated ? ` (${truncated})` : ''}`
    : `Saved "${input.name}", but its tools could not be listed (${found.reason}); they are listed on the first query, or refresh them`;
  return { status: 'saved' as const, message, tools: tools.length, id, ...truncatedField(truncated) };
}

/** Refuses a spec the policy does not allow before anything is saved: a 400 naming the field. */
export async function admitSpec(deps: Deps, spec: ConnectionSpec): Promise<void> {
  try {
    await mcpOf(deps).assertAllowed(spec);
  } catch (error) {
    if (error instanceof UnresolvableHostError) {
      throw new ValidationError('could not reach the MCP server', [{ path: 'url', message: error.message }], { cause: error });
    }
    throw refusedField(spec, error) ?? error;
  }
}

/**
 * Writes a new connection: its name claim (unique in the workspace, a conditional put), its tools,
 * then the item with its sealed credentials, then the workspace's counters.
 */
export async function storeConnection(
  deps: Deps,
  connection: {
    workspaceId: string;
    orgId: string;
    id: string;
    name: string;
    spec: ConnectionSpec;
    tools: DiscoveredTool[];
    server: string | null;
    credentials: ConnectionCredentials;
    /** What differs by kind: status, whether tools are known yet, OAuth settings. */
    fields: Pick<ConnectionItem, 'status' | 'tools_discovered'> &
      Partial<Pick<ConnectionItem, 'auth' | 'credential' | 'oauth_redirect_url' | 'last_error' | 'tools_truncated'>>;
  },
): Promise<void> {
  const { workspaceId, orgId, id, name, spec, tools } = connection;
  const claimed = await putNew(deps.table, { ...connectionNameKey(orgId, workspaceId, name), connection_id: id });
  if (!claimed) throw new ConflictError(`workspace ${workspaceId} already has a connection named "${name}"`);
  const sealed = await sealCredentials(deps, orgId, id, connection.credentials);
  const item: ConnectionItem = {
    ...connectionKey(orgId, workspaceId, id),
    ...connectionLookup(id),
    id,
    workspace_id: workspaceId,
    org_id: orgId,
    name,
    type: 'mcp',
    transport: spec.transport,
    url: spec.url ?? null,
    command: spec.command ?? null,
    args: spec.args ?? [],
    tool_count: tools.length,
    server: connection.server,
    ...sealed,
    last_error: null,
    ...connection.fields,
    created_at: deps.clock.now().toISOString(),
  };
  // Tools first, the connection last: readers only use tools of connections that exist.
  await deps.table.batchPut(toolItemsOf(orgId, workspaceId, id, tools));
  await deps.table.put({ ...item });
  await addWorkspaceCounters(deps, orgId, workspaceId, { connection_count: 1, tool_count: tools.length });
}

/** Where a saved connection's listing is fitted (its workspace, and itself among the workspace's connections). */
const targetOf = (item: ConnectionItem) => ({ orgId: item.org_id, workspaceId: item.workspace_id, id: item.id, name: item.name });

/** Records the tools of a stdio connection listed on its first query (within the workspace's bound). */
export async function recordDiscoveredTools(deps: Deps, connection: ConnectionItem, listed: ToolListing): Promise<ToolItem[]> {
  const { tools, truncated } = await fitToWorkspace(deps, targetOf(connection), listed);
  const items = toolItemsOf(connection.org_id, connection.workspace_id, connection.id, tools);
  await deps.table.batchPut(items);
  const { key, input } = discoveredToolsUpdate(connection, tools.length, truncated);
  const updated = await unlessConditionFailed(
    deps.table.update(key, input),
    // Another query discovered them first: its count stands.
    undefined,
  );
  if (updated) await addWorkspaceCounters(deps, connection.org_id, connection.workspace_id, { tool_count: tools.length });
  return items;
}

/**
 * Keeps a connection's `status` true to the last attempt to reach it: `error` with the reason when
 * a query could not, `connected` again once one could. Writes only on a change.
 */
export async function recordHealth(
  deps: Deps,
  connection: ConnectionItem,
  failure: { status: 'error' | 'needs_authorization'; reason: string } | undefined,
): Promise<void> {
  if (failure !== undefined) {
    if (connection.status === failure.status && connection.last_error === failure.reason) return;
    const { key, input } = failedHealthUpdate(connection, failure.status, failure.reason);
    await unlessConditionFailed(deps.table.update(key, input), undefined);
    return;
  }
  if (connection.status === 'connected') return;
  const { key, input } = reconnectedUpdate(connection);
  // Deleted meanwhile.
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/**
 * Replaces a connection's cached tools with the ones just listed, within the workspace's bound (stale
 * ones deleted); answers how the count changed and the listing as kept.
 */
export async function replaceTools(deps: Deps, connection: ConnectionItem, listed: ToolListing) {
  const listing = await fitToWorkspace(deps, targetOf(connection), listed);
  const { tools } = listing;
  const fresh = new Set(tools.map((tool) => tool.name));
  const cached = await deps.table.queryAll(toolsOfConnection(connection.org_id, connection.workspace_id, connection.id));
  await deps.table.batchPut(toolItemsOf(connection.org_id, connection.workspace_id, connection.id, tools));
  await Promise.all(cached.filter((item) => !fresh.has(String(item.name))).map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
  return { delta: tools.length - connection.tool_count, listing };
}

/** Lists a connection's tools again (with the caller's grant) and replaces its cached list (a tool call found it stale). */
export async function refreshTools(deps: Deps, connection: ConnectionItem, caller = 'workspace'): Promise<void> {
  const listed = await mcpOf(deps).listTools(connection.id, connectionSpec(deps, connection, caller));
  const { delta, listing } = await replaceTools(deps, connection, listed);
  const { key, input } = listedToolsUpdate(connection, listing.tools.length, listing.truncated);
  await deps.table.update(key, input);
  if (delta) await addWorkspaceCounters(deps, connection.org_id, connection.workspace_id, { tool_count: delta });
}

/** A connection of the organisation by id (another organisation's is not found). */
export async function findConnection(deps: Deps, orgId: string, connectionId: string): Promise<ConnectionItem> {
  const found = await deps.table.query<ConnectionItem>(connectionById(connectionId));
  const connection = found.items[0];
  if (!connection || connection.org_id !== orgId) throw new NotFoundError(`connection ${connectionId} not found`);
  return connection;
}

/** `DELETE /api/connections/:id`: the connection, its name claim and all its tools; its live session is closed. */
export async function deleteConnection(deps: Deps, orgId: string, connectionId: string): Promise<void> {
  const connection = await findConnection(deps, orgId, connectionId);
  const tools = await deps.table.queryAll(toolsOfConnection(connection.org_id, connection.workspace_id, connectionId));
  const grants = await deps.table.queryAll(grantsOfConnection(connectionId));
  // Tools and OAuth grants first, the connection last, so a failed delete can simply be repeated.
  await Promise.all([...tools, ...grants].map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
  await deps.table.delete(connectionNameKey(connection.org_id, connection.workspace_id, connection.name));
  await onConditionFailed(
    deps.table.delete(connectionKey(connection.org_id, connection.workspace_id, connectionId), connectionExists()),
    () => new NotFoundError(`connection ${connectionId} not found`),
  );
  await addWorkspaceCounters(deps, connection.org_id, connection.workspace_id, {
    connection_count: -1,
    tool_count: -connection.tool_count,
  });
  await mcpOf(deps).drop(connectionId);
}
