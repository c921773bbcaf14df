import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/**
 * Spans of the core, through `@opentelemetry/api` alone (docs/observability.md). The SDK that
 * records and exports them is started by the entry points (`bin/local.ts`, the Lambda handlers)
 * when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; with none started, every span here is the API's
 * no-op and costs next to nothing.
 *
 * Attribute names follow the OpenTelemetry semantic conventions: GenAI (`gen_ai.*`) for the
 * query and its tool calls, MCP (`mcp.*`) for calls to tool servers, the AWS SDK's (`rpc.*`,
 * `db.*`, `aws.dynamodb.*`) for the store. Model calls are spanned by Anthropic's SDK itself.
 */

const tracer = trace.getTracer('workspace-agent-proxy', '0.1.0');

/** Whether spans may carry prompts, answers and tool arguments and results (`OTEL_CAPTURE_CONTENT`). */
let contentCaptured = false;

/** Set by the entry point that starts the SDK, from `OTEL_CAPTURE_CONTENT` (off unless set). */
export function captureContent(on: boolean): void {
  contentCaptured = on;
}

/** Attributes that hold content: set only when content is captured. */
export function contentAttributes(attributes: Attributes): Attributes {
  return contentCaptured ? attributes : {};
}

/** The semantic conventions' names used here (checked against `@opentelemetry/semantic-conventions` by the tests). */
export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  mcpMethod: 'mcp.method.name',
  mcpSessionId: 'mcp.session.id',
  networkTransport: 'network.transport',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  rpcSystem: 'rpc.system',
  rpcService: 'rpc.service',
  rpcMethod: 'rpc.method',
  dbSystem: 'db.system',
  dbOperation: 'db.operation.name',
  dynamoTables: 'aws.dynamodb.table_names',
  cloudRegion: 'cloud.region',
} as const;

/**
 * Runs `run` in a span that is the current span meanwhile (so the spans it causes are its
 * children), and ends it: an exception marks it failed with the error's type, and goes on.
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  run: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed: `error.type` (the error's name) and status ERROR with its message. */
export function failSpan(span: Span, error: unknown, type?: string): void {
  const name = type ?? (error instanceof Error ? error.name : 'error');
  span.setAttribute(ATTR.errorType, name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export { SpanKind };
