import type { Deps } from '../deps.js';

/*
 * The gateway's addresses: the authorization server's paths, the console's consent page, and the
 * protected resources (each workspace's MCP endpoint) with their metadata (RFC 9728).
 */

/** Where the authorization server's endpoints are (`/oauth/authorize`, `/oauth/token`, …). */
export const OAUTH_PATH = '/oauth';

/** The console's consent page of an authorization (`/oauth/consent/<interaction uid>`). */
export const CONSENT_PATH = '/oauth/consent';

/** How long an access token works: a revocation elsewhere also holds within the session cache's bound. */
export const ACCESS_TOKEN_SECONDS = 600;

/** The scope a client asks for and a token carries. */
export const MCP_SCOPE = 'mcp';

const RESOURCE_PATH = /^\/api\/workspaces\/([^/]+)\/mcp$/;

/** The service's public origin: the configured one, else the request's (the local runtime, tests). */
export function issuerOf(deps: Deps, requestUrl: string): string {
  return deps.config.publicBaseUrl ?? new URL(requestUrl).origin;
}

/** The workspace a stored token's resource names (the provider bound it only after checking it was this issuer's: `workspaceOfResource`). */
export function workspaceOfBoundResource(resource: string): string | undefined {
  try {
    return workspaceOfResource(new URL(resource).origin, resource);
  } catch {
    return undefined;
  }
}

/** A workspace's MCP endpoint: the resource its tokens are bound to. */
const resourceOf = (issuer: string, workspaceId: string) => `${issuer}/api/workspaces/${encodeURIComponent(workspaceId)}/mcp`;

/** The workspace a resource indicator names, when it is one of this issuer's MCP endpoints (exactly: no query, no fragment). */
export function workspaceOfResource(issuer: string, resource: string): string | undefined {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return undefined;
  }
  if (url.origin !== issuer || url.search || url.hash || resource !== `${url.origin}${url.pathname}`) return undefined;
  const match = RESOURCE_PATH.exec(url.pathname);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** Where a workspace's protected resource metadata is (RFC 9728: the well-known prefix before the resource's path). */
export const resourceMetadataUrl = (issuer: string, workspaceId: string) =>
  `${issuer}/.well-known/oauth-protected-resource/api/workspaces/${encodeURIComponent(workspaceId)}/mcp`;

/** The protected resource metadata of a workspace's MCP endpoint. */
export function resourceMetadata(issuer: string, workspaceId: string) {
  return {
    resource: resourceOf(issuer, workspaceId),
    authorization_servers: [issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: `Workspace ${workspaceId}`,
  };
}
