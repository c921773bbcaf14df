import { readFileSync } from 'node:fs';
import { PassageIndex } from '../shared/knowledge/search/passage-index.js';
import { failToParent, serveParent } from './child.js';
import { percentile } from './report.js';

/*
 * A stored passage index loaded cold in a fresh process (started with --expose-gc by child.ts), as a
 * search process meets it: the gzipped bytes read from `KNOWLEDGE_INDEX_FILE`, the heap measured after
 * a forced GC before and after `PassageIndex.fromBytes`, the load timed, then the questions of
 * `KNOWLEDGE_QUERIES_FILE` (a JSON array) searched, limit 10, after a warm-up. The figures go back in
 * the `ready` message.
 */

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc() {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

try {
  const bytes = new Uint8Array(readFileSync(process.env.KNOWLEDGE_INDEX_FILE ?? ''));
  const queries = JSON.parse(readFileSync(process.env.KNOWLEDGE_QUERIES_FILE ?? '', 'utf8')) as string[];
  const before = heapAfterGc();
  let started = performance.now();
  const index = PassageIndex.fromBytes(bytes);
  const loadMs = performance.now() - started;
  const after = heapAfterGc();
  const warmUp = Math.min(30, queries.length);
  for (const query of queries.slice(0, warmUp)) index.query(query, 10);
  const times: number[] = [];
  for (const query of queries) {
    started = performance.now();
    index.query(query, 10);
    times.push(performance.now() - started);
  }
  serveParent(
    {
      passages: index.passages,
      bytes: bytes.length,
      load_ms: loadMs,
      heap_mb: (after.heap - before.heap) / 2 ** 20,
      rss_mb: (after.rss - before.rss) / 2 ** 20,
      gc: gc ? 'global.gc' : 'none',
      searches: times.length,
      p50_ms: percentile(times, 50),
      p99_ms: percentile(times, 99),
    },
    async () => {},
  );
} catch (error) {
  failToParent(error);
}
