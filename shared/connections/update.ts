import { putNew } from '../platform/updates.js';
import { mcpOf, type Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { onConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters } from '../workspaces/index.js';
import { toConnection } from './views.js';
import { type ConnectionItem, admitSpec, findConnection, replaceTools, specOf } from './connections.js';
import { checkCredentials, credentialsOf, sealCredentials } from './credentials.js';
import { connectionExists, connectionNameKey, grantsOfConnection } from './entities.js';
import { type ConnectionCredentials, type ConnectionSpec, McpConnectionError } from './mcp-hub.js';
import { originOf, StoredOAuthProvider } from './oauth.js';
import { type UpdateMcpInput, truncatedField } from './schemas.js';
import { UnresolvableHostError, UrlRefusedError } from '../platform/url-policy.js';

/** Who edits: their organisation, and their own grant of a per-user OAuth connection (to reach it with). */
export interface Editor {
  orgId: string;
  userId: string;
}

/**
 * The connection's settings after the edit: what is given replaces what was, credentials as a
 * whole. Credentials belong to the origin they were given for: a url that moves to another origin
 * takes none of the stored headers with it (they must be given again), so no admin can read another
 * admin's secret by pointing the connection at a server of their own.
 */
async function editedSettings(deps: Deps, connection: ConnectionItem, input: UpdateMcpInput, moved: boolean) {
  if (input.url !== undefined && connection.transport !== 'http') {
    throw new ValidationError('invalid request body', [{ path: 'url', message: 'only http connections have a url' }]);
  }
  const spec: ConnectionSpec = { ...specOf({ ...connection, url: input.url ?? connection.url }), orgId: connection.org_id };
  if (moved && input.headers === undefined && (connection.header_names ?? []).length > 0) {
    const message = `the headers were given for ${originOf(connection.url)} and are not sent to another origin: give them again with the new url`;
    throw new ValidationError('invalid request body', [{ path: 'headers', message }]);
  }
  const stored = (await credentialsOf(deps, connection)?.()) ?? {};
  const credentials: ConnectionCredentials = { headers: input.headers ?? stored.headers, env: input.env ?? stored.env };
  checkCredentials(deps.config.mcpStdioServers, spec, {
    ...(input.headers ? { headers: input.headers } : {}),
    ...(input.env ? { env: input.env } : {}),
  });
  return { spec, credentials };
}

/** The grant the edit reaches an OAuth connection with: its own, or the editor's of a per-user one. */
function editorGrant(deps: Deps, connection: ConnectionItem, spec: ConnectionSpec, editor: Editor) {
  if (connection.auth !== 'oauth') return undefined;
  return new StoredOAuthProvider(deps, {
    connectionId: connection.id,
    serverUrl: spec.url ?? '',
    subject: connection.credential === 'per_user' ? `user:${editor.userId}` : 'workspace',
    redirectUrl: connection.oauth_redirect_url ?? '',
  });
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
const sameClaim = (connection: ConnectionItem, a: string, b: string) =>
  connectionNameKey(connection.org_id, connection.workspace_id, a).sk ===
  connectionNameKey(connection.org_id, connection.workspace_id, b).sk;

async function claimName(deps: Deps, connection: ConnectionItem, name: string | undefined): Promise<string> {
  if (name === undefined) return connection.name;
  // Another spelling of the same name keeps its claim.
  if (sameClaim(connection, name, connection.name)) return name;
  const claimed = await putNew(deps.table, {
    ...connectionNameKey(connection.org_id, connection.workspace_id, name),
    connection_id: connection.id,
  });
  if (!claimed) throw new ConflictError(`workspace ${connection.workspace_id} already has a connection named "${name}"`);
  return name;
}

/** Deletes every grant of a connection (each user's tokens, the workspace's) and its registered client. */
async function forgetGrants(deps: Deps, connectionId: string): Promise<void> {
  const grants = await deps.table.queryAll(grantsOfConnection(connectionId));
  await Promise.all(grants.map((item) => deps.table.delete({ pk: item.pk, sk: item.sk })));
}

/**
 * What the server is found to be at the edited settings. An OAuth connection moved to another
 * origin is not reached at all: it waits for a new grant, with no tools until then, and its grants
 * and registered client (made for the old server) are to be deleted once the move is saved.
 */
async function reachEdited(
  deps: Deps,
  connection: ConnectionItem,
  edited: Awaited<ReturnType<typeof editedSettings>>,
  editor: Editor,
  moved: boolean,
) {
  const { spec, credentials } = edited;
  if (connection.auth === 'oauth' && moved) {
    await admitSpec(deps, spec);
    const reason = 'moved to another server: its grants were deleted; grant access again';
    return { server: null, tools: [], truncated: null, status: 'needs_authorization' as const, lastError: reason, forgetGrants: true };
  }
  const authProvider = editorGrant(deps, connection, spec, editor);
  const { server, tools, truncated } = await rediscover(deps, { ...spec, authProvider }, credentials);
  return { server, tools, truncated, status: 'connected' as const, lastError: null, forgetGrants: false };
}

/**
 * `PUT /api/connections/:id`: replaces the name, url, headers or env given, reaches the server with
 * the result and rediscovers its tools, then saves. Live sessions made with the old settings are
 * dropped here, and not reused by other processes (the connection's `updated_at` changes).
 */
export async function updateConnection(deps: Deps, editor: Editor, connectionId: string, input: UpdateMcpInput) {
  const connection = await findConnection(deps, editor.orgId, connectionId);
  const moved = input.url !== undefined && originOf(input.url) !== originOf(connection.url);
  const edited = await editedSettings(deps, connection, input, moved);
  const reached = await reachEdited(deps, connection, edited, editor, moved);
  const name = await claimName(deps, connection, input.name);
  const sealed = await sealCredentials(deps, editor.orgId, connection.id, edited.credentials);
  const { delta, listing } = await replaceTools(deps, { ...connection, name }, reached);
  const now = deps.clock.now().toISOString();
  const updated: ConnectionItem = {
    ...connection,
    name,
    url: edited.spec.url ?? null,
    header_names: sealed.header_names,
    env_names: sealed.env_names,
    credentials_sealed: sealed.credentials_sealed,
    status: reached.status,
    last_error: reached.lastError,
    server: reached.server,
    tool_count: listing.tools.length,
    tools_truncated: listing.truncated,
    tools_discovered: reached.status === 'connected',
    updated_at: now,
  };
  if (!updated.credentials_sealed) delete updated.credentials_sealed;
  await onConditionFailed(
    deps.table.put({ ...updated }, connectionExists()),
    () => new NotFoundError(`connection ${connectionId} not found`),
  );
  if (!sameClaim(connection, name, connection.name)) {
    await deps.table.delete(connectionNameKey(connection.org_id, connection.workspace_id, connection.name));
  }
  if (delta) await addWorkspaceCounters(deps, connection.org_id, connection.workspace_id, { tool_count: delta });
  await mcpOf(deps).drop(connection.id);
  // Only once the move is saved (a refused rename or a deleted connection changes nothing). Between
  // the two, and for a refresh at the old server that ends after this, the grants are sealed under
  // the old origin and handed to no other; a move back to it is a move again, which deletes them.
  if (reached.forgetGrants) await forgetGrants(deps, connection.id);
  return { connection: toConnection({ ...updated }), ...truncatedField(listing.truncated) };
}
