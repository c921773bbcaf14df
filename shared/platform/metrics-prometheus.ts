import { keptLabels, METRICS, type MetricDefinition, type MetricName, type Metrics, type MetricsOptions } from './metrics.js';

/*
 * The local runtime's metrics: an in-process registry, rendered on demand in the Prometheus text
 * exposition format (version 0.0.4) by `GET /metrics` (bin/metrics.ts). Recording is a map lookup
 * and an addition; the text is built only when scraped.
 */

/** Upper bounds of the duration histogram's buckets, in seconds (a query takes milliseconds to minutes). */
const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900] as const;

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

export class PrometheusMetrics implements Metrics {
  private readonly counters = new Map<MetricName, Map<string, Series<number>>>();
  private readonly histograms = new Map<MetricName, Map<string, Series<Histogram>>>();

  constructor(private readonly options: MetricsOptions = { byWorkspace: true }) {}

  count(metric: MetricName, value: number, labels: Readonly<Record<string, string>>): void {
    // A counter never goes down; a zero still makes its series appear (so `rate()` sees it start at 0).
    if (!(value >= 0)) return;
    const kept = keptLabels(METRICS[metric], this.options);
    const family = familyOf(this.counters, metric);
    const key = keyOf(kept, labels);
    const series = family.get(key);
    if (series) series.value += value;
    else family.set(key, { labels: labelsOf(kept, labels), value });
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
    }
    const scaled = value / (definition.prometheusDivisor ?? 1);
    const bucket = DURATION_BUCKETS.findIndex((bound) => scaled <= bound);
    if (bucket >= 0) series.value.buckets[bucket] = (series.value.buckets[bucket] ?? 0) + 1;
    series.value.sum += scaled;
    series.value.count += 1;
  }

  flush(): void {
    // Nothing to write: the registry is read when scraped.
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
