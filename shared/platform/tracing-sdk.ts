import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Config } from './config.js';
import { captureContent, tracingStarted } from './tracing.js';

/**
 * The OpenTelemetry SDK, started by the entry points only (`bin/local.ts`, the Lambda handlers),
 * and only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: the core records through `@opentelemetry/api`
 * (shared/platform/tracing.ts), which without this is a no-op. Spans go in batches over OTLP/HTTP
 * (JSON) to `<endpoint>/v1/traces`, with the headers of `OTEL_EXPORTER_OTLP_HEADERS` (an API key
 * of Honeycomb, Langfuse…), which the exporter reads itself.
 */
export interface Tracing {
  /** Sends what is batched (a Lambda function, before its invocation ends and it may be frozen). */
  flush(): Promise<void>;
  /** Sends what is batched and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the tracer provider and context manager globally, exporting through `processor`. No
 * propagator: a caller's `traceparent` is not taken (anyone may send one, choosing trace ids and
 * sampling), and none is sent to tool servers or the model's provider.
 */
export function registerTracing(service: string, processor: SpanProcessor): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'service.version': '0.1.0' }),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  tracingStarted();
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/** Starts tracing to the configured OTLP endpoint; undefined (nothing started) without one. */
export function startTracing(
  config: Pick<Config, 'otlpEndpoint' | 'otelCaptureContent'>,
  service = 'workspace-agent-proxy',
): Tracing | undefined {
  if (!config.otlpEndpoint) return undefined;
  captureContent(config.otelCaptureContent);
  const exporter = new OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` });
  return registerTracing(service, new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 }));
}
