import type { LoopTool, OfferedTool } from '../agent/index.js';
import { TooManyRequestsError } from '../platform/errors.js';
import type { NamedTool } from '../connections/index.js';
import { type WorkspaceItem, toolSearchSettingOf } from '../workspaces/index.js';
import type { Embedder } from '../platform/embeddings.js';
import type { AppLogger } from '../platform/logger.js';
import { rankWorkspaceTools } from './search.js';

/*
 * The model's side of the tool search (CONTRACT.md, "Many tools"; docs/agent-loop.md, "Tool
 * search"): past the workspace's threshold the model is offered `search_tools`, the pinned tools
 * and the knowledge tool; every other tool it may use is deferred, and becomes callable for the
 * rest of the query once a search finds it.
 */

const SEARCH_TOOLS = 'search_tools';
const DEFAULT_MATCHES = 5;
const MAX_MATCHES = 10;
/** A description longer than this is cut in the result's line (the tool's own definition keeps it whole). */
const LINE_DESCRIPTION_CHARS = 300;

const SPEC = {
  name: SEARCH_TOOLS,
  description:
    "Finds this workspace's tools by what they do. Describe the action in a few words (for example: create a ticket, refund an order). The tools found can be called right after, for the rest of this conversation turn. Search again with other words when nothing fits.",
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do, in a few words.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_MATCHES, description: `How many tools to find (default ${DEFAULT_MATCHES}).` },
    },
    required: ['query'],
  },
};

const PROMPT =
  '\n\nThis workspace has more tools than are listed: find the ones a request needs with search_tools (it answers the best matches first), then call them.';

/** What a query offers when its tools are searched. */
export interface ToolSearchPlan {
  /** `search_tools`, the pinned tools, the built-in ones (the knowledge tool), then every other tool deferred. */
  tools: LoopTool[];
  /** Added to the system prompt. */
  prompt: string;
}

/** One line per tool found: `<offered name>: <description>` (on one line, cut when long). */
function lineOf(name: string, description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const short = flat.length > LINE_DESCRIPTION_CHARS ? `${flat.slice(0, LINE_DESCRIPTION_CHARS - 1)}…` : flat;
  return short ? `${name}: ${short}` : name;
}

/** The query's `limit`, or why it cannot be used. */
function limitOf(value: unknown): number | string {
  if (value === undefined || value === null) return DEFAULT_MATCHES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MATCHES) {
    return `limit must be a whole number from 1 to ${MAX_MATCHES}`;
  }
  return value;
}

/**
 * Whether the query searches its tools (the workspace's `tool_search` setting and how many tools
 * the caller may use), and then what it offers; undefined when it is sent every tool.
 */
export function planToolSearch(
  /** With the embedding provider, when one is configured: the search then fuses full text with tools' vectors. */
  scope: { orgId: string; workspace: WorkspaceItem; embedder?: Embedder | undefined; logger?: AppLogger },
  /** Every cached tool of the workspace, named (what the index is built from). */
  named: readonly NamedTool[],
  /** The tools the caller may use, as the loop runs them. */
  offered: readonly OfferedTool[],
  /** Tools of the service's own (the knowledge tool): never deferred. */
  builtIn: readonly LoopTool[] = [],
): ToolSearchPlan | undefined {
  const setting = toolSearchSettingOf(scope.workspace);
  if (setting.mode === 'off' || offered.length === 0) return undefined;
  if (setting.mode === 'auto' && offered.length <= setting.threshold) return undefined;
  const pinned = new Set(setting.pinned);
  const isPinned = (tool: OfferedTool) => tool.names.some((name) => pinned.has(name));
  const deferred = offered.filter((tool) => !isPinned(tool));
  const allowed = new Set(offered.map((tool) => tool.toolId));
  const deferredNames = new Set(deferred.map((tool) => tool.spec.name));
  const search: LoopTool = {
    spec: SPEC,
    run: async (input) => {
      const query = typeof input.query === 'string' ? input.query.trim() : '';
      const limit = limitOf(input.limit);
      if (!query) return { text: 'query is required: what the tool should do, in a few words', isError: true };
      if (typeof limit === 'string') return { text: limit, isError: true };
      const scopeIds = { orgId: scope.orgId, workspaceId: scope.workspace.id, embedder: scope.embedder, logger: scope.logger };
      const matches = await rankWorkspaceTools(scopeIds, named, query, { limit, allowed }).catch((error: unknown) => {
        // The organisation's indexes are being built (`index-builds.ts`): the model may search again.
        if (error instanceof TooManyRequestsError) return error.message;
        throw error;
      });
      if (typeof matches === 'string') return { text: matches, isError: true };
      if (!matches.length) return { text: `No tool of this workspace matches "${query}". Try other words.`, isError: false };
      // Each deferred match is referenced, which makes it callable (and, with Anthropic, loads its definition).
      const references = matches.map((match) => match.name).filter((name) => deferredNames.has(name));
      return { text: matches.map((match) => lineOf(match.name, match.description)).join('\n'), isError: false, references };
    },
  };
  return {
    tools: [
      search,
      ...offered.filter(isPinned),
      ...builtIn,
      ...deferred.map((tool): OfferedTool => ({ ...tool, spec: { ...tool.spec, deferred: true } })),
    ],
    prompt: PROMPT,
  };
}
