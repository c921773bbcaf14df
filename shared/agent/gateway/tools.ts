import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../auth/index.js';
import { namedTools, type NamedTool } from '../../connections/index.js';
import type { WorkspaceTools } from '../../connections/workspace-tools-cache.js';
import type { Deps } from '../../deps.js';
import { loadPatternEngine } from '../../guardrails/index.js';
import { planToolSearch } from '../../tool-search/index.js';
import { assertServing } from '../../workspaces/index.js';
import type { LoopTool } from '../loop.js';
import { offeredTools, type OfferedTool } from '../query/tools.js';

/*
 * The tools a person may use in a workspace, as its MCP server lists and calls them: the tools the
 * agent would offer them (names, permissions of their role, `block_tool` guardrails:
 * query/tools.ts), past the workspace's tool-search threshold only `search_tools` and the pinned
 * ones listed, every one of them callable by its name either way (the server keeps nothing between
 * requests, so what a search found is not remembered: being one of the person's tools is what
 * makes a name callable). Read in one Query of the workspace's partition, which the process keeps a
 * few seconds (connections/workspace-tools-cache.ts).
 */

/** The gateway's own tool, the agent loop. */
export const ASK = 'ask';
const SEARCH_TOOLS = 'search_tools';

/** A tool of the workspace a person may call: the agent's tool (how it runs) and its cached tool (its connection). */
interface PersonTool {
  name: string;
  offered: OfferedTool;
  named: NamedTool;
}

/** What a person's request works with: the workspace's configuration and the tools they may use. */
export interface PersonTools {
  context: WorkspaceTools;
  /** What `tools/list` answers, `ask` aside. */
  listed: Tool[];
  /** The workspace's tool of that name the person may call. */
  tool(name: string): PersonTool | undefined;
  /** `search_tools`, when the workspace's tools are searched. */
  search: LoopTool | undefined;
}

/** Whose grant a per-user connection uses for this person. */
export const subjectOf = (principal: Principal) => `user:${principal.userId}`;

/** A definition as MCP lists it: its schema always an object's (the agent's providers need the same). */
function listedTool(name: string, tool: LoopTool, isWrite: boolean | undefined): Tool {
  const schema = tool.spec.inputSchema as Record<string, unknown>;
  return {
    name,
    description: tool.spec.description,
    inputSchema: { ...schema, type: 'object' },
    ...(isWrite === undefined ? {} : { annotations: { readOnlyHint: !isWrite } }),
  };
}

/** The name a tool goes by at the gateway: the agent's, unless that is one of the gateway's own (`ask`, `search_tools`). */
function gatewayName(tool: OfferedTool): string {
  const name = tool.spec.name;
  if (name !== ASK && name !== SEARCH_TOOLS) return name;
  return `${tool.connectionName ?? 'tool'}__${name}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/**
 * The person's tools in the workspace, from one Query of its partition. Another organisation's
 * workspace, or none, is 404; an archived one 409, as for a query.
 */
export async function personTools(deps: Deps, principal: Principal, workspaceId: string): Promise<PersonTools> {
  const context = await deps.workspaceTools.read(principal.orgId, workspaceId);
  assertServing(context.workspace);
  const { workspace, connections, toolsByConnection, guardrails } = context;
  // Pattern guardrails need their engine, loaded by the first request of a process that has any.
  if (guardrails.some((guardrail) => guardrail.type !== 'block_tool')) await loadPatternEngine();
  const named = namedTools(connections, toolsByConnection);
  const offered = offeredTools(deps, workspace, principal.role, named, guardrails, subjectOf(principal));
  const byId = new Map(named.map((entry) => [entry.tool.id, entry]));
  const byName = new Map<string, PersonTool>();
  for (const tool of offered) {
    const entry = byId.get(tool.toolId);
    if (entry) byName.set(gatewayName(tool), { name: gatewayName(tool), offered: tool, named: entry });
  }
  // Past the threshold: `search_tools` and the pinned tools (what is not deferred), as the model gets them.
  const plan = planToolSearch({ orgId: principal.orgId, workspace, embedder: deps.embedder, logger: deps.logger }, named, offered);
  const search = plan?.tools.find((tool) => tool.spec.name === SEARCH_TOOLS);
  const shown = plan ? offered.filter((tool) => plan.tools.some((planned) => planned === tool)) : offered;
  const listed = [
    ...(search ? [listedTool(SEARCH_TOOLS, search, false)] : []),
    ...shown.map((tool) => listedTool(gatewayName(tool), tool, tool.isWrite)),
  ];
  return { context, listed, tool: (name) => byName.get(name), search };
}
