import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOL_LIMITS, type StdioServerEntry, type ToolLimits } from '../platform/config.js';
import type { AppLogger } from '../platform/logger.js';
import { failSpan, inSpan, SpanKind } from '../platform/tracing.js';
import { inInitializeSpan, toolCallAttributes } from './mcp-spans.js';
import { catalogueEntryOf } from './catalogue.js';
import { mcpFailureReason } from './mcp-errors.js';
import { assertUrlAllowed, createGuardedFetch, UrlRefusedError, type GuardedFetch } from '../platform/url-policy.js';
import { answerLimitReasonOf } from '../platform/answer-limits.js';
import { outputSchemaValidator } from './output-schemas.js';
import { TenantPools } from './tenant-pools.js';
import { resultText } from './tool-results.js';
import { withTimeout } from '../platform/timing.js';
import { listBoundedTools, type ToolListing } from './tool-listing.js';

/** A connection's static credentials: request headers (http), environment variables (stdio). */
export interface ConnectionCredentials {
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

/** Where an MCP server is and how to reach it. */
export interface ConnectionSpec {
  transport: 'http' | 'stdio';
  url?: string | null;
  command?: string | null;
  args?: string[];
  /** Opened only when a session is opened (a warm query decrypts nothing). */
  credentials?: () => Promise<ConnectionCredentials>;
  /** Changes when the connection is edited, so a process holding a session with old settings opens a new one. */
  version?: string;
  /** An OAuth connection's grant (`connections/oauth.ts`): the transport sends its token and refreshes it. */
  authProvider?: OAuthClientProvider;
  /** Whose connection pools its requests use (`tenant-pools.ts`). */
  orgId?: string;
}

/** The result of a tool call, reduced to what goes back to the model. */
export interface ToolCallOutcome {
  text: string;
  isError: boolean;
}

/** Why a connection could not be made or used; the message is shown to admins and in query errors. */
export class McpConnectionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'McpConnectionError';
  }
}

export interface McpHubOptions {
  allowPrivateUrls: boolean;
  /** The stdio catalogue (`MCP_STDIO_SERVERS`): the only command lines a stdio connection may run. */
  stdioServers: Record<string, StdioServerEntry>;
  /** Connect and tools/list timeout, and the default tool call timeout. */
  timeoutMs: number;
  /** The largest JSON-RPC answer, SSE event or stdio line read from a tool server (`MCP_MAX_RESPONSE_BYTES`; default 8 MiB). */
  maxResponseBytes?: number;
  /** Open connections per tool-server origin (`MCP_MAX_CONNECTIONS_PER_ORIGIN`; default 32). */
  maxConnectionsPerOrigin?: number;
  /** What a tool list may hold (`MCP_MAX_TOOLS_*`, `MCP_MAX_TOOL_*_BYTES`; default `DEFAULT_TOOL_LIMITS`). */
  toolLimits?: ToolLimits;
  logger: AppLogger;
}

const NEEDS_AUTHORIZATION = 'it needs authorization: its OAuth grant is missing, expired or was revoked';

/** Whether a failure is the server wanting a (new) OAuth grant, wherever it sits in the cause chain. */
export function needsAuthorization(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof UnauthorizedError) return true;
  }
  return false;
}

/** Counters the benchmark reads to show a warm query opens no session and lists no tools. */
export interface McpHubStats {
  sessionsOpened: number;
  toolLists: number;
  toolCalls: number;
}

const CLIENT_INFO = { name: 'workspace-agent-proxy', version: '0.1.0' };

function describe(spec: ConnectionSpec): string {
  return spec.transport === 'http' ? String(spec.url) : [spec.command, ...(spec.args ?? [])].join(' ');
}

/** Identity of a live session: an edited connection (new URL or command) gets a new one. */
function sessionKey(connectionId: string, spec: ConnectionSpec): string {
  return `${connectionId}\u0000${spec.transport}\u0000${describe(spec)}\u0000${spec.version ?? ''}`;
}

/**
 * MCP clients of the service. Live sessions are kept per connection and reused by every query
 * of the warm process; a session that closes or fails is dropped and made again on next use.
 * `closeAll` ends them all on shutdown.
 */
export class McpHub {
  readonly stats: McpHubStats = { sessionsOpened: 0, toolLists: 0, toolCalls: 0 };
  private readonly sessions = new Map<string, Promise<Client>>();
  private readonly pools: TenantPools;

  constructor(private readonly options: McpHubOptions) {
    this.pools = new TenantPools(() => createGuardedFetch(options.allowPrivateUrls, options));
  }

