import { randomUUID } from 'node:crypto';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { connectionSpec, needsAuthorization, type ConnectionItem } from '../../connections/index.js';
import { startPersonGrant } from '../query/tools.js';
import { mcpOf, type Deps } from '../../deps.js';

/*
 * A per-user connection answers each person with their own grant (query/tools.ts, `askForGrant`).
 * A person who has none yet is sent to grant it: a URL-mode elicitation (MCP 2025-11-25) where
 * their client takes one, else a tool error with the link.
 */

/** Where the person grants a per-user connection they have no grant of yet; undefined when they need none (or have one). */
export async function missingGrant(
  deps: Deps,
  connection: ConnectionItem,
  person: { orgId: string; userId: string; subject: string },
): Promise<string | undefined> {
  if (connection.credential !== 'per_user') return undefined;
  try {
    // A live session of their grant is reused; opening one tells whether they have a grant.
    await mcpOf(deps).session(connection.id, connectionSpec(deps, connection, person.subject));
    return undefined;
  } catch (error) {
    // Any other failure is the call's to report, as the tool server's.
    if (!needsAuthorization(error)) return undefined;
  }
  return startPersonGrant(deps, connection, person);
}

export function grantMessage(connectionName: string): string {
  return `The MCP connection "${connectionName}" needs your own authorization: open the link to grant it, then call the tool again.`;
}

/** The URL-mode elicitation that sends the person to grant it (a JSON-RPC error -32042 answering the call). */
export function grantElicitation(connectionName: string, url: string): UrlElicitationRequiredError {
  return new UrlElicitationRequiredError([{ mode: 'url', message: grantMessage(connectionName), url, elicitationId: randomUUID() }]);
}
