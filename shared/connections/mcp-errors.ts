import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { answerLimitReasonOf } from '../platform/answer-limits.js';
import { UnresolvableHostError, UrlRefusedError } from '../platform/url-policy.js';

/** Where the failed server ran: a stdio server that closes the connection is a process that exited. */
export interface McpFailureContext {
  transport?: 'http' | 'stdio';
}

/** The longest reason given; reasons are one line. */
const MAX_REASON_CHARS = 500;

/** What network and process error codes mean, in words of ours. */
const CODE_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection broken',
  ETIMEDOUT: 'no answer to the connection attempt',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host down',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EPROTO: 'TLS handshake failed',
  ENOENT: 'command not found',
  EACCES: 'permission denied',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the server to answer',
  UND_ERR_BODY_TIMEOUT: 'timed out waiting for the server to finish its answer',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CLOSED: 'the connection closed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate rejected',
};

/** The SDK's own protocol error codes, named; other codes (a server's) are shown as the number only. */
const MCP_CODE_NAMES = new Map<number, string>([
  [ErrorCode.ParseError, 'parse error'],
  [ErrorCode.InvalidRequest, 'invalid request'],
  [ErrorCode.MethodNotFound, 'method not found'],
  [ErrorCode.InvalidParams, 'invalid params'],
  [ErrorCode.InternalError, 'internal error'],
  [ErrorCode.ConnectionClosed, 'connection closed'],
]);

/**
 * The SSE transport's failed POST is a plain Error whose message starts with the status and then
 * quotes the server's answer; only the status is read, from the SDK's own fixed prefix.
 */
const SSE_POST_STATUS = /^Error POSTing to endpoint \(HTTP (\d{3})\)/;

/** An error and its causes, outermost first (an AggregateError's errors too); cycles end the walk. */
function chainOf(error: unknown): Error[] {
  const chain: Error[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && chain.length < 32) {
    const next = pending.shift();
    if (!(next instanceof Error) || chain.includes(next)) continue;
    chain.push(next);
    pending.push(next.cause);
    if (next instanceof AggregateError) pending.push(...next.errors);
  }
  return chain;
}

/** A string `code` an error carries, if it looks like a system or undici code (never free text). */
function codeOf(error: Error): string | undefined {
  const code: unknown = 'code' in error ? error.code : undefined;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,60}$/.test(code) ? code : undefined;
}

function reasonOfCode(code: string): string | undefined {
  const known = CODE_REASONS[code];
  if (known) return `${known} (${code})`;
  if (code.startsWith('CERT_') || code.includes('_CERT') || code.endsWith('_SIGNATURE') || code.startsWith('UNABLE_TO_'))
    return `TLS certificate rejected (${code})`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return `TLS handshake failed (${code})`;
  if (/^E[A-Z0-9]+$/.test(code) || code.startsWith('UND_ERR_')) return `network error (${code})`;
  return undefined;
}

function reasonOfStatus(status: number): string {
  if (status >= 300 && status < 400) return `the server answered HTTP ${status} (a redirect, not followed)`;
  return `the server answered HTTP ${status}`;
}

function reasonOfMcpError(error: McpError, context: McpFailureContext): string {
  if (error.code === ErrorCode.RequestTimeout) {
    const data: unknown = error.data;
    const timeout =
      typeof data === 'object' && data !== null && 'timeout' in data && typeof data.timeout === 'number' ? data.timeout : undefined;
    return timeout === undefined ? `timed out (MCP error ${error.code})` : `timed out after ${timeout} ms`;
  }
  if (error.code === ErrorCode.ConnectionClosed && context.transport === 'stdio') return 'the server process exited';
  const name = MCP_CODE_NAMES.get(error.code);
  return name ? `MCP error ${error.code} (${name})` : `MCP error ${error.code}`;
}

/**
 * Why an MCP server could not be reached or used, as one line of our own words. The reason is shown
 * to the admin who asked (the test endpoint, a save) and in query errors, and the SDK's messages
 * quote the server's HTTP answer: passing them on let a tenant read the pages of services only the
 * proxy can reach (loopback, the VPC). So the reason is built from structured facts only: our own
 * URL-policy refusals, the HTTP status, a system error code from the cause chain, the MCP error
 * code; never text the server sent.
 */
export function mcpFailureReason(error: unknown, context: McpFailureContext = {}): string {
  return oneLine(classify(error, context));
}

function classify(error: unknown, context: McpFailureContext): string {
  // Ours: an answer cut at its limit, named by the limit.
  const overLimit = answerLimitReasonOf(error);
  if (overLimit) return overLimit;
  const chain = chainOf(error);
  for (const cause of chain) {
    // Ours: they name the URL the admin gave and the policy's reason, nothing from a server.
    if (cause instanceof UrlRefusedError || cause instanceof UnresolvableHostError) return cause.message;
  }
  for (const cause of chain) {
    if (cause instanceof McpError) return reasonOfMcpError(cause, context);
    if (cause instanceof StreamableHTTPError || cause instanceof SseError) {
      if (cause.code !== undefined && cause.code >= 100 && cause.code <= 599) return reasonOfStatus(cause.code);
      if (cause instanceof StreamableHTTPError && cause.code === -1) return 'the server answered with a content type that is not MCP';
    }
    const status = SSE_POST_STATUS.exec(cause.message)?.[1];
    if (status) return reasonOfStatus(Number(status));
  }
  for (const cause of chain) {
    const code = codeOf(cause);
    const reason = code ? reasonOfCode(code) : undefined;
    if (reason) return reason;
  }
  return 'the server did not complete the MCP handshake';
}

function oneLine(reason: string): string {
  return reason.replace(/\s+/g, ' ').trim().slice(0, MAX_REASON_CHARS);
}
