import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { answerPersonMcpRequest } from '../../shared/agent/gateway/index.js';
import type { Principal } from '../../shared/auth/tokens.js';
import type { Deps } from '../../shared/deps.js';
import type { TestContext } from './context.js';

/*
 * The MCP gateway driven by the MCP SDK's own client, in process: its transport's fetch answers
 * each request with `answerPersonMcpRequest`, as the consumer route does for a person's token.
 */

export const CLIENT_NAME = 'Test Client';

/** A person signed in through an MCP client (`principal.oauth`), for one workspace. */
export function personPrincipal(
  t: TestContext,
  person: { id: string; name: string; email: string },
  org: { orgId: string; role: 'admin' | 'member' },
  workspaceId: string,
): Principal {
  return {
    userId: person.id,
    orgId: org.orgId,
    email: person.email,
    name: person.name,
    role: org.role,
    expiresAt: new Date(t.clock.now().getTime() + 3_600_000),
    oauth: { clientId: 'client-test', clientName: CLIENT_NAME, verified: false, grantId: 'grant-test', workspaceId },
  };
}

/** An MCP client of the workspace's gateway for the person; `urlElicitation` declares URL-mode elicitation (2025-11-25). */
export async function gatewayClient(deps: Deps, principal: Principal, workspaceId: string, options: { urlElicitation?: boolean } = {}) {
  const client = new Client(
    { name: 'test-client', version: '1' },
    { capabilities: options.urlElicitation ? { elicitation: { url: {} } } : {} },
  );
  const url = new URL(`http://gateway.test/api/workspaces/${workspaceId}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) => answerPersonMcpRequest(deps, principal, workspaceId, new Request(input, init)),
  });
  await client.connect(transport);
  return client;
}

export type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

/** The text of a call's result. */
export const textOf = (result: unknown) => ((result as ToolResult).content ?? []).map((block) => block.text ?? '').join('');