  /**
   * The fetch of an organisation's OAuth requests (discovery, registration, token): the URL policy at
   * connect time, answers of at most 64 KiB (`answer-limits.ts`), its own pools, and the hub's
   * timeout, which the SDK does not set.
   */
  oauthFetchFor(orgId: string): GuardedFetch['fetch'] {
    return (url, init) => {
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      return this.pools.of(orgId).oauthFetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
    };
  }

  /** Refuses a spec the policy does not allow (URL ranges, the stdio catalogue) before any request. */
  async assertAllowed(spec: ConnectionSpec): Promise<void> {
    if (spec.transport === 'http') {
      if (!spec.url) throw new UrlRefusedError('an http connection needs a url');
      await assertUrlAllowed(spec.url, this.options.allowPrivateUrls);
      return;
    }
    if (!spec.command) throw new McpConnectionError('a stdio connection needs a command');
    if (!catalogueEntryOf(this.options.stdioServers, spec)) {
      const names = Object.keys(this.options.stdioServers);
      throw new McpConnectionError(
        `only the stdio servers the operator lists in MCP_STDIO_SERVERS may run, with exactly their command and args (${names.length ? `listed: ${names.join(', ')}` : 'none are listed'}; GET /api/connectors/mcp/catalogue shows them)`,
      );
    }
  }

  private stdioTransport(spec: ConnectionSpec, env: Record<string, string>): Transport {
    // A minimal environment (PATH, HOME, USER and the like, never the service's own credentials),
    // plus the variables the connection sets (only names its catalogue entry declares).
    return new StdioClientTransport({
      command: spec.command ?? '',
      args: spec.args ?? [],
      env: { ...getDefaultEnvironment(), ...env },
      stderr: 'ignore',
      // The SDK's line buffer, bounded like an HTTP answer: past it the SDK closes the process.
      ...(this.options.maxResponseBytes ? { maxBufferSize: this.options.maxResponseBytes } : {}),
    });
  }

