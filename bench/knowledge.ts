import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PassageIndex, type StoredPassage } from '../shared/knowledge/search/passage-index.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import {
  type BeirDocument,
  type BeirSet,
  documentsInOrder,
  meanScore,
  PUBLISHED_BM25_NDCG10,
  type RankingScore,
  readBeirSet,
  scoreRanking,
} from './beir-set.js';
import { startChild } from './child.js';
import { startDelayedStore } from './latency-proxy.js';
import { percentile, type Row } from './report.js';
import { LIMITS_OUT_OF_THE_WAY, poster } from './service-client.js';

/*
 * Knowledge documents (issue 49) measured as a workspace admin meets them (docs/knowledge-bench.md):
 * `npm start` in its own process with its store 5 ms away (dynalite behind the latency proxy, each
 * call 5 ms with dynalite's own time inside), its blobs on disk. A public BEIR set (the folder
 * `BENCH_KNOWLEDGE_BEIR` names) is uploaded through the API: first one document per upload, as long
 * as `BENCH_KNOWLEDGE_SINGLE_S` allows, then, when that would not finish the corpus in time, packed 50
 * documents to a Markdown file (one `#` heading each) into a second workspace. Each test query is
 * searched through `GET …/knowledge/search` and scored against the set's judgements (recall@5,
 * recall@10, nDCG@10), next to the set's published BM25 figure. Then: PDFs of text pages (1, 3 and
 * 5 MB) from upload to `ready`; search latency at 1 000 and 100 000 passages (synthetic, from the
 * corpus's sentences) and through the API; the memory and cold load of stored indexes, each loaded
 * in a fresh process with --expose-gc (knowledge-index-child.ts). Each phase of the service runs in
 * a fresh process of its own, on the same store and data folder.
 */

const BEIR_FOLDER = process.env.BENCH_KNOWLEDGE_BEIR;
/** How long documents are uploaded one per upload before the corpus goes in packed, in s. */
const SINGLE_BUDGET_S = Number(process.env.BENCH_KNOWLEDGE_SINGLE_S ?? 150);
/** Uploads of one document each in flight at once (each waits for its document to be ready). */
const SINGLE_CONCURRENCY = 8;
/** Whole-corpus ingestion one document per upload beyond this is unworkable: the corpus goes in packed. */
const WORKABLE_MINUTES = 10;
const DOCUMENTS_PER_FILE = 50;
/** How long the packed files are waited for, in s (about 1.5 min here when nothing goes wrong). */
const PACKED_WAIT_S = 480;
/** 5 MB of text pages passes the reader's 5 000 000 characters (about 1.2 million a MB with the standard fonts): 3 MB is the largest that fits. */
const PDF_MEGABYTES = [1, 3, 5];
const SYNTHETIC_PASSAGES = [1_000, 100_000];
export const STORE_MS = 5;
const HYBRID = 'hybrid: `npm run bench -- knowledge-hybrid` (docs/knowledge-bench.md)';

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DocumentState {
  id: string;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  passages: number | null;
  pages: number | null;
  error: string | null;
}

export interface FoundPassage {
  document_id: string;
  title: string;
  section: string;
  text: string;
  score: number;
}

/**
 * A GET, sent once more when the connection was reset: a kept-alive socket that the server closes
 * as it is reused resets, and undici's fetch does not send again (GETs are safe to repeat).
 */
async function getResent(url: string, cookie: string): Promise<Response> {
  try {
    return await fetch(url, { headers: { cookie } });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fetch(url, { headers: { cookie } });
  }
}

