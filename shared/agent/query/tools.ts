import {
  recordDiscoveredTools,
  recordHealth,
  refreshTools,
  connectionSpec,
  type ConnectionItem,
  toolSchemaOf,
  type ToolItem,
  toolPermission,
  type NamedTool,
  needsAuthorization,
  startGrant,
} from '../../connections/index.js';
import type { Guardrail } from '../../guardrails/index.js';
import {
  CITE_INSTRUCTION,
  type CitationLedger,
  documentSearch,
  fitsPrompt,
  type IndexManifest,
  type KnowledgeItem,
  knowledgeSection,
  SEARCH_KNOWLEDGE_TOOL,
} from '../../knowledge/index.js';
import { mcpOf, type Deps } from '../../deps.js';
import { type WorkspaceItem, approvalRule, approvalSettingOf } from '../../workspaces/index.js';
import type { LoopTool } from '../loop.js';

/*
 * Which tools a query offers the model, and reaching their servers: the workspace's tools the
 * caller may use (names, permissions and block_tool guardrails in connections/tool-access.ts, shared
 * with the tool search), the knowledge tool, connecting every connection.
 */

/** How servers word a call to a tool they no longer have. */
const STALE_TOOL = /unknown tool|tool .*not found|no such tool/i;

/** An MCP tool the caller may use, as the loop runs it, with what the tool search needs of it. */
export interface OfferedTool extends LoopTool {
  /** The cached tool's id (`<connection id>:<MCP name>`): what the search index knows it by. */
  toolId: string;
  /** Every name it goes by (a pin names any of them). */
  names: string[];
  /** Whether the tool writes (not marked read-only by its server). */
  isWrite: boolean;
}

/**
 * The tools offered to the model: MCP tool names, prefixed with the connection name only where
 * two connections of the workspace expose the same name; then only those the caller's role may use
 * and no `block_tool` guardrail names (each matched on every name of the tool).
 */
export function offeredTools(
  deps: Deps,
  workspace: WorkspaceItem,
  role: string,
  /** The workspace's cached tools, named (`namedTools`). */
  named: readonly NamedTool[],
  guardrails: Guardrail[] = [],
  /** Whose grant a per-user connection's calls use (`Caller.grantSubject`, else the owner). */
  caller: string,
): OfferedTool[] {
  const mayUse = toolPermission(workspace, role, guardrails);
  const needsApproval = approvalRule(approvalSettingOf(workspace));
  const offered: OfferedTool[] = [];
  for (const { tool, connection, name, names } of named) {
    if (!mayUse(names)) continue;
    offered.push({
      toolId: tool.id,
      names,
      isWrite: tool.is_write,
      spec: { name, description: tool.description, inputSchema: toolSchemaOf(tool) },
      connectionName: connection.name,
      needsApproval: needsApproval({ isWrite: tool.is_write, names }),
      run: async (input, limits) => {
        // The workspace's timeout of one call (else the service's), and never past the query's tool budget.
        const perCall = workspace.tool_timeout_seconds ? workspace.tool_timeout_seconds * 1000 : deps.config.mcpTimeoutMs;
        const timeoutMs = Math.min(perCall, limits?.timeoutMs ?? perCall);
        const outcome = await mcpOf(deps).callTool(connection.id, connectionSpec(deps, connection, caller), tool.name, input, timeoutMs);
        // The cached list may be stale (the server dropped or renamed the tool): list again.
        if (outcome.isError && STALE_TOOL.test(outcome.text)) {
          await refreshTools(deps, connection, caller).catch((error: unknown) =>
            deps.logger.warn('refreshing tools failed', { connection: connection.id, error: mcpOf(deps).reasonOf(error) }),
          );
        }
        return outcome;
      },
    });
  }
  return offered;
}

/** The knowledge a query gives the model: in its prompt, as `search_knowledge`, and the ledger of the passages it may cite. */
export interface KnowledgeForQuery {
  prompt: string;
  tool: LoopTool | undefined;
  /** The passages given to the model, numbered: the answer's citations (none without documents). */
  citations?: CitationLedger;
}

/** `search_knowledge` over the workspace's documents (its entries among them). */
function searchTool(documents: ReturnType<typeof documentSearch>): LoopTool {
  return {
    spec: SEARCH_KNOWLEDGE_TOOL,
    run: async (input) => {
      const passages = await documents.search(String(input.query ?? ''));
      return passages
        ? { text: passages, isError: false }
        : { text: 'Nothing in the knowledge base matches these keywords.', isError: false };
    },
  };
}

