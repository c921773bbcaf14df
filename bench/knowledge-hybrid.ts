import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signUpOver } from '../test/support/signup.js';
import { PUBLISHED_BM25_NDCG10, readBeirSet } from './beir-set.js';
import { startChild } from './child.js';
import { type FoundPassage, evaluate, headingKey, ingestPacked, inService, knowledgeApi, STORE_MS } from './knowledge.js';
import { startDelayedStore } from './latency-proxy.js';
import { percentile, type Row } from './report.js';
import { poster } from './service-client.js';

/*
 * Hybrid retrieval measured (issue 49; docs/knowledge-bench.md, "Hybrid"): the BEIR set of
 * `BENCH_KNOWLEDGE_BEIR` uploaded packed into a workspace of `npm start` configured with an
 * OpenAI-compatible embedding provider: `bench/embeddings-server.ts`, a real sentence-embedding
 * model run here (Universal Sentence Encoder lite, from npm), or any endpoint given in
 * `BENCH_EMBEDDINGS_URL` with `BENCH_EMBEDDINGS_MODEL`. Each test query is searched through
 * `GET …/knowledge/search` with the provider (fused) and, on the same stored index, by a service
 * without it (full text alone): the difference is the fusion's.
 */

const BEIR_FOLDER = process.env.BENCH_KNOWLEDGE_BEIR;
/** How long the packed files are waited for, in s: every passage is embedded too (about 5 a second per core with the model run here). */
const WAIT_S = Number(process.env.BENCH_KNOWLEDGE_HYBRID_WAIT_S ?? 3600);

async function provider(): Promise<{ url: string; model: string; stop(): Promise<void> }> {
  if (process.env.BENCH_EMBEDDINGS_URL) {
    return {
      url: process.env.BENCH_EMBEDDINGS_URL,
      model: process.env.BENCH_EMBEDDINGS_MODEL ?? 'text-embedding-3-small',
      stop: async () => {},
    };
  }
  const child = await startChild(fileURLToPath(new URL('./embeddings-server.ts', import.meta.url)), {});
  return { url: String(child.ready.url), model: String(child.ready.model), stop: () => child.stop() };
}

export async function benchKnowledgeHybrid(): Promise<Row[]> {
  if (!BEIR_FOLDER)
    return [{ figure: 'hybrid', value: "not measured: set BENCH_KNOWLEDGE_BEIR to a BEIR set's folder (docs/knowledge-bench.md)" }];
  const set = readBeirSet(BEIR_FOLDER);
  const embeddings = await provider();
  const store = await startDelayedStore(STORE_MS, 'floor');
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-knowledge-hybrid-'));
  const env = { EMBEDDINGS_BASE_URL: embeddings.url, EMBEDDINGS_MODEL: embeddings.model };
  try {
    let cookie = '';
    let workspace = '';
    const hybrid = await inService(
      dataDir,
      store.endpoint,
      async (base) => {
        cookie = await signUpOver(base, 'hybrid@example.com');
        workspace = String((await poster(base, cookie)('/api/workspaces', { name: 'Hybrid' })).json.id);
        const api = knowledgeApi(base, cookie, workspace);
        const packed = await ingestPacked(api, set, WAIT_S);
        const beirIdOf = (passage: FoundPassage) => packed.beirIdOf.get(`${passage.document_id}\u0000${headingKey(passage.section)}`);
        return { packed, run: await evaluate(api, set, beirIdOf, 10), beirIdOf };
      },
      env,
    );
    const plain = await inService(dataDir, store.endpoint, (base) =>
      evaluate(knowledgeApi(base, cookie, workspace), set, hybrid.result.beirIdOf, 10),
    );
    const published = PUBLISHED_BM25_NDCG10[set.name];
    const { packed } = hybrid.result;
    // A corpus not wholly ready would be measured on a part of it: said on each row.
    const partial = packed.ready < packed.files ? ` (PARTIAL: ${packed.ready} of ${packed.files} files ready)` : '';
    const row = (figure: string, run: typeof plain.result): Row => ({
      figure: figure + partial,
      set: `${set.name}: ${set.documents.length} docs, ${set.queries.size} test queries, ${packed.passages} passages`,
      recall_at_5: run.score.recallAt5.toFixed(3),
      recall_at_10: run.score.recallAt10.toFixed(3),
      ndcg_at_10: run.score.ndcgAt10.toFixed(3),
      bm25_ndcg_at_10_published: published?.toFixed(3) ?? '(unknown set)',
      search_p50_ms: percentile(run.searchMs, 50).toFixed(1),
      search_p99_ms: percentile(run.searchMs, 99).toFixed(1),
      failed_searches: run.errors,
    });
    return [
      row(`hybrid (full text + ${embeddings.model}, RRF k=60), limit 10`, hybrid.result.run),
      row('full text alone, same index, limit 10', plain.result),
      {
        figure: 'ingestion with embeddings (packed, 50 documents a file)',
        value: `${packed.ready} of ${packed.files} files ready, ${packed.failed} failed, ${packed.seconds.toFixed(0)} s for ${packed.megabytes.toFixed(1)} MB (${(packed.passages / packed.seconds).toFixed(1)} passages/s)`,
      },
    ];
  } finally {
    await store.close().catch(() => undefined);
    await embeddings.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
