import { mcpOf, type Deps } from '../deps.js';
import { withTimeout } from '../platform/timing.js';
import { type ConnectionSpec, McpConnectionError, needsAuthorization } from './mcp-hub.js';
import type { ToolListing } from './tool-listing.js';

/**
 * The longest a save or a refresh waits for a server to list its tools: a slow or broken server
 * must not hold the admin's request (or make the save fail) for the hub's full connect and list
 * timeouts in a row.
 */
const DISCOVERY_MS = 10_000;

/** What listing a server's tools found: its tools (within the tool limits, and why not all), or why it could not be reached. */
export type Discovery =
  | ({ ok: true; server: string } & ToolListing)
  | { ok: false; status: 'error' | 'needs_authorization'; reason: string };

/**
 * Lists a server's tools in a session of its own (closed afterwards), within `DISCOVERY_MS` (or
 * the hub's timeout, if shorter). A server that cannot be reached is an answer, not an error.
 */
export async function discoverTools(deps: Deps, spec: ConnectionSpec): Promise<Discovery> {
  const hub = mcpOf(deps);
  const ms = Math.min(DISCOVERY_MS, deps.config.mcpTimeoutMs);
  try {
    const found = await withTimeout(hub.probe(spec), ms, () => new McpConnectionError(`listing its tools took longer than ${ms} ms`));
    return { ok: true, ...found };
  } catch (error) {
    if (!(error instanceof McpConnectionError)) throw error;
    return { ok: false, status: needsAuthorization(error) ? 'needs_authorization' : 'error', reason: hub.reasonOf(error, spec) };
  }
}
