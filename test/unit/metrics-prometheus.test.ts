import { describe, expect, it } from 'vitest';
import { METRICS, type Metrics } from '../../shared/platform/metrics.js';
import { MAX_WORKSPACE_SERIES, PrometheusMetrics } from '../../shared/platform/metrics-prometheus.js';

/** The sample lines of one metric family (no comments). */
const samplesOf = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(name));

describe('PrometheusMetrics: the text exposition format', () => {
  it('has a HELP and a TYPE line for every metric, before any sample, and ends with a line feed', () => {
    const text = new PrometheusMetrics().render();
    expect(text.endsWith('\n')).toBe(true);
    for (const definition of Object.values(METRICS)) {
      expect(text).toContain(`# HELP ${definition.prometheus} `);
      expect(text).toContain(`# TYPE ${definition.prometheus} ${definition.type}\n`);
      // Prometheus names: [a-zA-Z_:][a-zA-Z0-9_:]*; counters end in _total.
      expect(definition.prometheus).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
      if (definition.type === 'counter') expect(definition.prometheus).toMatch(/_total$/);
    }
    expect(text.split('\n').filter((line) => line && !line.startsWith('#'))).toEqual([]);
  });

  it('adds counters per label set, sorted, and keeps a zero as a series', () => {
    const metrics = new PrometheusMetrics();
    metrics.count('queries', 1, { workspace: 'ws-b' });
    metrics.count('queries', 1, { workspace: 'ws-a' });
    metrics.count('queries', 2, { workspace: 'ws-b' });
    metrics.count('query_errors', 0, { workspace: 'ws-a' });
    metrics.count('cost_usd', 0.25, { workspace: 'ws-a' });
    metrics.count('cost_usd', 0.5, { workspace: 'ws-a' });
    metrics.count('jobs', 1, { queue: 'conversation-stats', outcome: 'failed' });
    // Negative or NaN values are not counted: a counter never goes down.
    metrics.count('queries', -5, { workspace: 'ws-a' });
    metrics.count('queries', Number.NaN, { workspace: 'ws-a' });
    const text = metrics.render();
    expect(samplesOf(text, 'wap_queries_total')).toEqual([
      'wap_queries_total{workspace="ws-a"} 1',
      'wap_queries_total{workspace="ws-b"} 3',
    ]);
    expect(samplesOf(text, 'wap_query_errors_total')).toEqual(['wap_query_errors_total{workspace="ws-a"} 0']);
    expect(samplesOf(text, 'wap_cost_usd_total')).toEqual(['wap_cost_usd_total{workspace="ws-a"} 0.75']);
    expect(samplesOf(text, 'wap_jobs_total')).toEqual(['wap_jobs_total{queue="conversation-stats",outcome="failed"} 1']);
    // Samples follow their family's HELP and TYPE lines.
    const lines = text.split('\n');
    const type = lines.indexOf('# TYPE wap_queries_total counter');
    expect(lines[type - 1]).toMatch(/^# HELP wap_queries_total /);
    expect(lines[type + 1]).toBe('wap_queries_total{workspace="ws-a"} 1');
  });

  it('drops the workspace label with byWorkspace false (METRICS_BY_WORKSPACE): one series per family, other labels kept', () => {
    const metrics = new PrometheusMetrics({ byWorkspace: false });
    metrics.count('queries', 1, { workspace: 'ws-a' });
    metrics.count('queries', 2, { workspace: 'ws-b' });
    metrics.count('approvals', 1, { workspace: 'ws-a', outcome: 'denied' });
    metrics.observe('query_duration', 100, { workspace: 'ws-b' });
    const text = metrics.render();
    expect(samplesOf(text, 'wap_queries_total')).toEqual(['wap_queries_total 3']);
    expect(samplesOf(text, 'wap_approvals_total')).toEqual(['wap_approvals_total{outcome="denied"} 1']);
    expect(samplesOf(text, 'wap_query_duration_seconds_count')).toEqual(['wap_query_duration_seconds_count 1']);
    expect(text).not.toContain('workspace=');
  });

  it('escapes backslashes, double quotes and line feeds in label values', () => {
    const metrics = new PrometheusMetrics();
    metrics.count('queries', 1, { workspace: 'ws-"quoted"\\back\nline' });
    expect(samplesOf(metrics.render(), 'wap_queries_total')).toEqual(['wap_queries_total{workspace="ws-\\"quoted\\"\\\\back\\nline"} 1']);
  });

  it('renders the duration as a histogram in seconds: cumulative buckets, +Inf, sum and count', () => {
    const metrics = new PrometheusMetrics();
    for (const ms of [40, 300, 300, 7_000, 2_000_000]) metrics.observe('query_duration', ms, { workspace: 'ws-a' });
    const samples = samplesOf(metrics.render(), 'wap_query_duration_seconds');
    const bucket = (le: string) =>
      samples.find((line) => line.startsWith(`wap_query_duration_seconds_bucket{workspace="ws-a",le="${le}"}`));
    expect(bucket('0.1')).toMatch(/ 1$/);
    expect(bucket('0.25')).toMatch(/ 1$/);
    expect(bucket('0.5')).toMatch(/ 3$/);
    expect(bucket('10')).toMatch(/ 4$/);
    expect(bucket('900')).toMatch(/ 4$/);
    expect(bucket('+Inf')).toMatch(/ 5$/);
    expect(samples).toContain('wap_query_duration_seconds_sum{workspace="ws-a"} 2007.64');
    expect(samples).toContain('wap_query_duration_seconds_count{workspace="ws-a"} 5');
    // Buckets never go down, and le is the last label.
    const counts = samples.filter((line) => line.includes('_bucket')).map((line) => Number(line.split(' ').at(-1)));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(samples.filter((line) => line.includes('_bucket')).every((line) => /,le="[^"]+"\} \d+$/.test(line))).toBe(true);
  });
});

describe('PrometheusMetrics: series of workspaces, which tenants make', () => {
  /** The workspaces that have a series of any family. */
  const workspacesIn = (text: string) => [...new Set([...text.matchAll(/workspace="([^"]*)"/g)].map((match) => match[1]))].sort();

  /** A query's samples for a workspace: counters, the duration histogram, and an approval. */
  function recordQuery(metrics: Metrics, workspace: string) {
    metrics.count('queries', 1, { workspace });
    metrics.count('cost_usd', 0.5, { workspace });
    metrics.observe('query_duration', 1_200, { workspace });
    metrics.count('approvals', 1, { workspace, outcome: 'requested' });
  }

  it('drops every series of a deleted workspace, through the port, and keeps the others', () => {
    const prometheus = new PrometheusMetrics();
    const metrics: Metrics = prometheus;
    recordQuery(metrics, 'ws-deleted');
    recordQuery(metrics, 'ws-kept');
    metrics.count('jobs', 1, { queue: 'conversation-stats', outcome: 'completed' });
    expect(workspacesIn(prometheus.render())).toEqual(['ws-deleted', 'ws-kept']);

    metrics.forgetWorkspace('ws-deleted');
    const text = prometheus.render();
    expect(text).not.toContain('ws-deleted');
    expect(workspacesIn(text)).toEqual(['ws-kept']);
    expect(samplesOf(text, 'wap_queries_total')).toEqual(['wap_queries_total{workspace="ws-kept"} 1']);
    expect(samplesOf(text, 'wap_query_duration_seconds_count')).toEqual(['wap_query_duration_seconds_count{workspace="ws-kept"} 1']);
    expect(samplesOf(text, 'wap_jobs_total')).toEqual(['wap_jobs_total{queue="conversation-stats",outcome="completed"} 1']);
    // Recorded again (a workspace of the same id made later): it starts from zero.
    metrics.count('queries', 1, { workspace: 'ws-deleted' });
    expect(samplesOf(prometheus.render(), 'wap_queries_total')).toContain('wap_queries_total{workspace="ws-deleted"} 1');
  });

  it('keeps the series of at most maxWorkspaces workspaces, the least recently recorded dropped first', () => {
    const metrics = new PrometheusMetrics({ byWorkspace: true, maxWorkspaces: 3 });
    recordQuery(metrics, 'ws-busy');
    for (let index = 0; index < 500; index += 1) {
      recordQuery(metrics, `ws-made-${index}`);
      // One workspace in steady use keeps its series and its totals.
      if (index % 2 === 0) metrics.count('queries', 1, { workspace: 'ws-busy' });
    }
    const text = metrics.render();
    expect(workspacesIn(text)).toEqual(['ws-busy', 'ws-made-498', 'ws-made-499']);
    expect(samplesOf(text, 'wap_queries_total')).toContain('wap_queries_total{workspace="ws-busy"} 251');
    // 3 workspaces × (3 counter lines + 15 of the histogram), nothing of the 497 others.
    expect(text.split('\n').filter((line) => line.includes('workspace=')).length).toBe(3 * 18);
  });

  it('keeps at most MAX_WORKSPACE_SERIES workspaces by default', () => {
    const metrics = new PrometheusMetrics();
    for (let index = 0; index < MAX_WORKSPACE_SERIES + 50; index += 1) metrics.count('queries', 1, { workspace: `ws-${index}` });
    expect(samplesOf(metrics.render(), 'wap_queries_total')).toHaveLength(MAX_WORKSPACE_SERIES);
  });
});