  /** Opens a session: streamable HTTP first, then the older SSE transport for servers that only speak it. */
  private async open(spec: ConnectionSpec): Promise<Client> {
    const [, jsonSchemaValidator] = await Promise.all([this.assertAllowed(spec), outputSchemaValidator()]);
    const connect = async (transport: Transport) => {
      const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator });
      try {
        const { timeoutMs } = this.options;
        const timedOut = () => new McpConnectionError(`connecting timed out after ${timeoutMs} ms`);
        await inInitializeSpan(spec, () => withTimeout(client.connect(transport), timeoutMs, timedOut));
      } catch (error) {
        await client.close().catch(() => undefined);
        throw error;
      }
      this.stats.sessionsOpened += 1;
      return client;
    };
    const credentials = (await spec.credentials?.()) ?? {};
    if (spec.transport === 'stdio') return connect(this.stdioTransport(spec, credentials.env ?? {}));
    const url = new URL(spec.url ?? '');
    const fetch = this.pools.of(spec.orgId).fetch;
    const http = { fetch, requestInit: { headers: credentials.headers ?? {} }, authProvider: spec.authProvider };
    try {
      return await connect(new StreamableHTTPClientTransport(url, http));
    } catch (streamableError) {
      if (streamableError instanceof UrlRefusedError || this.isRefusal(streamableError)) throw streamableError;
      try {
        // The SDK sends requestInit's headers on the event stream's request too.
        return await connect(new SSEClientTransport(url, http));
      } catch {
        throw streamableError;
      }
    }
  }

  private isRefusal(error: unknown): boolean {
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof UrlRefusedError) return true;
    }
    return false;
  }

  /**
   * The reason a connection failed, as one line for an admin (refusals named as such). Never the
   * server's own text (see `mcpFailureReason`); the hub's own errors already carry such a reason.
   */
  reasonOf(error: unknown, spec?: ConnectionSpec): string {
    if (needsAuthorization(error)) return NEEDS_AUTHORIZATION;
    if (error instanceof McpConnectionError) return error.message.slice(0, 500);
    return mcpFailureReason(error, { transport: spec?.transport });
  }

  /** The live session of a connection, opened if there is none. Concurrent callers share one open. */
  session(connectionId: string, spec: ConnectionSpec): Promise<Client> {
    const key = sessionKey(connectionId, spec);
    const existing = this.sessions.get(key);
    if (existing) return existing;
    const opening = this.open(spec).then(
      (client) => {
        client.onclose = () => {
          if (this.sessions.get(key) === opening) this.sessions.delete(key);
        };
        return client;
      },
      (error: unknown) => {
        this.sessions.delete(key);
        throw new McpConnectionError(this.reasonOf(error, spec), { cause: error });
      },
    );
    this.sessions.set(key, opening);
    return opening;
  }

  /** Drops a connection's sessions (after it is deleted or edited, or when one breaks). */
  async drop(connectionId: string): Promise<void> {
    const closing: Promise<unknown>[] = [];
    for (const [key, session] of this.sessions) {
      if (!key.startsWith(`${connectionId}\u0000`)) continue;
      this.sessions.delete(key);
      closing.push(session.then((client) => client.close()).catch(() => undefined));
    }
    await Promise.all(closing);
  }

  /** A server's tools within the tool limits (`tool-listing.ts`): what is past them is dropped or cut, and noted. */
  private discover(client: Client): Promise<ToolListing> {
    return listBoundedTools(client, this.options.toolLimits ?? DEFAULT_TOOL_LIMITS, {
      timeoutMs: this.options.timeoutMs,
      onPage: () => {
        this.stats.toolLists += 1;
      },
    });
  }

  /** Lists a connection's tools over its live session. */
  async listTools(connectionId: string, spec: ConnectionSpec): Promise<ToolListing> {
    const client = await this.session(connectionId, spec);
    try {
      return await this.discover(client);
    } catch (error) {
      await this.drop(connectionId);
      throw new McpConnectionError(`listing tools failed: ${this.reasonOf(error, spec)}`, { cause: error });
    }
  }

  /**
   * One-off check of a server (the test endpoint, and discovery at save): its own session,
   * closed afterwards, so an unsaved server never holds a live session.
   */
  async probe(spec: ConnectionSpec): Promise<ToolListing & { server: string }> {
    let client: Client | undefined;
    try {
      client = await this.open(spec);
      const listing = await this.discover(client);
      const version = client.getServerVersion();
      return { server: version ? `${version.name} ${version.version}`.trim() : 'unknown', ...listing };
    } catch (error) {
      throw new McpConnectionError(this.reasonOf(error, spec), { cause: error });
    } finally {
      await client?.close().catch(() => undefined);
    }
  }

  /**
   * Calls a tool. Errors (the tool's own, a timeout, a broken session) come back as an error
   * outcome for the model, never as an exception; a broken session is dropped so the next call
   * reconnects.
   */
  async callTool(
    connectionId: string,
    spec: ConnectionSpec,
    name: string,
    args: Record<string, unknown>,
    timeoutMs = this.options.timeoutMs,
  ): Promise<ToolCallOutcome> {
    this.stats.toolCalls += 1;
    // The MCP conventions' client span of a tools/call: the method, the tool, where the server is.
    return inSpan(`tools/call ${name}`, { kind: SpanKind.CLIENT, attributes: () => toolCallAttributes(spec, name) }, async (span) => {
      const outcome = await this.callToolOnce(connectionId, spec, name, args, timeoutMs);
      if (outcome.isError) failSpan(span, 'tool_error', outcome.text);
      return outcome;
    });
  }

  private async callToolOnce(
    connectionId: string,
    spec: ConnectionSpec,
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<ToolCallOutcome> {
    try {
      // Waiting for the session counts in the call's time (a query's tool budget bounds both).
      const late = () => new McpConnectionError(`connecting timed out after ${timeoutMs} ms`);
      const client = await withTimeout(this.session(connectionId, spec), timeoutMs, late);
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
      return { text: resultText(result), isError: result.isError === true };
    } catch (error) {
      const overLimit = answerLimitReasonOf(error); // an answer cut at its limit: the session is intact
      if (overLimit) return { text: `tool ${name} failed: ${overLimit}`, isError: true };
      // The call's own JSON-RPC error is the tool's output for the model; any other failure is the connection's.
      const reason = error instanceof McpError ? error.message : this.reasonOf(error, spec);
      if (/timed out|timeout/i.test(reason)) return { text: `tool ${name} timed out after ${timeoutMs} ms`, isError: true };
      if (!(error instanceof Error && 'code' in error && typeof error.code === 'number')) await this.drop(connectionId);
      return { text: `tool ${name} failed: ${reason}`, isError: true };
    }
  }

  /** Closes every live session (shutdown). */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => session.then((client) => client.close()).catch(() => undefined)));
    await this.pools.closeAll();
  }
}
