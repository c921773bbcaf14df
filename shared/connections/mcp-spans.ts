import type { Attributes } from '@opentelemetry/api';
import { ATTR, inSpan, SpanKind } from '../platform/tracing.js';

/** Where a tool server is, as the hub knows it (`ConnectionSpec` of mcp-hub.ts). */
interface ServerLocation {
  transport: 'http' | 'stdio';
  url?: string | null;
}

/** Where the server is (the MCP conventions): the transport, host and port, never the URL's path, query or credentials. */
function serverAttributes(spec: ServerLocation): Attributes {
  if (spec.transport === 'stdio') return { [ATTR.networkTransport]: 'pipe' };
  try {
    const url = new URL(spec.url ?? '');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { [ATTR.networkTransport]: 'tcp', [ATTR.serverAddress]: url.hostname, [ATTR.serverPort]: port };
  } catch {
    return { [ATTR.networkTransport]: 'tcp' };
  }
}

/** The span attributes of a call to a tool: the method, the tool, where the server is. */
export function toolCallAttributes(spec: ServerLocation, tool: string): Attributes {
  return { [ATTR.mcpMethod]: 'tools/call', [ATTR.toolName]: tool, [ATTR.operation]: 'execute_tool', ...serverAttributes(spec) };
}

/** Opening a session (the MCP `initialize` exchange; for stdio, starting the server's process too) in a client span. */
export function inInitializeSpan<T>(spec: ServerLocation, run: () => Promise<T>): Promise<T> {
  return inSpan(
    'initialize',
    { kind: SpanKind.CLIENT, attributes: () => ({ [ATTR.mcpMethod]: 'initialize', ...serverAttributes(spec) }) },
    run,
  );
}