/** The knowledge API of one workspace, as its admin. */
export function knowledgeApi(base: string, cookie: string, workspace: string) {
  const root = `${base}/api/workspaces/${workspace}/knowledge`;
  const getJson = async <T>(path: string): Promise<T> => {
    const response = await getResent(`${root}${path}`, cookie);
    const json = (await response.json()) as T;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const api = {
    workspace,
    /** Uploads a file; answers the new document's id. */
    async upload(filename: string, bytes: Uint8Array, type: string): Promise<string> {
      const form = new FormData();
      // A copy on its own ArrayBuffer: what Blob takes.
      form.append('file', new Blob([bytes.slice()], { type }), filename);
      const response = await fetch(`${root}/documents`, { method: 'POST', headers: { cookie }, body: form });
      const json = (await response.json()) as { document?: { id: string } };
      if (response.status !== 202 || !json.document) throw new Error(`upload answered ${response.status}: ${JSON.stringify(json)}`);
      return json.document.id;
    },
    async document(id: string): Promise<DocumentState> {
      return (await getJson<{ document: DocumentState }>(`/documents/${id}`)).document;
    },
    async documents(): Promise<DocumentState[]> {
      return (await getJson<{ documents: DocumentState[] }>('/documents')).documents;
    },
    /** Polls a document until it is ready or failed. */
    async settled(id: string, timeoutMs: number, pollMs = 100): Promise<DocumentState> {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const document = await api.document(id);
        if (document.status === 'ready' || document.status === 'failed') return document;
        if (performance.now() > deadline) throw new Error(`document ${id} still ${document.status} after ${timeoutMs} ms`);
        await sleep(pollMs);
      }
    },
    async search(query: string, limit: number): Promise<{ passages: FoundPassage[]; ms: number }> {
      const started = performance.now();
      const { passages } = await getJson<{ passages: FoundPassage[] }>(`/search?q=${encodeURIComponent(query)}&limit=${limit}`);
      return { passages, ms: performance.now() - started };
    },
  };
  return api;
}
type KnowledgeApi = ReturnType<typeof knowledgeApi>;

/** Markdown's structure characters escaped (CommonMark: any ASCII punctuation may be), so a text reads as the text it is. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~&]/g, '\\$&').replace(/^(\s*)([-+]|\d+[.)])/, '$1\\$2');
}

/** A BEIR document as a Markdown section: its title a `#` heading, its text one paragraph. */
const markdownOf = (document: BeirDocument) => `# ${escapeMarkdown(document.title || document.id)}\n\n${escapeMarkdown(document.text)}\n\n`;

/** A heading as the reader gives it back, compared loosely (case, spacing, punctuation). */
export const headingKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const encoder = new TextEncoder();

interface SingleRun {
  workspace: string;
  ready: number;
  failed: number;
  seconds: number;
  passages: number;
  /** Seconds per document in each quarter of the run, and the documents indexed at its middle. */
  quarters: { secondsPerDocument: number; indexedAtMiddle: number }[];
  extrapolatedMinutes: number;
  complete: boolean;
  /** Why documents failed, each reason once. */
  errors: string[];
  /** Passage document id → BEIR id. */
  beirIdOf: Map<string, string>;
}

/**
 * Minutes to ingest all `total` documents one per upload, from the run's quarters: the time per
 * document grows with the index it rewrites (a + b·k at k documents indexed, least squares), so the
 * whole is the sum over k. Answers the run's own rate when the fit is not increasing.
 */
function extrapolate(quarters: SingleRun['quarters'], total: number, seconds: number, ready: number): number {
  const n = quarters.length;
  const meanX = quarters.reduce((sum, q) => sum + q.indexedAtMiddle, 0) / n;
  const meanY = quarters.reduce((sum, q) => sum + q.secondsPerDocument, 0) / n;
  const sxx = quarters.reduce((sum, q) => sum + (q.indexedAtMiddle - meanX) ** 2, 0);
  const b = sxx > 0 ? quarters.reduce((sum, q) => sum + (q.indexedAtMiddle - meanX) * (q.secondsPerDocument - meanY), 0) / sxx : 0;
  const a = meanY - b * meanX;
  if (!(b > 0)) return (total * (seconds / Math.max(1, ready))) / 60;
  return (a * total + (b * total * (total - 1)) / 2) / 60;
}

/**
 * Documents uploaded one per upload, in corpus order, `SINGLE_CONCURRENCY` at once, each upload
 * waiting for its document to be ready before the next, until the corpus is in or the budget is spent.
 */
