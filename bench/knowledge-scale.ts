import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStore } from '../bin/local-runtime.js';
import type { Deps } from '../shared/deps.js';
import { blobKeys, type ShardRef } from '../shared/knowledge/documents/entities.js';
import { changeIndex, loadIndex, readManifest } from '../shared/knowledge/search/index-store.js';
import type { StoredPassage } from '../shared/knowledge/search/passage-index.js';
import { WorkspaceIndex } from '../shared/knowledge/search/sharded-index.js';
import { FileBlobStore } from '../shared/platform/blobs.js';
import { systemClock } from '../shared/platform/clock.js';
import { parseConfig } from '../shared/platform/config.js';
import { createDynamoClient } from '../shared/platform/dynamo.js';
import { inMemorySecrets } from '../shared/platform/secrets.js';
import { Table } from '../shared/platform/table.js';
import { ensureTable } from '../shared/platform/table-create.js';
import { createDeps } from '../shared/wiring/deps.js';
import { LocalJobRunner } from '../shared/jobs/local-runner.js';
import { DueIndexScheduler } from '../shared/jobs/scheduler.js';
import { readBeirSet } from './beir-set.js';
import { randomOf } from './knowledge.js';
import { QUIET_LOGGER, percentile, type Row } from './report.js';

/*
 * A workspace of 10 000 documents (issue 49; docs/knowledge-bench.md, "Many documents"): documents
 * put in the index one at a time, as the ingestion job does (`changeIndex`: the manifest read, the
 * document's shard loaded, changed, written as a new blob, the manifest moved), on dynalite and
 * blobs on disk, in process. Each document is four passages of about 400 tokens of the BEIR
 * corpus's sentences (`BENCH_KNOWLEDGE_BEIR`), else of the tool catalogue's descriptions. Reported:
 * the time of a change as the workspace grows (to `BENCH_KNOWLEDGE_SCALE_DOCUMENTS`, 2 500), its
 * shards; then a workspace of 10 000 documents: a cold load of every shard, its heap, and the
 * search's latency over them.
 */

/** Documents put in one at a time (about 0.5 s each: 10 000 would take well over an hour). */
const ONE_BY_ONE = Number(process.env.BENCH_KNOWLEDGE_SCALE_DOCUMENTS ?? 2_500);
/** The workspace searched: built at once, as the changes would have split it (0: not measured). */
const SEARCHED = Number(process.env.BENCH_KNOWLEDGE_SCALE_SEARCHED ?? 10_000);
const PASSAGES_PER_DOCUMENT = 4;
const CHECKPOINTS = [100, 500, 1_000, 2_500, 5_000, 10_000].filter((count) => count <= ONE_BY_ONE);

function corpus(): { sentences: string[]; titles: string[]; queries: string[] } {
  const folder = process.env.BENCH_KNOWLEDGE_BEIR;
  if (folder) {
    const set = readBeirSet(folder);
    const sentences = set.documents.flatMap((document) => document.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 20));
    return { sentences, titles: set.documents.map((document) => document.title), queries: [...set.queries.values()] };
  }
  const sentences = ['Create a ticket in the tracker.', 'List the open invoices of a customer.', 'Search the wiki for a page.'];
  return { sentences, titles: ['Tickets', 'Invoices', 'Wiki'], queries: ['open invoices', 'create a ticket'] };
}

/**
 * `SEARCHED` documents built into shards at once (as one change at a time would have split them),
 * each stored as a blob, the manifest written; then every shard loaded cold, as a fresh process's
 * first search loads them, its heap measured after a forced GC, and the test queries searched.
 */
/** `SEARCHED` documents made shards at once and stored, as the changes would have left them: the manifest. */
async function storedAtScale(deps: Deps, documentOf: (n: number) => StoredPassage[]) {
  const built = WorkspaceIndex.empty();
  for (let n = 1; n <= SEARCHED; n += 1) built.add(`kd_${n}`, documentOf(n));
  const shards: ShardRef[] = [];
  for (const shard of built.changedShards(deps.config.knowledgeShardPassages)[0]?.shards ?? []) {
    const blob = blobKeys.index('org_scale', 'ws_searched', `1-s${shard.prefix}`);
    await deps.blobs.put(blob, shard.index.toBytes());
    shards.push({ prefix: shard.prefix, blob, documents: shard.index.documentCount, passages: shard.index.passages });
  }
  return { version: 1, shards, documents: SEARCHED, passages: built.passages, updated_at: '' };
}

