import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { mcpOf, type Deps } from '../deps.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import type { CreateMcpInput } from './schemas.js';
import { admitSpec, connectionSpec, findConnection, replaceTools, requestSpec, storeConnection } from './connections.js';
import { originOf, StoredOAuthProvider, startGrant, takeGrantState } from './oauth.js';
import { recordListing } from './refresh.js';

/*
 * The grants of OAuth connections (docs/connections.md): started by an admin (the connection's own
 * grant, used for every caller), finished at the public callback by the same signed-in user.
 */

const CALLBACK_PATH = '/api/connectors/mcp/oauth/callback';

/** Where the authorization server sends the person back: `PUBLIC_BASE_URL`, else the origin the request came to. */
export function redirectUrlOf(deps: Deps, requestOrigin: string): string {
  return `${deps.config.publicBaseUrl ?? requestOrigin}${CALLBACK_PATH}`;
}

/**
 * An OAuth connection: saved as `needs_authorization` with no tools; the answer carries the
 * authorization URL (discovery and registration done), and the callback lists its tools.
 */
export async function saveOAuthConnection(
  deps: Deps,
  orgId: string,
  input: CreateMcpInput,
  grant: { redirectUrl: string; userId: string },
) {
  const workspace = await getWorkspaceItem(deps, orgId, input.workspace_id);
  const spec = requestSpec(deps.config, orgId, input);
  await admitSpec(deps, spec);
  const id = newId('conn', deps.clock.now());
  if (input.oauth_client_id) {
    const client = { client_id: input.oauth_client_id, ...(input.oauth_client_secret ? { client_secret: input.oauth_client_secret } : {}) };
    const target = { connectionId: id, serverUrl: spec.url ?? '', subject: 'workspace', redirectUrl: grant.redirectUrl };
    await new StoredOAuthProvider(deps, target).saveClientInformation(client);
  }
  const credential = input.credential ?? 'workspace';
  // A per-user connection starts with the admin's own grant.
  const subject = credential === 'per_user' ? `user:${grant.userId}` : 'workspace';
  const target = { connectionId: id, serverUrl: spec.url ?? '', subject, redirectUrl: grant.redirectUrl };
  const authorizationUrl = await startGrant(deps, target, { userId: grant.userId, orgId });
  await storeConnection(deps, {
    workspaceId: workspace.id,
    orgId,
    id,
    name: input.name,
    spec,
    tools: [],
    server: null,
    credentials: { headers: input.headers },
    fields: { status: 'needs_authorization', tools_discovered: false, auth: 'oauth', credential, oauth_redirect_url: grant.redirectUrl },
  });
  return {
    status: 'authorization_required' as const,
    message: `Saved "${input.name}"; grant access at authorization_url, then its tools are listed`,
    tools: 0,
    id,
    authorization_url: authorizationUrl,
  };
}

/**
 * `POST /api/connections/:id/authorize`: a new grant. Of the connection's own grant only an admin;
 * of a per-user connection, anyone grants their own.
 */
export async function authorizeConnection(deps: Deps, caller: { orgId: string; userId: string; role: string }, connectionId: string) {
  const connection = await findConnection(deps, caller.orgId, connectionId);
  if (connection.auth !== 'oauth') {
    throw new ValidationError('invalid request', [{ path: 'id', message: 'this connection does not use OAuth' }]);
  }
  const perUser = connection.credential === 'per_user';
  if (!perUser && caller.role !== 'admin') throw new ForbiddenError("only an admin grants a connection's own access");
  const subject = perUser ? `user:${caller.userId}` : 'workspace';
  const target = {
    connectionId: connection.id,
    serverUrl: connection.url ?? '',
    subject,
    redirectUrl: connection.oauth_redirect_url ?? '',
  };
  return { authorization_url: await startGrant(deps, target, { userId: caller.userId, orgId: caller.orgId }) };
}

/**
 * The callback: takes the grant (single use, ten minutes, only by the user who started it),
 * exchanges the code through the SDK (tokens are sealed by the provider), lists the server's
 * tools with the new token and marks the connection connected.
 */
export async function finishGrant(deps: Deps, input: { code: string; state: string }, userId: string | undefined) {
  const grant = await takeGrantState(deps, input.state);
  if (!grant) throw new NotFoundError('this authorization link has expired or was already used: start again from the connection');
  // Only in the session of the user who started it; in team chat that is the user the chat account
  // is linked to, so holding the link the bot sent is not enough.
  if (grant.userId !== userId) throw new ForbiddenError('sign in as the user who started this authorization, then start it again');
  const connection = await findConnection(deps, grant.orgId, grant.connectionId);
  // The connection moved to another tool server since the grant began: its code is not for this one.
  if (grant.origin !== originOf(connection.url))
    throw new NotFoundError('this connection moved to another server since this authorization began: start again from the connection');
  const target = { connectionId: connection.id, serverUrl: connection.url ?? '', subject: grant.subject, redirectUrl: grant.redirectUrl };
  const provider = new StoredOAuthProvider(deps, target, grant.verifier);
  try {
    await auth(provider, {
      serverUrl: connection.url ?? '',
      authorizationCode: input.code,
      fetchFn: mcpOf(deps).oauthFetchFor(grant.orgId),
    });
  } catch (error) {
    throw new ValidationError('the authorization server refused the grant', [{ path: 'code', message: mcpOf(deps).reasonOf(error) }], {
      cause: error,
    });
  }
  const { server, ...listed } = await mcpOf(deps).probe({ ...connectionSpec(deps, connection), authProvider: provider });
  const replaced = await replaceTools(deps, connection, listed);
  await recordListing(deps, connection, replaced, server, deps.clock.now().toISOString());
  await mcpOf(deps).drop(connection.id);
  return { name: connection.name, tools: replaced.listing.tools.length };
}
