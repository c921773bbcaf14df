import { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { keptLabels, METRICS, type MetricDefinition, type MetricName, type Metrics, type MetricsOptions } from './metrics.js';

/*
 * The metrics of the Lambda functions: CloudWatch Embedded Metric Format, written to stdout by
 * Powertools Metrics and turned into metrics by CloudWatch Logs. No API call, no I/O while a
 * request runs: samples are kept in memory and written once per invocation (`flush`, called by
 * `flushedAfter` in the handlers).
 *
 * One EMF document has one set of dimension values, and one invocation can record for several
 * workspaces (a batch of jobs, a query and its resumed part) or queues: samples are grouped by
 * their labels, and each group is written as one document with one dimension set, its labels.
 * A sample with a `workspace` also goes to the group of its other labels, so the deployment's
 * totals (or the approvals by outcome) are one metric each in CloudWatch. (One document with both
 * dimension sets would do the same, but Powertools warns of every key the two sets share.)
 */

interface Group {
  labels: Readonly<Record<string, string>>;
  counters: Map<MetricName, number>;
  observations: Map<MetricName, number[]>;
}

/** Samples in one EMF document at most (Powertools flushes on its own at 100 values of one metric). */
const SAMPLES_PER_DOCUMENT = 90;

class EmfMetrics implements Metrics {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly powertools: PowertoolsMetrics,
    private readonly options: MetricsOptions,
  ) {}

  /** The groups a sample goes to: its kept labels, and, when they hold the workspace, the same without it. */
  private groupsOf(definition: MetricDefinition, labels: Readonly<Record<string, string>>): Group[] {
    const kept = keptLabels(definition, this.options);
    const values = kept.map((name) => [name, labels[name] ?? ''] as const);
    const groups = [this.groupOf(values)];
    if (kept.includes('workspace')) groups.push(this.groupOf(values.filter(([name]) => name !== 'workspace')));
    return groups;
  }

  private groupOf(values: (readonly [string, string])[]): Group {
    const key = JSON.stringify(values);
    let group = this.groups.get(key);
    if (!group) {
      group = { labels: Object.fromEntries(values), counters: new Map(), observations: new Map() };
      this.groups.set(key, group);
    }
    return group;
  }

  count(metric: MetricName, value: number, labels: Readonly<Record<string, string>>): void {
    if (!(value >= 0)) return;
    for (const group of this.groupsOf(METRICS[metric], labels)) group.counters.set(metric, (group.counters.get(metric) ?? 0) + value);
  }

  observe(metric: MetricName, value: number, labels: Readonly<Record<string, string>>): void {
    for (const group of this.groupsOf(METRICS[metric], labels)) {
      const values = group.observations.get(metric);
      if (values) values.push(value);
      else group.observations.set(metric, [value]);
    }
  }

  forgetWorkspace(): void {
    // Samples are kept until the end of the invocation only, and those recorded are real: written as they are.
  }

  flush(): void {
    const groups = [...this.groups.values()];
    this.groups.clear();
    for (const group of groups) {
      const samples: [MetricName, number][] = [...group.counters];
      for (const [metric, values] of group.observations) for (const value of values) samples.push([metric, value]);
      // Powertools publishes by itself (dropping the dimensions) at 100 values of a metric: stay below.
      for (let start = 0; start < samples.length; start += SAMPLES_PER_DOCUMENT) {
        this.publish(group.labels, samples.slice(start, start + SAMPLES_PER_DOCUMENT));
      }
    }
  }

  private publish(labels: Readonly<Record<string, string>>, samples: [MetricName, number][]): void {
    // One dimension set, exactly the labels (an empty one for a total over every workspace).
    this.powertools.addDimensions(Object.fromEntries(Object.entries(labels).filter(([, value]) => value !== '')));
    for (const [metric, value] of samples) {
      const definition: MetricDefinition = METRICS[metric];
      this.powertools.addMetric(definition.emf, definition.unit, value);
    }
    this.powertools.publishStoredMetrics();
  }
}

/**
 * The EMF adapter under `namespace` (`POWERTOOLS_METRICS_NAMESPACE`, set by the stack). Powertools'
 * default `service` dimension is cleared: a metric's dimensions are exactly its kept labels.
 */
export function createEmfMetrics(namespace: string, options: MetricsOptions = { byWorkspace: true }): Metrics {
  const powertools = new PowertoolsMetrics({ namespace });
  powertools.clearDefaultDimensions();
  return new EmfMetrics(powertools, options);
}