async function searchedAtScale(deps: Deps, documentOf: (n: number) => StoredPassage[], queries: string[]): Promise<Row> {
  // Built in a function of its own: nothing of the build is held when the heap is measured.
  const manifest = await storedAtScale(deps, documentOf);
  const { shards } = manifest;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  const index = await loadIndex(deps, manifest);
  const loadMs = performance.now() - loadStarted;
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const times: number[] = [];
  for (const query of queries.slice(0, 30)) index.query(query, 10);
  for (const query of queries) {
    const at = performance.now();
    index.query(query, 10);
    times.push(performance.now() - at);
  }
  return {
    documents: SEARCHED,
    passages: index.passages,
    shards: shards.length,
    largest_shard: Math.max(...shards.map((shard) => shard.passages)),
    cold_load_ms: Math.round(loadMs),
    heap_mb: gc ? Math.round(heapMb) : 'run with --expose-gc',
    search_p50_ms: percentile(times, 50),
    search_p99_ms: percentile(times, 99),
  };
}

export async function benchKnowledgeScale(): Promise<Row[]> {
  const { sentences, titles, queries } = corpus();
  const random = randomOf(4910);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
  const documentOf = (n: number): StoredPassage[] => {
    const title = pick(titles);
    return [...Array(PASSAGES_PER_DOCUMENT).keys()].map((position) => {
      let text = '';
      while (text.length < 1_600) text += `${pick(sentences)} `;
      return { document_id: `kd_${n}`, title, section: '', text: text.trim(), position };
    });
  };

  const store = await startEmbeddedStore(null);
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-knowledge-scale-'));
  const shardPassages = process.env.KNOWLEDGE_SHARD_PASSAGES;
  const config = parseConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'SILENT', ...(shardPassages ? { KNOWLEDGE_SHARD_PASSAGES: shardPassages } : {}) },
    'local',
  );
  const client = createDynamoClient(config, store.endpoint);
  await ensureTable(client, config.tableName);
  const deps = createDeps({
    config,
    table: new Table(client, config.tableName, systemClock),
    secrets: inMemorySecrets(),
    clock: systemClock,
    logger: QUIET_LOGGER,
    blobs: new FileBlobStore(join(dataDir, 'blobs')),
    // No job is sent: the index is changed here as the ingestion job changes it.
    jobs: new LocalJobRunner(
      { table: new Table(client, config.tableName, systemClock), clock: systemClock, logger: QUIET_LOGGER },
      { concurrency: 1, maxAttempts: 3, retryBaseMs: 1000 },
    ),
    scheduler: new DueIndexScheduler(
      systemClock,
      async () => undefined,
      () => undefined,
    ),
  });
  const rows: Row[] = [];
  try {
    // First, in a process that has loaded nothing yet: the heap it measures is the searched workspace's alone.
    const searched = SEARCHED > 0 ? await searchedAtScale(deps, documentOf, queries) : undefined;
    process.stderr.write(`knowledge-scale: ${JSON.stringify(searched)}\n`);
    let window: number[] = [];
    const started = performance.now();
    for (let n = 1; n <= ONE_BY_ONE; n += 1) {
      const passages = documentOf(n);
      const at = performance.now();
      await changeIndex(deps, 'org_scale', 'ws_scale', `kd_${n}`, (index) => {
        index.add(`kd_${n}`, passages);
        return true;
      });
      window.push(performance.now() - at);
      if (CHECKPOINTS.includes(n)) {
        const manifest = await readManifest(deps, 'org_scale', 'ws_scale', true);
        rows.push({
          documents: n,
          passages: manifest?.passages ?? 0,
          shards: manifest?.shards.length ?? 0,
          largest_shard: Math.max(...(manifest?.shards.map((shard) => shard.passages) ?? [0])),
          change_p50_ms: percentile(window, 50),
          change_p99_ms: percentile(window, 99),
          elapsed_s: Math.round((performance.now() - started) / 100) / 10,
        });
        process.stderr.write(`knowledge-scale: ${JSON.stringify(rows.at(-1))}\n`);
        window = [];
      }
    }
    return searched ? [...rows, searched] : rows;
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
