import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmfMetrics } from '../../shared/platform/metrics-emf.js';
import { flushedAfter } from '../../shared/platform/metrics.js';

/** An EMF document as Powertools writes it to stdout (one JSON line per document). */
interface EmfDocument {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [member: string]: unknown;
}

/** What Powertools writes to stdout while `act` runs, as EMF documents. */
function captureEmf(act: () => void): EmfDocument[] {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    act();
  } finally {
    write.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as EmfDocument);
}

afterEach(() => vi.restoreAllMocks());

describe('EmfMetrics (Powertools, CloudWatch Embedded Metric Format)', () => {
  it('writes nothing while recording, then one document per workspace at flush, in the namespace, with the workspace dimension and the totals', () => {
    const metrics = createEmfMetrics('TestNamespace');
    const recorded = captureEmf(() => {
      metrics.count('queries', 1, { workspace: 'ws-a' });
      metrics.count('input_tokens', 100, { workspace: 'ws-a' });
      metrics.count('input_tokens', 50, { workspace: 'ws-a' });
      metrics.count('cost_usd', 0.25, { workspace: 'ws-a' });
      metrics.observe('query_duration', 120, { workspace: 'ws-a' });
      metrics.observe('query_duration', 80, { workspace: 'ws-a' });
      metrics.count('queries', 1, { workspace: 'ws-b' });
    });
    expect(recorded).toEqual([]);

    const documents = captureEmf(() => metrics.flush());
    // ws-a, the totals, ws-b: one dimension set each.
    expect(documents).toHaveLength(3);
    const [a, total, b] = documents as [EmfDocument, EmfDocument, EmfDocument];
    const directive = a._aws.CloudWatchMetrics[0];
    expect(directive?.Namespace).toBe('TestNamespace');
    // Exactly the workspace: no `service` dimension.
    expect(directive?.Dimensions).toEqual([['workspace']]);
    expect(directive?.Metrics).toEqual([
      { Name: 'Queries', Unit: 'Count' },
      { Name: 'InputTokens', Unit: 'Count' },
      { Name: 'CostUsd', Unit: 'None' },
      { Name: 'QueryDuration', Unit: 'Milliseconds' },
    ]);
    expect(a).toMatchObject({ workspace: 'ws-a', Queries: 1, InputTokens: 150, CostUsd: 0.25, QueryDuration: [120, 80] });
    expect(a).not.toHaveProperty('service');
    expect(b._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['workspace']]);
    expect(b).toMatchObject({ workspace: 'ws-b', Queries: 1 });
    // The deployment's total: the same metrics under an empty dimension set.
    expect(total._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([[]]);
    expect(total).toMatchObject({ Queries: 2, InputTokens: 150, CostUsd: 0.25, QueryDuration: [120, 80] });
    expect(total).not.toHaveProperty('workspace');

    // Flushed: a second flush writes nothing.
    expect(captureEmf(() => metrics.flush())).toEqual([]);
  });

  it('gives approvals their outcome and jobs their queue as dimensions', () => {
    const metrics = createEmfMetrics('TestNamespace');
    metrics.count('approvals', 1, { workspace: 'ws-a', outcome: 'expired' });
    metrics.count('jobs', 1, { queue: 'conversation-stats', outcome: 'failed' });
    const [approvals, byOutcome, jobs] = captureEmf(() => metrics.flush()) as [EmfDocument, EmfDocument, EmfDocument];
    expect(approvals._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['workspace', 'outcome']]);
    expect(approvals).toMatchObject({ workspace: 'ws-a', outcome: 'expired', Approvals: 1 });
    expect(byOutcome._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['outcome']]);
    expect(byOutcome).toMatchObject({ outcome: 'expired', Approvals: 1 });
    expect(jobs._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['queue', 'outcome']]);
    expect(jobs).toMatchObject({ queue: 'conversation-stats', outcome: 'failed', Jobs: 1 });
  });

  it('keeps the totals only with byWorkspace false (METRICS_BY_WORKSPACE): no workspace dimension, each sample counted once', () => {
    const metrics = createEmfMetrics('TestNamespace', { byWorkspace: false });
    metrics.count('queries', 1, { workspace: 'ws-a' });
    metrics.count('queries', 1, { workspace: 'ws-b' });
    metrics.observe('query_duration', 120, { workspace: 'ws-a' });
    metrics.count('approvals', 1, { workspace: 'ws-a', outcome: 'expired' });
    const documents = captureEmf(() => metrics.flush());
    expect(documents.map((document) => document._aws.CloudWatchMetrics[0]?.Dimensions)).toEqual([[[]], [['outcome']]]);
    expect(documents[0]).toMatchObject({ Queries: 2, QueryDuration: 120 });
    expect(documents[1]).toMatchObject({ outcome: 'expired', Approvals: 1 });
    expect(documents.some((document) => 'workspace' in document)).toBe(false);
  });

  it('keeps each document under Powertools’ 100 values of a metric, every one with its dimensions', () => {
    const metrics = createEmfMetrics('TestNamespace');
    for (let index = 0; index < 150; index += 1) metrics.observe('query_duration', index, { workspace: 'ws-a' });
    const documents = captureEmf(() => metrics.flush());
    expect(documents.length).toBeGreaterThan(1);
    const perWorkspace = documents.filter((document) => document.workspace === 'ws-a');
    expect(perWorkspace.length).toBeGreaterThan(1);
    expect(perWorkspace.every((document) => document._aws.CloudWatchMetrics[0]?.Dimensions[0]?.[0] === 'workspace')).toBe(true);
    expect(perWorkspace.flatMap((document) => document.QueryDuration as number[])).toHaveLength(150);
  });

  it('flushedAfter writes the metrics once the handler has answered, or failed', async () => {
    const metrics = createEmfMetrics('TestNamespace');
    const flush = vi.spyOn(metrics, 'flush');
    const handler = flushedAfter(metrics, async (fail: boolean) => {
      metrics.count('queries', 1, { workspace: 'ws-a' });
      if (fail) throw new Error('boom');
      return 'answered';
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await expect(handler(false)).resolves.toBe('answered');
    await expect(handler(true)).rejects.toThrow('boom');
    expect(flush).toHaveBeenCalledTimes(2);
  });
});