async function ingestOnePerUpload(api: KnowledgeApi, documents: BeirDocument[]): Promise<SingleRun> {
  const started = performance.now();
  const deadline = started + SINGLE_BUDGET_S * 1000;
  const beirIdOf = new Map<string, string>();
  const finished: number[] = [];
  let next = 0;
  let failed = 0;
  let passages = 0;
  const errors = new Set<string>();
  const worker = async () => {
    while (next < documents.length && performance.now() < deadline) {
      const document = documents[next++]!;
      const name = `${(document.title || document.id).replace(/[\\/:*?"<>|\n]/g, ' ').slice(0, 190)}.md`;
      const id = await api.upload(name, encoder.encode(markdownOf(document)), 'text/markdown');
      beirIdOf.set(id, document.id);
      const state = await api.settled(id, 300_000);
      if (state.status === 'failed') {
        failed += 1;
        errors.add(state.error ?? '');
      }
      passages += state.passages ?? 0;
      finished.push((performance.now() - started) / 1000);
    }
  };
  await Promise.all(Array.from({ length: SINGLE_CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  finished.sort((a, b) => a - b);
  const quarterSize = Math.max(1, Math.floor(finished.length / 4));
  const quarters = [0, 1, 2, 3]
    .map((quarter) => {
      const from = quarter * quarterSize;
      const to = quarter === 3 ? finished.length : from + quarterSize;
      const start = from === 0 ? 0 : (finished[from - 1] ?? 0);
      const end = finished[to - 1] ?? start;
      return { secondsPerDocument: (end - start) / Math.max(1, to - from), indexedAtMiddle: (from + to) / 2 };
    })
    .filter((quarter) => quarter.secondsPerDocument > 0);
  return {
    workspace: api.workspace,
    ready: finished.length - failed,
    failed,
    seconds,
    passages,
    quarters,
    extrapolatedMinutes: quarters.length ? extrapolate(quarters, documents.length, seconds, finished.length) : Number.NaN,
    complete: finished.length === documents.length,
    errors: [...errors],
    beirIdOf,
  };
}

/** Documents packed `perFile` to a file, no two of one file under the same heading (the heading tells them apart). */
function packDocuments(documents: BeirDocument[], perFile: number): BeirDocument[][] {
  const files: BeirDocument[][] = [];
  const headingsOf: Set<string>[] = [];
  for (const document of documents) {
    const key = headingKey(document.title || document.id);
    let index = files.findIndex((file, at) => file.length < perFile && !headingsOf[at]?.has(key));
    if (index < 0) {
      index = files.push([]) - 1;
      headingsOf.push(new Set());
    }
    files[index]!.push(document);
    headingsOf[index]!.add(key);
  }
  return files;
}

interface PackedRun {
  files: number;
  /** Files neither ready nor failed when the wait ended. */
  unsettled: number;
  errors: string[];
  megabytes: number;
  ready: number;
  failed: number;
  seconds: number;
  passages: number;
  /** `<document id>\0<heading key>` → BEIR id. */
  beirIdOf: Map<string, string>;
}

/**
 * The corpus packed `DOCUMENTS_PER_FILE` to a Markdown file, every file uploaded at once (4 uploads in
 * flight) and waited for: from the first upload to the last document ready. Every file has the same
 * name, so every passage has the same document title and the title weighs on no ranking.
 */
export async function ingestPacked(api: KnowledgeApi, set: BeirSet, waitSeconds = PACKED_WAIT_S): Promise<PackedRun> {
  const files = packDocuments(set.documents, DOCUMENTS_PER_FILE);
  const beirIdOf = new Map<string, string>();
  const bodies = files.map((file) => encoder.encode(file.map(markdownOf).join('')));
  const started = performance.now();
  let next = 0;
  const ids: string[] = [];
  const uploader = async () => {
    while (next < files.length) {
      const at = next++;
      const id = await api.upload(`${set.name} documents.md`, bodies[at]!, 'text/markdown');
      ids.push(id);
      for (const document of files[at]!) beirIdOf.set(`${id}\u0000${headingKey(document.title || document.id)}`, document.id);
    }
  };
  await Promise.all(Array.from({ length: 4 }, uploader));
  const deadline = performance.now() + waitSeconds * 1000;
  let states: DocumentState[] = [];
  const settled = (state: DocumentState) => state.status === 'ready' || state.status === 'failed';
  for (;;) {
    states = await api.documents();
    if (states.every(settled) || performance.now() > deadline) break;
    await sleep(250);
  }
  return {
    unsettled: states.filter((state) => !settled(state)).length,
    errors: [...new Set(states.filter((state) => state.status === 'failed').map((state) => state.error ?? ''))],
    files: files.length,
    megabytes: bodies.reduce((sum, body) => sum + body.length, 0) / 2 ** 20,
    ready: states.filter((state) => state.status === 'ready').length,
    failed: states.filter((state) => state.status === 'failed').length,
    seconds: (performance.now() - started) / 1000,
    passages: states.reduce((sum, state) => sum + (state.passages ?? 0), 0),
    beirIdOf,
  };
}

interface RetrievalRun {
  limit: number;
  score: RankingScore;
  searchMs: number[];
  unmapped: number;
  /** Searches that failed (counted as finding nothing). */
  errors: number;
}

/** Every test query searched with `limit`, its passages' documents (each once, at its best rank) scored against the judgements. */
export async function evaluate(api: KnowledgeApi, set: BeirSet, beirIdOf: (passage: FoundPassage) => string | undefined, limit: number) {
  const scores: RankingScore[] = [];
  const searchMs: number[] = [];
  let unmapped = 0;
  let errors = 0;
  for (const [queryId, text] of set.queries) {
    let passages: FoundPassage[] = [];
    try {
      const found = await api.search(text.slice(0, 1000), limit);
      passages = found.passages;
      searchMs.push(found.ms);
    } catch {
      // A search that fails finds nothing; how many did is reported.
      errors += 1;
    }
    const ids = passages.map(beirIdOf);
    unmapped += ids.filter((id) => id === undefined).length;
    scores.push(scoreRanking(documentsInOrder(ids).slice(0, 10), set.qrels.get(queryId) ?? new Map()));
  }
  return { limit, score: meanScore(scores), searchMs, unmapped, errors } satisfies RetrievalRun;
}

/**
 * A diagnostic beside the API's figure, in process: the same PassageIndex (fields, stems, boosts)
 * over whole documents, one passage each, the BEIR title as the document title, the text uncut. What
 * the ranking is before the service's cutting and packing.
 */
function scoreWholeDocuments(set: BeirSet): RankingScore {
  const index = PassageIndex.empty();
  for (const document of set.documents) {
    index.add(document.id, [{ document_id: document.id, title: document.title, section: '', text: document.text, position: 0 }]);
  }
  return meanScore(
    [...set.queries].map(([queryId, text]) =>
      scoreRanking(
        index.query(text, 10).map((found) => found.document_id),
        set.qrels.get(queryId) ?? new Map(),
      ),
    ),
  );
}

/** Seeded pseudo-random numbers (mulberry32): the synthetic indexes are the same every run. */
export function randomOf(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` synthetic passages from the corpus's own sentences: each about as long as a real passage
 * (a corpus document's length, at most 1 600 characters: 400 tokens), of sentences drawn at random
 * from all documents, titled as a random document, four passages a document.
 */
function syntheticIndex(documents: BeirDocument[], count: number): PassageIndex {
  const random = randomOf(49);
  const sentences = documents.flatMap((document) => document.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 20));
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const index = PassageIndex.empty();
  for (let made = 0, document = 0; made < count; document += 1) {
    const title = pick(documents).title;
    const passages: StoredPassage[] = [];
    for (let position = 0; position < 4 && made < count; position += 1, made += 1) {
      const length = Math.min(1_600, pick(documents).text.length);
      let text = '';
      while (text.length < length) text += `${pick(sentences)} `;
      passages.push({ document_id: `syn${document}`, title, section: '', text: text.trim(), position });
    }
    index.add(`syn${document}`, passages);
  }
  return index;
}

interface LoadedIndex {
  passages: number;
  bytes: number;
  load_ms: number;
  heap_mb: number;
  rss_mb: number;
  gc: string;
  p50_ms: number;
  p99_ms: number;
}

/** A stored index loaded cold in a fresh process, its memory measured and the questions searched (knowledge-index-child.ts). */
async function loadInChild(indexFile: string, queriesFile: string): Promise<LoadedIndex> {
  const child = await startChild(fileURLToPath(new URL('./knowledge-index-child.ts', import.meta.url)), {
    KNOWLEDGE_INDEX_FILE: indexFile,
    KNOWLEDGE_QUERIES_FILE: queriesFile,
  });
  await child.stop();
  return child.ready as unknown as LoadedIndex;
}

/** The newest stored version of a workspace's index under the runtime's blob folder (`<version>-<uuid>.json.gz`). */
function storedIndexFile(dataDir: string, workspace: string): string | undefined {
  const knowledge = join(dataDir, 'blobs', 'knowledge');
  for (const org of readdirSync(knowledge)) {
    const folder = join(knowledge, org, workspace, 'index');
    let files: string[];
    try {
      files = readdirSync(folder);
    } catch {
      continue;
    }
    const newest = files.filter((name) => name.endsWith('.json.gz')).sort((a, b) => Number.parseInt(b, 10) - Number.parseInt(a, 10))[0];
    if (newest) return join(folder, newest);
  }
  return undefined;
}

/** Printable text (the standard fonts write WinAnsi; the rest becomes a space). */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, ' ');

/**
 * A PDF of at least `megabytes` of text pages (A4, Helvetica 11 pt, about 4 000 characters a page)
 * written by pdf-lib from the corpus's text: a first PDF tells the bytes a page takes, the second
 * has enough pages.
 */
async function textPdf(texts: string[], megabytes: number): Promise<{ bytes: Uint8Array; pages: number; characters: number }> {
  const lines: string[] = [];
  for (const text of texts) {
    let line = '';
    for (const word of printable(text).split(/\s+/)) {
      if (line.length + word.length + 1 > 90) {
        lines.push(line);
        line = '';
      }
      line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
    lines.push('');
  }
  const LINES_PER_PAGE = 50;
  const write = async (pages: number) => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    let characters = 0;
    for (let page = 0; page < pages; page += 1) {
      const sheet = pdf.addPage([595, 842]);
      for (let row = 0; row < LINES_PER_PAGE; row += 1) {
        const line = lines[(page * LINES_PER_PAGE + row) % lines.length] ?? '';
        characters += line.length;
        if (line) sheet.drawText(line, { x: 56, y: 786 - row * 14.5, size: 11, font });
      }
    }
    return { bytes: await pdf.save(), pages, characters };
  };
  const sample = await write(20);
  const pages = Math.ceil((megabytes * 2 ** 20) / (sample.bytes.length / 20)) + 1;
  return write(pages);
}

interface PdfRun {
  megabytes: number;
  pages: number;
  characters: number;
  seconds: number;
  status: string;
  passages: number;
  error: string;
}

/** Each PDF uploaded alone into a workspace of its own and timed from the upload to `ready` (or `failed`). */
async function ingestPdfs(base: string, cookie: string, texts: string[]): Promise<PdfRun[]> {
  const runs: PdfRun[] = [];
  const post = poster(base, cookie);
  for (const megabytes of PDF_MEGABYTES) {
    const pdf = await textPdf(texts, megabytes);
    const workspace = String((await post('/api/workspaces', { name: `PDF ${megabytes} MB` })).json.id);
    const api = knowledgeApi(base, cookie, workspace);
    const started = performance.now();
    const id = await api.upload(`text-${megabytes}mb.pdf`, pdf.bytes, 'application/pdf');
    const state = await api.settled(id, 180_000, 50);
    runs.push({
      megabytes: pdf.bytes.length / 2 ** 20,
      pages: pdf.pages,
      characters: pdf.characters,
      seconds: (performance.now() - started) / 1000,
      status: state.status,
      passages: state.passages ?? 0,
      error: state.error ?? '',
    });
  }
  return runs;
}

/** Text to write PDFs and synthetic passages from when no BEIR set is given: the tool catalogue's descriptions. */
function fallbackDocuments(): BeirDocument[] {
  const catalogue = JSON.parse(readFileSync('bench/data/tool-catalogue.json', 'utf8')) as {
    servers: { name: string; tools: { name: string; description?: string }[] }[];
  };
  return catalogue.servers.flatMap((server) =>
    server.tools.map((tool) => ({ id: `${server.name}:${tool.name}`, title: tool.name, text: tool.description ?? '' })),
  );
}

interface Measured {
  set?: BeirSet;
  /** The diagnostic in process: whole documents, one passage each. */
  wholeDocuments?: RankingScore;
  single?: SingleRun;
  packed?: PackedRun;
  retrieval: RetrievalRun[];
  /** The workspace searched: its passages and stored index loaded cold. */
  corpusIndex?: LoadedIndex;
  pdfs: PdfRun[];
  synthetic: (LoadedIndex & { build_s: number; to_bytes_s: number })[];
  /** Each service process's memory when its phase was done, and what it complained of. */
  phases: { phase: string; memory?: ServiceMemory; complaints: string[] }[];
}

interface ServiceMemory {
  peakMb: number;
  nowMb: number;
}

/** The resident memory of a process (peak and now, in MB), from /proc: undefined where there is none. */
function memoryOf(pid: number | undefined): ServiceMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { peakMb: kb('VmHWM') / 1024, nowMb: kb('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}

/** The service's warnings and errors, by message, with how often each came (its JSON log lines). */
function complaintsOf(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: string; message?: string; error?: string };
      if (entry.level !== 'WARN' && entry.level !== 'ERROR') continue;
      const text = `${entry.level} ${entry.message ?? ''}${entry.error ? `: ${entry.error}` : ''}`.slice(0, 240);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([text, count]) => `${count}x ${text}`);
}

/**
 * `npm start` on the benchmark's store and data folder. Each phase runs in a process of its own: a
 * phase meets the service as a fresh process does, not with what the phase before left in its memory.
 */
function startService(dataDir: string, storeEndpoint: string, env: Record<string, string> = {}) {
  return startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: storeEndpoint,
    ANTHROPIC_API_KEY: 'bench',
    ...LIMITS_OUT_OF_THE_WAY,
    ...env,
  });
}
type Service = ReturnType<typeof startService>;

/** Runs `phase` on a fresh service process; answers its result with the process's memory and complaints when done. */
export async function inService<T>(
  dataDir: string,
  storeEndpoint: string,
  phase: (base: string) => Promise<T>,
  env?: Record<string, string>,
) {
  const service: Service = startService(dataDir, storeEndpoint, env);
  try {
    const result = await phase(await service.url);
    return { result, memory: memoryOf(service.child.pid), complaints: complaintsOf(service.output()) };
  } catch (error) {
    // What the service said last tells why (it logs at INFO, as npm start does).
    const { exitCode, signalCode } = service.child;
    const state = exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`;
    throw new Error(`knowledge benchmark failed; the service ${state}, its last output:\n${service.output().slice(-4000)}`, {
      cause: error,
    });
  } finally {
    await service.stop();
  }
}

async function measure(): Promise<Measured> {
  const set = BEIR_FOLDER ? readBeirSet(BEIR_FOLDER) : undefined;
  const documents = set?.documents ?? fallbackDocuments();
  const queries = set ? [...set.queries.values()] : fallbackDocuments().map((document) => document.title.replace(/_/g, ' '));
  const store = await startDelayedStore(STORE_MS, 'floor');
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-knowledge-'));
  const scratch = await mkdtemp(join(tmpdir(), 'wap-knowledge-indexes-'));
  const measured: Measured = { set, retrieval: [], pdfs: [], synthetic: [], phases: [] };
  try {
    const queriesFile = join(scratch, 'queries.json');
    await writeFile(queriesFile, JSON.stringify(queries));
    let cookie = '';

    // Phase 1: the corpus one document per upload, within its budget.
    if (set) {
      measured.wholeDocuments = scoreWholeDocuments(set);
      const phase = await inService(dataDir, store.endpoint, async (base) => {
        cookie = await signUpOver(base, 'knowledge@example.com');
        const workspace = String((await poster(base, cookie)('/api/workspaces', { name: 'One per upload' })).json.id);
        return ingestOnePerUpload(knowledgeApi(base, cookie, workspace), set.documents);
      });
      measured.single = phase.result;
      measured.phases.push({ phase: 'one document per upload', memory: phase.memory, complaints: phase.complaints });
    }

    // Phase 2: the corpus packed when one per upload was unworkable; the test queries; PDFs.
    const phase = await inService(dataDir, store.endpoint, async (base) => {
      cookie ||= await signUpOver(base, 'knowledge@example.com');
      const post = poster(base, cookie);
      if (set && measured.single) {
        let searched = knowledgeApi(base, cookie, measured.single.workspace);
        let beirIdOf = (passage: FoundPassage) => measured.single?.beirIdOf.get(passage.document_id);
        if (!measured.single.complete) {
          searched = knowledgeApi(base, cookie, String((await post('/api/workspaces', { name: 'Packed' })).json.id));
          measured.packed = await ingestPacked(searched, set);
          beirIdOf = (passage) => measured.packed?.beirIdOf.get(`${passage.document_id}\u0000${headingKey(passage.section)}`);
        }
        for (const limit of [10, 50]) measured.retrieval.push(await evaluate(searched, set, beirIdOf, limit));
        const stored = storedIndexFile(dataDir, searched.workspace);
        if (stored) measured.corpusIndex = await loadInChild(stored, queriesFile);
      }
      measured.pdfs = await ingestPdfs(
        base,
        cookie,
        documents.map((document) => `${document.title}. ${document.text}`),
      );
    });
    measured.phases.push({
      phase: measured.packed ? 'packed, searches, PDFs' : 'searches, PDFs',
      memory: phase.memory,
      complaints: phase.complaints,
    });
    await store.close();

    for (const count of SYNTHETIC_PASSAGES) {
      let started = performance.now();
      const index = syntheticIndex(documents, count);
      const buildSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const bytes = index.toBytes();
      const toBytesSeconds = (performance.now() - started) / 1000;
      const file = join(scratch, `synthetic-${count}.json.gz`);
      await writeFile(file, bytes);
      measured.synthetic.push({ ...(await loadInChild(file, queriesFile)), build_s: buildSeconds, to_bytes_s: toBytesSeconds });
    }
    return measured;
  } finally {
    await store.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

let measurement: Promise<Measured> | undefined;
const measured = () => {
  measurement ??= measure();
  return measurement;
};

const notMeasured = `not measured: set BENCH_KNOWLEDGE_BEIR to a BEIR set's folder (docs/knowledge-bench.md)`;

/** The headline: retrieval quality through `GET …/knowledge/search` next to the set's published BM25. */
export async function benchKnowledge(): Promise<Row[]> {
  const { set, single, packed, retrieval, wholeDocuments: whole } = await measured();
  console.log(HYBRID);
  if (!set) return [{ figure: 'retrieval', value: notMeasured }, { figure: HYBRID }];
  const published = PUBLISHED_BM25_NDCG10[set.name];
  const ingested = packed
    ? `${DOCUMENTS_PER_FILE} documents a Markdown file (one # heading each)`
    : `one document per upload (${single?.ready ?? 0} ready)`;
  const rows: Row[] = retrieval.map((run) => ({
    figure: run.limit === 10 ? 'search, limit 10' : `search, limit ${run.limit}, first 10 documents`,
    set: `${set.name}: ${set.documents.length} docs, ${set.queries.size} test queries`,
    ingested,
    passages: packed?.passages ?? single?.passages ?? 0,
    recall_at_5: run.score.recallAt5.toFixed(3),
    recall_at_10: run.score.recallAt10.toFixed(3),
    ndcg_at_10: run.score.ndcgAt10.toFixed(3),
    bm25_ndcg_at_10_published: published?.toFixed(3) ?? '(unknown set)',
    goal_met: published === undefined ? '-' : run.score.ndcgAt10 >= published ? 'yes' : 'no',
    unmapped_passages: run.unmapped,
    failed_searches: run.errors,
  }));
  if (whole) {
    rows.push({
      figure: 'diagnostic, in process (not the API): PassageIndex over whole documents, one passage each, BEIR title as title',
      set: `${set.name}: ${set.documents.length} docs, ${set.queries.size} test queries`,
      ingested: '-',
      passages: set.documents.length,
      recall_at_5: whole.recallAt5.toFixed(3),
      recall_at_10: whole.recallAt10.toFixed(3),
      ndcg_at_10: whole.ndcgAt10.toFixed(3),
      bm25_ndcg_at_10_published: published?.toFixed(3) ?? '(unknown set)',
      goal_met: published === undefined ? '-' : whole.ndcgAt10 >= published ? 'yes' : 'no',
      unmapped_passages: 0,
    });
  }
  rows.push({ figure: HYBRID });
  return rows;
}

/** Ingestion: the corpus one document per upload and packed, and PDFs of text pages. */
export async function benchKnowledgeIngestion(): Promise<Row[]> {
  const { set, single, packed, pdfs, phases } = await measured();
  const rows: Row[] = [];
  if (!set) rows.push({ ingestion: 'BEIR corpus', note: notMeasured });
  if (set && single) {
    const first = single.quarters[0];
    const last = single.quarters.at(-1);
    rows.push({
      ingestion: `one document per upload (${SINGLE_CONCURRENCY} at once, budget ${SINGLE_BUDGET_S} s)`,
      documents: `${single.ready} of ${set.documents.length}${single.failed ? `, ${single.failed} failed` : ''}`,
      seconds: round(single.seconds, 1),
      docs_per_s: round((single.ready + single.failed) / single.seconds, 2),
      passages: single.passages,
      note: `s per doc: ${round(first?.secondsPerDocument ?? 0)} in the first quarter, ${round(last?.secondsPerDocument ?? 0)} in the last; whole corpus, extrapolated: ${round(single.extrapolatedMinutes, 1)} min (${single.extrapolatedMinutes > WORKABLE_MINUTES ? `over ${WORKABLE_MINUTES} min: unworkable, packed below` : 'workable'})${single.errors.length ? `; failed: ${single.errors.join(' | ')}` : ''}`,
    });
  }
  if (set && packed) {
    rows.push({
      ingestion: `packed: ${DOCUMENTS_PER_FILE} documents a Markdown file, ${packed.files} files (${round(packed.megabytes, 2)} MB), all uploaded at once`,
      documents: `${packed.ready} files ready${packed.failed ? `, ${packed.failed} failed` : ''}${packed.unsettled ? `, ${packed.unsettled} not done after ${PACKED_WAIT_S} s` : ''} (${set.documents.length} documents)`,
      seconds: round(packed.seconds, 1),
      docs_per_s: round(set.documents.length / packed.seconds, 1),
      passages: packed.passages,
      note: `${round(packed.seconds / packed.megabytes, 1)} s per MB of Markdown${packed.errors.length ? `; failed: ${packed.errors.join(' | ')}` : ''}`,
    });
  }
  for (const { phase, memory, complaints } of phases) {
    rows.push({
      ingestion: `the service process after: ${phase}`,
      documents: '-',
      seconds: '-',
      docs_per_s: '-',
      passages: '-',
      note: `resident memory ${memory ? `${Math.round(memory.nowMb)} MB, peak ${Math.round(memory.peakMb)} MB` : 'unknown'}; warnings and errors logged: ${complaints.length ? complaints.slice(0, 3).join(' | ') : 'none'}`,
    });
  }
  for (const pdf of pdfs) {
    rows.push({
      ingestion: `PDF of text pages, ${round(pdf.megabytes, 2)} MB (${pdf.pages} pages, ${pdf.characters} characters)`,
      documents: pdf.status,
      seconds: round(pdf.seconds, 2),
      docs_per_s: '-',
      passages: pdf.passages,
      note: pdf.status === 'ready' ? `${round(pdf.seconds / pdf.megabytes, 2)} s per MB, upload to ready` : pdf.error,
    });
  }
  return rows;
}

/** Search latency, index size, memory and cold load. */
export async function benchKnowledgeIndex(): Promise<Row[]> {
  const { set, retrieval, corpusIndex, synthetic } = await measured();
  const rows: Row[] = [];
  const api = retrieval.find((run) => run.limit === 10);
  if (set && api && corpusIndex) {
    rows.push({
      index: `${set.name} workspace, through GET …/knowledge/search (limit 10, store ${STORE_MS} ms away)`,
      passages: corpusIndex.passages,
      searches: api.searchMs.length,
      p50_ms: percentile(api.searchMs, 50),
      p99_ms: percentile(api.searchMs, 99),
    });
    rows.push({
      index: `${set.name} workspace's stored index, loaded cold (PassageIndex.fromBytes), query() in process`,
      passages: corpusIndex.passages,
      searches: set.queries.size,
      p50_ms: corpusIndex.p50_ms,
      p99_ms: corpusIndex.p99_ms,
      stored_kb: Math.round(corpusIndex.bytes / 1024),
      load_ms: round(corpusIndex.load_ms, 1),
      heap_mb: round(corpusIndex.heap_mb, 1),
      rss_mb: round(corpusIndex.rss_mb, 1),
      memory_by: corpusIndex.gc,
    });
  }
  for (const index of synthetic) {
    rows.push({
      index: `synthetic ${index.passages} passages (${set ? "the corpus's sentences" : "the tool catalogue's descriptions"}), loaded cold, query() in process`,
      passages: index.passages,
      searches: set ? set.queries.size : '-',
      p50_ms: index.p50_ms,
      p99_ms: index.p99_ms,
      stored_kb: Math.round(index.bytes / 1024),
      load_ms: round(index.load_ms, 1),
      heap_mb: round(index.heap_mb, 1),
      rss_mb: round(index.rss_mb, 1),
      memory_by: index.gc,
      build_s: round(index.build_s, 1),
      to_bytes_s: round(index.to_bytes_s, 1),
    });
  }
  return rows;
}
