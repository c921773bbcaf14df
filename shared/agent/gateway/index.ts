import type { Principal } from '../../auth/index.js';
import type { Deps } from '../../deps.js';
import { personMcpServer } from './server.js';
import { personTools, subjectOf } from './tools.js';
import { serveStateless } from './transport.js';
import { publicOriginOf } from '../../http/public-origin.js';

/*
 * The MCP gateway: a workspace as a remote MCP server for the people of its organisation, signed in
 * through their MCP client (an OAuth access token: shared/oauth, `principal.oauth`). They get the
 * workspace's tools they may use, under the names the agent sees, and `ask` (CONTRACT.md, "The
 * workspace as an MCP server for people"). Stateless, as the coding agent's endpoint
 * (../coding-agent.ts): a server per request, any process answers.
 */

/**
 * `/api/workspaces/:id/mcp` for a person (`principal.oauth` set, its workspace checked to be this
 * one by the token check): their tools read first, in one Query, so a workspace that is not of
 * their organisation (or none) is 404 before anything is served.
 * @throws NotFoundError for another organisation's workspace, or none
 */
export async function answerPersonMcpRequest(deps: Deps, principal: Principal, workspaceId: string, request: Request): Promise<Response> {
  const tools = await personTools(deps, principal, workspaceId);
  const person = {
    orgId: principal.orgId,
    userId: principal.userId,
    userName: principal.name,
    role: principal.role,
    subject: subjectOf(principal),
  };
  const client = principal.oauth?.clientName ?? 'MCP client';
  // The console's origin, for the links a call answers (an approval's): as the person reaches the service.
  const origin = publicOriginOf(deps.config.publicBaseUrl, request);
  return serveStateless(request, (traits) => personMcpServer({ deps, person, client, tools, traits, origin }), { carryTraits: true });
}
