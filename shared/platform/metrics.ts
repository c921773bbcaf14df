/*
 * The service's metrics: one port, three adapters. Recording is an in-memory increment (no await,
 * no I/O) where a fact is known once: a query when it is stored (agent/query/persist.ts), an
 * approval when it is requested or decided (approvals/), a job's outcome in the worker
 * (jobs/worker.ts). What happens to the numbers is the adapter's:
 *
 * - `NO_METRICS` (the default, and every test that does not look): nothing;
 * - `EmfMetrics` (metrics-emf.ts, the Lambda functions that run the agent and the jobs): CloudWatch
 *   Embedded Metric Format through Powertools, written at the end of each invocation (`flush`);
 * - `PrometheusMetrics` (metrics-prometheus.ts, the local runtime): an in-process registry that
 *   `GET /metrics` renders in the Prometheus text format (bin/metrics.ts).
 */

/** How a metric adds up: a counter only grows; a histogram keeps a distribution of observations. */
type MetricType = 'counter' | 'histogram';

/** The CloudWatch units the service uses (Powertools' `MetricUnit` values). */
type MetricUnitName = 'Count' | 'Milliseconds' | 'None';

export interface MetricDefinition {
  type: MetricType;
  /** The CloudWatch metric name (EMF). */
  emf: string;
  /** The Prometheus metric family name (counters end in `_total`, units are base units). */
  prometheus: string;
  help: string;
  unit: MetricUnitName;
  /** The labels (Prometheus) or dimensions (CloudWatch) of its samples, always all of them. */
  labels: readonly string[];
  /** Prometheus only: what the recorded value is divided by to give the exposed one (milliseconds → seconds). */
  prometheusDivisor?: number;
}

/** Every metric of the service; the names are what `count` and `observe` take. */
export const METRICS = {
  queries: {
    type: 'counter',
    emf: 'Queries',
    prometheus: 'wap_queries_total',
    help: 'Queries asked (a query resumed after an approval is not counted again).',
    unit: 'Count',
    labels: ['workspace'],
  },
  query_errors: {
    type: 'counter',
    emf: 'QueryErrors',
    prometheus: 'wap_query_errors_total',
    help: 'Queries (or their parts after an approval) that ended with an error.',
    unit: 'Count',
    labels: ['workspace'],
  },
  input_tokens: {
    type: 'counter',
    emf: 'InputTokens',
    prometheus: 'wap_input_tokens_total',
    help: 'Uncached model input tokens of queries (cache reads and writes are counted apart).',
    unit: 'Count',
    labels: ['workspace'],
  },
  cache_read_tokens: {
    type: 'counter',
    emf: 'CacheReadTokens',
    prometheus: 'wap_cache_read_tokens_total',
    help: 'Model input tokens of queries read from the prompt cache (a tenth of the input price).',
    unit: 'Count',
    labels: ['workspace'],
  },
  cache_write_tokens: {
    type: 'counter',
    emf: 'CacheWriteTokens',
    prometheus: 'wap_cache_write_tokens_total',
    help: 'Model input tokens of queries written to the prompt cache.',
    unit: 'Count',
    labels: ['workspace'],
  },
  output_tokens: {
    type: 'counter',
    emf: 'OutputTokens',
    prometheus: 'wap_output_tokens_total',
    help: 'Model output tokens of queries.',
    unit: 'Count',
    labels: ['workspace'],
  },
  cost_usd: {
    type: 'counter',
    emf: 'CostUsd',
    prometheus: 'wap_cost_usd_total',
    help: 'What the model calls of queries cost, in US dollars.',
    unit: 'None',
    labels: ['workspace'],
  },
  tool_calls: {
    type: 'counter',
    emf: 'ToolCalls',
    prometheus: 'wap_tool_calls_total',
    help: 'Tool calls of queries that ended (calls before an approval included).',
    unit: 'Count',
    labels: ['workspace'],
  },
  query_duration: {
    type: 'histogram',
    emf: 'QueryDuration',
    prometheus: 'wap_query_duration_seconds',
    help: 'Time queries took until they ended (waiting for an approval excluded).',
    unit: 'Milliseconds',
    labels: ['workspace'],
    prometheusDivisor: 1000,
  },
  approvals: {
    type: 'counter',
    emf: 'Approvals',
    prometheus: 'wap_approvals_total',
    help: 'Approvals of tool calls, by outcome: requested, approved, denied, expired.',
    unit: 'Count',
    labels: ['workspace', 'outcome'],
  },
  jobs: {
    type: 'counter',
    emf: 'Jobs',
    prometheus: 'wap_jobs_total',
    help: 'Background job attempts, by queue and outcome: completed, failed (for good), retried.',
    unit: 'Count',
    labels: ['queue', 'outcome'],
  },
} as const satisfies Record<string, MetricDefinition>;

/**
 * How an adapter keeps samples. `byWorkspace` (`METRICS_BY_WORKSPACE`, default true): whether the
 * `workspace` label is kept. Workspaces are made by tenants, and each one is a series (locally) or
 * a set of CloudWatch custom metrics (on AWS, billed per metric): an operator who lets anyone sign
 * up can keep the totals only.
 */
export interface MetricsOptions {
  byWorkspace: boolean;
}

/**
 * The value of the `workspace` label: `<organisation id>/<workspace id>`, since a workspace id is
 * unique only within its organisation (two organisations may each have a `ws-support`).
 */
export function workspaceLabel(orgId: string, workspaceId: string): string {
  return `${orgId}/${workspaceId}`;
}

/** A metric's labels as an adapter keeps them: its own, less `workspace` when not kept by workspace. */
export function keptLabels(definition: MetricDefinition, options: MetricsOptions): readonly string[] {
  return options.byWorkspace ? definition.labels : definition.labels.filter((name) => name !== 'workspace');
}

export type MetricName = keyof typeof METRICS;
type CounterName = { [M in MetricName]: (typeof METRICS)[M]['type'] extends 'counter' ? M : never }[MetricName];
type HistogramName = Exclude<MetricName, CounterName>;

/** A metric's labels, each given. */
type LabelsOf<M extends MetricName> = Readonly<Record<(typeof METRICS)[M]['labels'][number], string>>;

/** Where the service's metrics go: called on the hot path, so in memory only. */
export interface Metrics {
  /** Adds `value` (≥ 0) to a counter. */
  count<M extends CounterName>(metric: M, value: number, labels: LabelsOf<M>): void;
  /** Records one observation (a duration) of a histogram. */
  observe<M extends HistogramName>(metric: M, value: number, labels: LabelsOf<M>): void;
  /** Writes out what was recorded since the last flush (EMF: at the end of an invocation); nothing for the others. */
  flush(): void;
  /**
   * Drops what is kept of a deleted workspace (the Prometheus series with its `workspace` label,
   * `workspaceLabel`), so
   * a tenant who makes and deletes workspaces does not grow the registry. EMF keeps nothing past an
   * invocation: nothing to drop there.
   */
  forgetWorkspace(label: string): void;
}

/** Records nothing. */
export const NO_METRICS: Metrics = {
  count() {},
  observe() {},
  flush() {},
  forgetWorkspace() {},
};

/**
 * A Lambda handler that writes out its invocation's telemetry (metrics, and the traces' batch when
 * tracing is on) once it has answered or failed (the container may be frozen right after, and a
 * buffer kept past the invocation would be flushed into the next one's, or never).
 */
export function flushedAfter<A extends unknown[], R>(
  telemetry: { flush(): void | Promise<void> },
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      await telemetry.flush();
    }
  };
}