/**
 * Knowledge entries reach the model in the cached system prefix while they fit the budget. The
 * model gets the built-in `search_knowledge` tool, whose passages it cites as [n], when the
 * workspace's index (`documents`: its manifest, read with the workspace) holds more than the entries
 * in the prompt: an uploaded document, or entries beyond the budget (each entry is a document too).
 */
export function knowledgeFor(
  deps: Deps,
  where: { orgId: string; workspaceId: string },
  knowledge: KnowledgeItem[],
  documents: IndexManifest | undefined,
): KnowledgeForQuery {
  const sorted = [...knowledge].sort((a, b) => a.title.localeCompare(b.title));
  const inPrompt = fitsPrompt(sorted);
  const prompt = inPrompt ? `\n\n${knowledgeSection(sorted)}` : '';
  const allInPrompt = inPrompt && (documents?.documents ?? 0) <= sorted.length;
  if (!documents || documents.passages === 0 || allInPrompt) return { prompt, tool: undefined };
  const search = documentSearch(deps, where.orgId, where.workspaceId, documents);
  return { prompt: prompt + CITE_INSTRUCTION, tool: searchTool(search), citations: search.ledger };
}

/** What connecting found: why connections could not be reached, and where the caller grants a per-user one. */
export interface Reachability {
  failures: string[];
  authorizationUrl?: string;
}

/** A per-user connection the caller has not granted (or whose grant lapsed): a grant of their own, when they can finish one. */
async function askForGrant(deps: Deps, connection: ConnectionItem, caller: { subject: string; orgId: string }) {
  // A signed-in user finishes the grant in their browser, in team chat the user the chat account is
  // linked to (`user:<id>`). Keys, webhooks and unlinked chat users (`chat:`) have nobody to ask.
  const userId = caller.subject.startsWith('user:') ? caller.subject.slice('user:'.length) : undefined;
  const failure = `MCP connection "${connection.name}" needs your authorization`;
  if (!userId) {
    const who = caller.subject.startsWith('chat:') ? 'a chat user gives it once their chat account is linked' : 'only a person can';
    return { failure: `${failure}, which this caller cannot give (${who})` };
  }
  const url = await startPersonGrant(deps, connection, { subject: caller.subject, userId, orgId: caller.orgId });
  return { failure: `${failure}: open authorization_url to grant it, then ask again`, authorizationUrl: url };
}

/** Starts a person's own grant of a per-user connection: the link they open to give it (also the MCP gateway's, agent/gateway/grants.ts). */
export function startPersonGrant(deps: Deps, connection: ConnectionItem, person: { subject: string; userId: string; orgId: string }) {
  const target = {
    connectionId: connection.id,
    serverUrl: connection.url ?? '',
    subject: person.subject,
    redirectUrl: connection.oauth_redirect_url ?? '',
  };
  return startGrant(deps, target, { userId: person.userId, orgId: person.orgId });
}

/**
 * Connects to every connection in parallel (live sessions are reused) and lists the tools of any
 * stdio connection used for the first time. Answers the unreachable connections with why.
 */
export async function connectAll(
  deps: Deps,
  connections: ConnectionItem[],
  toolsByConnection: Map<string, ToolItem[]>,
  /** Whose grant a per-user connection uses, and their organisation (to start one). */
  caller: { subject: string; orgId: string },
): Promise<Reachability> {
  let authorizationUrl: string | undefined;
  const failures = await Promise.all(
    connections.map(async (connection) => {
      const spec = connectionSpec(deps, connection, caller.subject);
      try {
        await mcpOf(deps).session(connection.id, spec);
        if (!connection.tools_discovered) {
          const tools = await mcpOf(deps).listTools(connection.id, spec);
          toolsByConnection.set(connection.id, await recordDiscoveredTools(deps, connection, tools));
        }
        // Health is a hint for the listing: a failed write of it never fails the query.
        await recordHealth(deps, connection, undefined).catch(() => undefined);
        return undefined;
      } catch (error) {
        if (needsAuthorization(error) && connection.credential === 'per_user') {
          const asked = await askForGrant(deps, connection, caller);
          authorizationUrl ??= asked.authorizationUrl;
          return asked.failure;
        }
        const reason = mcpOf(deps).reasonOf(error);
        const status = needsAuthorization(error) ? 'needs_authorization' : 'error';
        await recordHealth(deps, connection, { status, reason }).catch(() => undefined);
        return status === 'needs_authorization'
          ? `MCP connection "${connection.name}" needs authorization: an admin grants it again with POST /api/connections/${connection.id}/authorize`
          : `MCP connection "${connection.name}" is unreachable: ${reason}`;
      }
    }),
  );
  return { failures: failures.filter((failure): failure is string => failure !== undefined), authorizationUrl };
}
