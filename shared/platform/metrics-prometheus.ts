import { LRUCache } from 'lru-cache';
import { keptLabels, METRICS, type MetricDefinition, type MetricName, type Metrics, type MetricsOptions } from './metrics.js';

/*
 * The local runtime's metrics: an in-process registry, rendered on demand in the Prometheus text
 * exposition format (version 0.0.4) by `GET /metrics` (bin/metrics.ts). Recording is a map lookup
 * and an addition; the text is built only when scraped.
 */

/** Upper bounds of the duration histogram's buckets, in seconds (a query takes milliseconds to minutes). */
const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900] as const;

/**
 * Workspaces whose series are kept at once (about 25 sample lines each). Workspaces are tenant
 * input: past this, the least recently recorded workspace's series are dropped.
 */
export const MAX_WORKSPACE_SERIES = 1_000;

/** The content type of the text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

interface Histogram {
  /** Observations at or below each bound of DURATION_BUCKETS (not cumulative: summed when rendered). */
  buckets: number[];
  sum: number;
  count: number;
}

interface Series<V> {
  labels: Readonly<Record<string, string>>;
  value: V;
}

/** A label value in the text format: backslash, double quote and line feed escaped. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text: backslash and line feed escaped. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value: Go's float formatting for the special values, JavaScript's shortest round-trip otherwise. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(labels: Readonly<Record<string, string>>, extra?: [string, string]): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

/** A series' key: its label values in the kept labels' order (a separator no value contains unescaped). */
function keyOf(kept: readonly string[], labels: Readonly<Record<string, string>>): string {
  return kept.map((name) => JSON.stringify(labels[name] ?? '')).join(',');
}

/** Only the kept labels, in the definition's order (what a caller passes is typed, but not closed). */
function labelsOf(kept: readonly string[], labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(kept.map((name) => [name, labels[name] ?? '']));
}

/** A metric's series by key, made on its first sample. */
function familyOf<V>(families: Map<MetricName, Map<string, Series<V>>>, metric: MetricName): Map<string, Series<V>> {
  let family = families.get(metric);
  if (!family) {
    family = new Map();
    families.set(metric, family);
  }
  return family;
}

/** Where a series is kept: its family and its key there (so a workspace's series can be dropped). */
type SeriesPlace = [family: { delete(key: string): boolean }, key: string];

/**
 * An in-process registry. Series with a `workspace` label are kept for the `maxWorkspaces` (default
 * MAX_WORKSPACE_SERIES) workspaces recorded most recently; a workspace deleted (`forgetWorkspace`)
 * or pushed out loses its series at once.
 *
 * Least recently used rather than a cap with an "other" bucket: with open sign-up a stranger can
 * make workspaces at will, and under a first-come cap they would fill it once and leave every later
 * workspace in "other" for the life of the process; here the workspaces in use keep their names. A
 * series dropped and recorded again starts from zero, which Prometheus reads as a counter reset
 * (`rate`, `increase`); only what was recorded between its last scrape and its drop is lost.
 */
export class PrometheusMetrics implements Metrics {
  private readonly counters = new Map<MetricName, Map<string, Series<number>>>();
  private readonly histograms = new Map<MetricName, Map<string, Series<Histogram>>>();
  /** The workspaces with series, least recently recorded first out, each with where its series are. */
  private readonly workspaces: LRUCache<string, SeriesPlace[]>;

  constructor(private readonly options: MetricsOptions & { maxWorkspaces?: number } = { byWorkspace: true }) {
    this.workspaces = new LRUCache({
      max: options.maxWorkspaces ?? MAX_WORKSPACE_SERIES,
      // Pushed out or forgotten: its series go with it.
      dispose: (places) => {
        for (const [family, key] of places) family.delete(key);
      },
    });
  }

  count(metric: MetricName, value: number, labels: Readonly<Record<string, string>>): void {
    // A counter never goes down; a zero still makes its series appear (so `rate()` sees it start at 0).
    if (!(value >= 0)) return;
    const kept = keptLabels(METRICS[metric], this.options);
    const family = familyOf(this.counters, metric);
    const key = keyOf(kept, labels);
    const series = family.get(key);
    if (series) series.value += value;
    else family.set(key, { labels: labelsOf(kept, labels), value });
    this.recordedFor(kept, labels, series ? undefined : [family, key]);
  }

  observe(metric: MetricName, value: number, labels: Readonly<Record<string, string>>): void {
    const definition: MetricDefinition = METRICS[metric];
    const kept = keptLabels(definition, this.options);
    const family = familyOf(this.histograms, metric);
    const key = keyOf(kept, labels);
    let series = family.get(key);
    if (!series) {
      series = { labels: labelsOf(kept, labels), value: { buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 } };
      family.set(key, series);
      this.recordedFor(kept, labels, [family, key]);
    } else this.recordedFor(kept, labels, undefined);
    const scaled = value / (definition.prometheusDivisor ?? 1);
    const bucket = DURATION_BUCKETS.findIndex((bound) => scaled <= bound);
    if (bucket >= 0) series.value.buckets[bucket] = (series.value.buckets[bucket] ?? 0) + 1;
    series.value.sum += scaled;
    series.value.count += 1;
  }

  flush(): void {
    // Nothing to write: the registry is read when scraped.
  }

  forgetWorkspace(label: string): void {
    this.workspaces.delete(label);
  }

  /** A sample with a workspace makes it the most recent one, and a new series is listed as its own. */
  private recordedFor(kept: readonly string[], labels: Readonly<Record<string, string>>, created: SeriesPlace | undefined): void {
    if (!kept.includes('workspace')) return;
    const workspace = labels.workspace ?? '';
    const places = this.workspaces.get(workspace);
    if (places) {
      if (created) places.push(created);
    } else this.workspaces.set(workspace, created ? [created] : []);
  }

  /** Every metric family, with its HELP and TYPE lines even before it has a sample, series sorted by labels. */
  render(): string {
    const lines: string[] = [];
    for (const [metric, definition] of Object.entries(METRICS) as [MetricName, MetricDefinition][]) {
      const name = definition.prometheus;
      lines.push(`# HELP ${name} ${escapeHelp(definition.help)}`, `# TYPE ${name} ${definition.type}`);
      if (definition.type === 'counter') {
        for (const series of sorted(this.counters.get(metric)))
          lines.push(`${name}${labelText(series.labels)} ${formatValue(series.value)}`);
        continue;
      }
      for (const series of sorted(this.histograms.get(metric))) {
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += series.value.buckets[index] ?? 0;
          lines.push(`${name}_bucket${labelText(series.labels, ['le', formatValue(bound)])} ${cumulative}`);
        });
        lines.push(`${name}_bucket${labelText(series.labels, ['le', '+Inf'])} ${series.value.count}`);
        lines.push(`${name}_sum${labelText(series.labels)} ${formatValue(series.value.sum)}`);
        lines.push(`${name}_count${labelText(series.labels)} ${series.value.count}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

function sorted<V>(family: Map<string, Series<V>> | undefined): Series<V>[] {
  if (!family) return [];
  return [...family.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, series]) => series);
}
