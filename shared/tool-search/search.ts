import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps.js';
import { namedTools, toolPermission, workspaceToolsOf, type NamedTool } from '../connections/index.js';
import { workspaceWithChildren } from '../workspaces/index.js';
import type { Embedder } from '../platform/embeddings.js';
import { errorMessage } from '../platform/errors.js';
import type { AppLogger } from '../platform/logger.js';
import { IndexBuilds } from './index-builds.js';
import type { SearchableTool, ToolIndex, ToolMatch } from './tool-index.js';

/*
 * A workspace's tool index, kept with its tool cache: derived from the cached tool items read in the
 * same Query as the workspace, and rebuilt only when they change. Where it lives and why:
 * docs/data-model.md, "The tool search index". Built by the search that first needs it, in slices
 * that yield to other requests, one build per organisation at a time (`index-builds.ts`), and
 * shared by an organisation's workspaces whose tools read the same (docs/connections.md, "Tool
 * search under load").
 */

/** Tools digested between two turns of the event loop: a workspace's 1 000 largest tools are some 40 MB to digest. */
const DIGEST_SLICE = 100;

/**
 * The tools version of a workspace, in two digests: `content`, of everything its index reads (each
 * tool's offered name, MCP name, connection name, description and schema, in order), and `ids`, of
 * the cached tools' ids in that order. Any change of the tool cache — rediscovery, a deleted or
 * renamed connection — is a new version, so an index is never stale; two workspaces of one
 * organisation with the same `content` share one built index.
 */
async function toolsVersionOf(tools: readonly NamedTool[]): Promise<{ content: string; ids: string }> {
  const content = createHash('sha256');
  const ids = createHash('sha256');
  for (let start = 0; start < tools.length; start += DIGEST_SLICE) {
    if (start > 0) await nextTurn();
    for (const { tool, connection, name } of tools.slice(start, start + DIGEST_SLICE)) {
      const schema = typeof tool.input_schema === 'string' ? tool.input_schema : JSON.stringify(tool.input_schema);
      for (const part of [name, tool.name, connection.name, tool.description, schema]) content.update(part).update('\u0000');
      ids.update(tool.id).update('\u0000');
    }
  }
  return { content: content.digest('base64url'), ids: ids.digest('base64url') };
}

/** An index's size in its cache: the tools it holds (about 2 KB of memory per tool of realistic size). */
const bySize = { max: 1_000, maxSize: 20_000, sizeCalculation: (index: ToolIndex) => Math.max(1, index.size) };

/** Built indexes, by organisation and tools content: what an organisation's workspaces of the same tools share. */
const built = new LRUCache<string, ToolIndex>(bySize);

/** The latest index of each workspace this process searched (its tools and ids over a built index). */
const indexes = new LRUCache<string, { version: string; index: ToolIndex }>({
  ...bySize,
  sizeCalculation: (entry) => bySize.sizeCalculation(entry.index),
});

/** The builds of this process: one per organisation at a time, and a few at once. */
const builds = new IndexBuilds<ToolIndex>();

/**
 * The ranking (MiniSearch and the stemmer, some 20 KB), loaded on first need like the pattern
 * engine: the agent function's cold start stays within its budget, and most of its queries never
 * search. Node keeps the module, so later calls answer at once.
 */
const ranking = () => import('./tool-index.js');

/** The fusion with tools' vectors (`fusion.ts`), loaded only where an embedding provider is configured. */
const fusion = () => import('./fusion.js');

/**
 * An index of tools that read as `content`, for an organisation: built once (in slices, in the
 * organisation's turn) and kept. Never shared between organisations: ids and what they build tell
 * nothing of another tenant, not even by how fast a first search answers.
 */
async function builtIndex(orgId: string, content: string, tools: readonly SearchableTool[]): Promise<ToolIndex> {
  const key = `${orgId}\u0000${content}`;
  const kept = built.get(key);
  if (kept) return kept;
  return builds.run(orgId, key, async () => {
    const index = await (await ranking()).buildToolIndexInSlices(tools);
    built.set(key, index);
    return index;
  });
}

/**
 * The index of a workspace's tools, built on first use and again only when its tools version
 * changes. Kept by organisation and workspace: workspace ids are unique only within an organisation.
 * A full organisation's builds are refused with a 429 (`index-builds.ts`).
 */
export async function workspaceToolIndex(orgId: string, workspaceId: string, tools: readonly NamedTool[]): Promise<ToolIndex> {
  const { content, ids } = await toolsVersionOf(tools);
  const version = `${content}.${ids}`;
  const scope = `${orgId}/${workspaceId}`;
  const cached = indexes.get(scope);
  if (cached?.version === version) return cached.index;
  const searchable = tools.map(({ tool, connection, name }) => ({
    id: tool.id,
    name,
    toolName: tool.name,
    connection: connection.name,
    description: tool.description,
    inputSchema: tool.input_schema,
  }));
  const index = (await ranking()).withTools(await builtIndex(orgId, content, searchable), searchable);
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
  const items = await deps.table.queryAll(workspaceWithChildren(viewer.orgId, workspaceId));
  const { workspace, connections, toolsByConnection, guardrails } = workspaceToolsOf(items, viewer.orgId, workspaceId);
  const tools = namedTools(connections, toolsByConnection);
  const mayUse = toolPermission(workspace, viewer.role, guardrails);
  const allowed = new Set(tools.filter((tool) => mayUse(tool.names)).map((tool) => tool.tool.id));
  const scope = { orgId: viewer.orgId, workspaceId, embedder: deps.embedder, logger: deps.logger };
  return { tools: await rankWorkspaceTools(scope, tools, query.q, { limit: query.limit ?? DEFAULT_LIMIT, allowed }) };
}

/**
 * The ranking of a workspace's tools for a question, among the `allowed` tool ids: what the
 * endpoint answers and what the model's `search_tools` finds (`agent-tool.ts`), the same for the
 * same caller.
 */
export async function rankWorkspaceTools(
  scope: { orgId: string; workspaceId: string; embedder?: Embedder | undefined; logger?: AppLogger },
  tools: readonly NamedTool[],
  query: string,
  options: { limit: number; allowed: ReadonlySet<string> },
): Promise<ToolMatch[]> {
  const [index, { searchTools }] = await Promise.all([workspaceToolIndex(scope.orgId, scope.workspaceId, tools), ranking()]);
  if (!scope.embedder) return searchTools(index, query, options);
  try {
    return await (await fusion()).fusedToolRanking(scope.orgId, scope.embedder, index, query, options);
  } catch (error) {
    scope.logger?.warn('the tool search ranked by full text alone: the embedding provider failed', { error: errorMessage(error) });
    return searchTools(index, query, options);
  }
}
