import { INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { errorMessage } from './errors.js';

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

/** Whether an SDK records spans (set when an entry point registers one: tracing-sdk.ts). */
let recording = false;
/** Whether spans may carry prompts, answers and tool arguments and results (`OTEL_CAPTURE_CONTENT`). */
let contentCaptured = false;

/** Called by `registerTracing` (tracing-sdk.ts): from then on the core makes real spans. */
export function tracingStarted(): void {
  recording = true;
}

/** Whether spans are recorded: without an SDK, the request and store middlewares are not even installed. */
export function tracingOn(): boolean {
  return recording;
}

/** Set by the entry point that starts the SDK, from `OTEL_CAPTURE_CONTENT` (off unless set). */
export function captureContent(on: boolean): void {
  contentCaptured = on;
}

/** Attributes that hold content, made (a JSON of the arguments, say) only when content is captured. */
export function contentAttributes(attributes: () => Attributes): Attributes {
  return recording && contentCaptured ? attributes() : {};
}

/** What `run` gets when no SDK records: the API's non-recording span, shared. */
const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

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
  networkTransport: 'network.transport',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  errorMessage: 'error.message',
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
  options: { kind?: SpanKind; attributes?: () => Attributes },
  run: (span: Span) => Promise<T>,
): Promise<T> {
  // No SDK: no span, no context switch, not even the attributes' object (the agent loop's hot path).
  if (!recording) return run(NOT_RECORDING);
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes?.() }, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      // An exception's message may quote a server (the MCP SDK puts a response body in it): the
      // span says only its name, and the message goes in with content.
      failSpan(span, error instanceof Error ? error.name : 'error', errorMessage(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Marks a span failed with `error.type` = `type`. `detail` (a tool's error output, a query's error)
 * may carry what a tool or a tenant wrote: it goes into the span only when content is captured.
 */
export function failSpan(span: Span, type: string, detail: string): void {
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  span.setAttributes(contentAttributes(() => ({ [ATTR.errorMessage]: detail })));
}

export { SpanKind };
