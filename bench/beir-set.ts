import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/*
 * A retrieval set in the BEIR format (Thakur et al., 2021): `corpus.jsonl`, `queries.jsonl` and
 * `qrels/test.tsv` in one folder, each possibly gzipped. What the knowledge benchmark reads
 * (docs/knowledge-bench.md says where to get one), and the standard measures over it.
 */

export interface BeirDocument {
  id: string;
  title: string;
  text: string;
}

export interface BeirSet {
  /** The folder's name (`nfcorpus`, `scifact`…). */
  name: string;
  documents: BeirDocument[];
  /** The test queries that have judgements, by id. */
  queries: Map<string, string>;
  /** Per test query, each judged document's grade (0 = judged not relevant). */
  qrels: Map<string, Map<string, number>>;
}

/** BM25 nDCG@10 as the BEIR paper publishes it (Thakur et al. 2021, Table 2: Elasticsearch BM25, title and text). */
export const PUBLISHED_BM25_NDCG10: Readonly<Record<string, number>> = {
  'trec-covid': 0.656,
  nfcorpus: 0.325,
  fiqa: 0.236,
  arguana: 0.315,
  scidocs: 0.158,
  scifact: 0.665,
};

/** A file of the set, gzipped or not. */
function readText(folder: string, name: string): string {
  const plain = join(folder, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  const zipped = `${plain}.gz`;
  if (existsSync(zipped)) return gunzipSync(readFileSync(zipped)).toString('utf8');
  throw new Error(`${plain}(.gz) is missing: the folder must hold a BEIR set (docs/knowledge-bench.md)`);
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The set in `folder`, its test split: the queries judged in `qrels/test.tsv`. */
export function readBeirSet(folder: string): BeirSet {
  const documents = jsonLines(readText(folder, 'corpus.jsonl')).map((row) => ({
    id: String(row._id),
    title: String(row.title ?? ''),
    text: String(row.text ?? ''),
  }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readText(folder, join('qrels', 'test.tsv')).split('\n').slice(1)) {
    const [query, document, grade] = line.trim().split('\t');
    if (!query || !document || grade === undefined) continue;
    const judged = qrels.get(query) ?? new Map<string, number>();
    judged.set(document, Number(grade));
    qrels.set(query, judged);
  }
  const queries = new Map<string, string>();
  for (const row of jsonLines(readText(folder, 'queries.jsonl'))) {
    const id = String(row._id);
    if (qrels.has(id)) queries.set(id, String(row.text));
  }
  return { name: basename(folder).toLowerCase(), documents, queries, qrels };
}

/** Measures of one ranking (document ids, best first, each once) against a query's judgements. */
export interface RankingScore {
  recallAt5: number;
  recallAt10: number;
  ndcgAt10: number;
}

/**
 * BEIR's definitions (its evaluation runs pytrec_eval): recall@k is the share of the documents judged
 * relevant (grade > 0) found in the first k; nDCG@10 takes each document's grade as its gain,
 * discounted by log2(rank + 1), over the ideal ordering of all judged documents.
 */
export function scoreRanking(ranked: readonly string[], judged: ReadonlyMap<string, number>): RankingScore {
  const relevant = [...judged].filter(([, grade]) => grade > 0);
  const found = (k: number) => ranked.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length;
  const dcg = ranked.slice(0, 10).reduce((sum, id, index) => sum + (judged.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = relevant
    .map(([, grade]) => grade)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  return {
    recallAt5: relevant.length ? found(5) / relevant.length : 0,
    recallAt10: relevant.length ? found(10) / relevant.length : 0,
    ndcgAt10: ideal > 0 ? dcg / ideal : 0,
  };
}

/** The mean of each measure over the queries. */
export function meanScore(scores: readonly RankingScore[]): RankingScore {
  const mean = (field: keyof RankingScore) => scores.reduce((sum, score) => sum + score[field], 0) / Math.max(1, scores.length);
  return { recallAt5: mean('recallAt5'), recallAt10: mean('recallAt10'), ndcgAt10: mean('ndcgAt10') };
}

/** Document ids in order of their first passage: a document cut into several passages counts once, at its best rank. */
export function documentsInOrder(passageDocuments: readonly (string | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const id of passageDocuments) if (id !== undefined) seen.add(id);
  return [...seen];
}
