import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { toolSchemaOf } from '../connections/tool-cache.js';
import type { Deps } from '../deps.js';
import { keys } from '../platform/keys.js';
import { namedTools, toolPermission, workspaceToolsOf, type NamedTool } from '../workspaces/tool-access.js';
import type { ToolIndex, ToolMatch } from './tool-index.js';

/*
 * A workspace's tool index, kept with its tool cache: derived from the cached tool items read in the
 * same Query as the workspace, and rebuilt only when they change. Where it lives and why:
 * docs/data-model.md, "The tool search index".
 */

/**
 * The tools version of a workspace: a digest of everything its index is built from (each tool's
 * id, offered name, connection name, description and schema). Any change of the tool cache —
 * rediscovery, a deleted or renamed connection — is a new version, so an index is never stale.
 */
function toolsVersionOf(tools: readonly NamedTool[]): string {
  const digest = createHash('sha256');
  for (const { tool, connection, name } of tools) {
    const schema = typeof tool.input_schema === 'string' ? tool.input_schema : JSON.stringify(tool.input_schema);
    for (const part of [tool.id, name, connection.name, tool.description, schema]) digest.update(part).update('\u0000');
  }
  return digest.digest('base64url');
}

/**
 * The latest index of each workspace this process searched, bounded by the tools they hold (about
 * 2 KB of memory per tool: 20 000 tools is some 40 MB).
 */
const indexes = new LRUCache<string, { version: string; index: ToolIndex }>({
  max: 1_000,
  maxSize: 20_000,
  sizeCalculation: (entry) => Math.max(1, entry.index.size),
});

/**
 * The ranking (MiniSearch and the stemmer, some 20 KB), loaded on first need like the pattern
 * engine: the agent function's cold start stays within its budget, and most of its queries never
 * search. Node keeps the module, so later calls answer at once.
 */
const ranking = () => import('./tool-index.js');

/**
 * The index of a workspace's tools, built on first use and again only when its tools version
 * changes. Kept by organisation and workspace: workspace ids are unique only within an organisation.
 */
export async function workspaceToolIndex(orgId: string, workspaceId: string, tools: readonly NamedTool[]): Promise<ToolIndex> {
  const version = toolsVersionOf(tools);
  const scope = `${orgId}/${workspaceId}`;
  const cached = indexes.get(scope);
  if (cached?.version === version) return cached.index;
  const { buildToolIndex } = await ranking();
  const index = buildToolIndex(
    tools.map(({ tool, connection, name }) => ({
      id: tool.id,
      name,
      toolName: tool.name,
      connection: connection.name,
      description: tool.description,
      inputSchema: toolSchemaOf(tool),
    })),
  );
  indexes.set(scope, { version, index });
  return index;
}

/** Matches answered when the request names no `limit`. */
const DEFAULT_LIMIT = 10;

/**
 * `GET /api/workspaces/:id/tools/search`: one Query of the workspace's partition, then the ranking
 * among the tools the viewer's role may use (permissions and `block_tool` guardrails), best first.
 */
export async function searchWorkspaceTools(
  deps: Deps,
  viewer: { orgId: string; role: string },
  workspaceId: string,
  query: { q: string; limit?: number | undefined },
): Promise<{ tools: ToolMatch[] }> {
  const items = await deps.table.queryAll({ pk: keys.workspacePartition(viewer.orgId, workspaceId) });
  const { workspace, connections, toolsByConnection, guardrails } = workspaceToolsOf(items, viewer.orgId, workspaceId);
  const tools = namedTools(connections, toolsByConnection);
  const mayUse = toolPermission(workspace, viewer.role, guardrails);
  const allowed = new Set(tools.filter((tool) => mayUse(tool.names)).map((tool) => tool.tool.id));
  const scope = { orgId: viewer.orgId, workspaceId };
  return { tools: await rankWorkspaceTools(scope, tools, query.q, { limit: query.limit ?? DEFAULT_LIMIT, allowed }) };
}

/**
 * The ranking of a workspace's tools for a question, among the `allowed` tool ids: what the
 * endpoint answers and what the model's `search_tools` finds (`agent-tool.ts`), the same for the
 * same caller.
 */
export async function rankWorkspaceTools(
  scope: { orgId: string; workspaceId: string },
  tools: readonly NamedTool[],
  query: string,
  options: { limit: number; allowed: ReadonlySet<string> },
): Promise<ToolMatch[]> {
  const [index, { searchTools }] = await Promise.all([workspaceToolIndex(scope.orgId, scope.workspaceId, tools), ranking()]);
  return searchTools(index, query, options);
}
