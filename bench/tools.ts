import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { fileURLToPath } from 'node:url';
import { embedderOf } from '../shared/platform/embedder.js';
import { fusedToolRanking } from '../shared/tool-search/fusion.js';
import { buildToolIndex, type SearchableTool, searchTools } from '../shared/tool-search/tool-index.js';
import { startChild } from './child.js';
import { percentile, type Row } from './report.js';

/**
 * Tool search measured on real tool lists (bench/data/README.md): 858 tools that 25 public MCP
 * servers list (code hosts, trackers, chat, docs, CRM, mail, calendars, files, databases,
 * observability, browsers), and 303 questions written for this benchmark, each labelled with the one
 * tool that answers it. Recall of the index (`shared/tool-search/tool-index.ts`: MiniSearch, BM25+,
 * Porter stems) against a plain keyword baseline without stemming; search latency at 300 and 1 000
 * tools; index build time and size; and the size of the tool definitions a model reads without search.
 */

interface Catalogue {
  servers: { name: string; tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }[];
}
interface Questions {
  questions: { question: string; server: string; tool: string }[];
}

const catalogue = JSON.parse(readFileSync('bench/data/tool-catalogue.json', 'utf8')) as Catalogue;
const { questions } = JSON.parse(readFileSync('bench/data/tool-questions.json', 'utf8')) as Questions;

/** Every tool of the catalogue as one workspace would hold it: one connection per server. */
function catalogueTools(): SearchableTool[] {
  return catalogue.servers.flatMap((server) =>
    server.tools.map((tool) => ({
      id: `${server.name}:${tool.name}`,
      name: tool.name,
      toolName: tool.name,
      connection: server.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
    })),
  );
}

/** Characters of the definitions a model reads (name, description, input schema), and tokens at about 3.5 characters each. */
function definitionSize(tools: SearchableTool[]): { chars: number; tokens: number } {
  const chars = tools.reduce(
    (sum, tool) => sum + JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }).length,
    0,
  );
  return { chars, tokens: Math.round(chars / 3.5) };
}

/** The floor to beat: the same fields, words lower-cased and nothing else (no stems, no prefixes, no typos). */
function keywordBaseline(tools: SearchableTool[]) {
  const search = new MiniSearch<{ id: string; words: string; description: string }>({ fields: ['words', 'description'] });
  search.addAll(tools.map((tool) => ({ id: tool.id, words: tool.toolName.replace(/[_\-.]/g, ' '), description: tool.description })));
  return (query: string, limit: number) =>
    search
      .search(query)
      .slice(0, limit)
      .map((result) => String(result.id));
}

function recall(rank: (query: string, limit: number) => string[]): { at1: number; at5: number } {
  let at1 = 0;
  let at5 = 0;
  for (const { question, server, tool } of questions) {
    const found = rank(question, 5);
    if (found[0] === `${server}:${tool}`) at1 += 1;
    if (found.includes(`${server}:${tool}`)) at5 += 1;
  }
  return { at1: Math.round((at1 / questions.length) * 1000) / 1000, at5: Math.round((at5 / questions.length) * 1000) / 1000 };
}

function indexRank(tools: SearchableTool[]) {
  const index = buildToolIndex(tools);
  const allowed = new Set(tools.map((tool) => tool.id));
  const idOf = new Map(tools.map((tool) => [`${tool.connection}\u0000${tool.name}`, tool.id]));
  return (query: string, limit: number) =>
    searchTools(index, query, { limit, allowed }).map((match) => idOf.get(`${match.connection}\u0000${match.name}`) ?? '');
}

/** `count` tools: the catalogue's, then (past its size) its tools again under a second connection of each server. */
function toolsOfSize(count: number): SearchableTool[] {
  const all = catalogueTools();
  const copies = all.map((tool) => ({ ...tool, id: `${tool.id}#2`, connection: `${tool.connection}-eu` }));
  return [...all, ...copies].slice(0, count);
}

function latencyRow(count: number): Row {
  const tools = toolsOfSize(count);
  const builds: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    buildToolIndex(tools);
    builds.push(performance.now() - started);
  }
  const index = buildToolIndex(tools);
  const allowed = new Set(tools.map((tool) => tool.id));
  const samples: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    for (const { question } of questions) {
      const started = performance.now();
      searchTools(index, question, { limit: 5, allowed });
      samples.push(performance.now() - started);
    }
  }
  return {
    tools: count,
    search_p50_ms: percentile(samples, 50),
    search_p99_ms: percentile(samples, 99),
    build_p50_ms: percentile(builds, 50),
    index_kb: Math.round(JSON.stringify(index.search).length / 1024),
    definitions_tokens: definitionSize(tools).tokens,
  };
}

/**
 * The fused ranking the service gives with an embedding provider (`fusedToolRanking`), with a real
 * model run here: `bench/embeddings-server.ts` (Universal Sentence Encoder lite), or the
 * OpenAI-compatible API of `BENCH_EMBEDDINGS_URL` and `BENCH_EMBEDDINGS_MODEL`.
 */
async function hybridRecall(tools: SearchableTool[]): Promise<{ at1: number; at5: number; model: string }> {
  const child = process.env.BENCH_EMBEDDINGS_URL
    ? undefined
    : await startChild(fileURLToPath(new URL('./embeddings-server.ts', import.meta.url)), {});
  const baseUrl = process.env.BENCH_EMBEDDINGS_URL ?? String(child?.ready.url);
  const model = process.env.BENCH_EMBEDDINGS_MODEL ?? String(child?.ready.model);
  try {
    const embedder = embedderOf(
      { provider: 'openai', model, baseUrl, apiKey: undefined, dimensions: undefined, queryPrefix: '', passagePrefix: '' },
      'local',
    );
    const index = buildToolIndex(tools);
    const allowed = new Set(tools.map((tool) => tool.id));
    const idOf = new Map(tools.map((tool) => [`${tool.connection}\u0000${tool.name}`, tool.id]));
    const ranked = new Map<string, string[]>();
    for (const { question } of questions) {
      const matches = await fusedToolRanking('bench', embedder, index, question, { limit: 5, allowed });
      ranked.set(
        question,
        matches.map((match) => idOf.get(`${match.connection}\u0000${match.name}`) ?? ''),
      );
    }
    return { ...recall((question) => ranked.get(question) ?? []), model };
  } finally {
    await child?.stop();
  }
}

export async function benchToolRecall(): Promise<Row[]> {
  const tools = catalogueTools();
  const size = definitionSize(tools);
  const withIndex = recall(indexRank(tools));
  const baseline = recall(keywordBaseline(tools));
  const hybrid = await hybridRecall(tools);
  const setup = `${tools.length} tools of ${catalogue.servers.length} servers, ${questions.length} questions`;
  return [
    { ranking: 'index (BM25+, Porter stems, prefix and typo matches)', setup, recall_at_1: withIndex.at1, recall_at_5: withIndex.at5 },
    {
      ranking: `index fused with ${hybrid.model} vectors (reciprocal rank fusion, 50 of each; the service with an embedding provider)`,
      setup,
      recall_at_1: hybrid.at1,
      recall_at_5: hybrid.at5,
    },
    { ranking: 'keyword baseline (no stems)', setup, recall_at_1: baseline.at1, recall_at_5: baseline.at5 },
    {
      ranking: `all definitions without search: ${size.chars} characters, about ${size.tokens} tokens on every model call`,
      setup: '',
      recall_at_1: '',
      recall_at_5: '',
    },
  ];
}

export async function benchToolLatency(): Promise<Row[]> {
  return [latencyRow(300), latencyRow(858), latencyRow(1000)];
}
