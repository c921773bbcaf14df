import MiniSearch from 'minisearch';
import { searchTermOf as termOf, searchWordsOf } from '../platform/search-terms.js';

/*
 * The ranking of tool search: a MiniSearch index (BM25+) over each tool's name split into words,
 * its connection's name, its description and its parameters (names, descriptions, enum values),
 * every term lower-cased and reduced to its Porter stem, so "creating tickets" finds
 * `create_ticket`. Scoring is the library's; this module only says what is indexed and how words
 * are cut.
 */

/** A tool as the index reads it. */
export interface SearchableTool {
  /** Unique in the workspace: the cached tool's id (`<connection id>:<MCP name>`). */
  id: string;
  /** The name offered to the model (what a match answers). */
  name: string;
  /** Its MCP name, split into words for the index. */
  toolName: string;
  /** Its connection's name. */
  connection: string;
  description: string;
  /** Its JSON Schema, or the schema as JSON text (as the tool cache keeps it): read when the tool is indexed. */
  inputSchema: Record<string, unknown> | string;
}

/** What a match answers of a tool (what an index keeps of it once built). */
type FoundTool = Pick<SearchableTool, 'id' | 'name' | 'connection' | 'description'>;

/** One match, best first. */
export interface ToolMatch {
  name: string;
  connection: string;
  description: string;
  score: number;
}

/**
 * A workspace's tools, indexed. A document is a tool's position in `tools`, so one index serves
 * every workspace whose tools read the same (`withTools`), each with its own tool ids.
 */
export interface ToolIndex {
  readonly search: MiniSearch<IndexedTool>;
  readonly tools: readonly FoundTool[];
  /** How many tools it holds (the size its cache counts). */
  readonly size: number;
}

/** A document of the index: a tool and its position. Its fields are read from the tool as it is added (`fieldOf`). */
interface IndexedTool {
  id: number;
  tool: SearchableTool;
}

/**
 * The most characters of a field the index reads: a server's description or schema of hundreds of
 * kilobytes would cost every build and says no more about what the tool is for than its start.
 */
const MAX_FIELD_CHARACTERS = 4_000;
/** How deep into nested parameters (objects, array items, alternatives) their names count. */
const MAX_SCHEMA_DEPTH = 3;

/** Words of a field, its first `MAX_FIELD_CHARACTERS` only. */
const wordsOf = (text: string) => searchWordsOf(text.slice(0, MAX_FIELD_CHARACTERS));

/**
 * The words a query is searched by: each once, and at most `MAX_QUERY_WORDS`. Each word is a search
 * of its own (with its prefixes and one-edit neighbours), so a question's 500 characters of one
 * short word repeated cost 38 ms at 858 tools before; a question says what it wants in fewer words.
 */
const MAX_QUERY_WORDS = 32;
function queryWordsOf(text: string): string[] {
  return [...new Set(wordsOf(text))].slice(0, MAX_QUERY_WORDS);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names, descriptions and enum values of a schema's parameters, nested ones too (to `MAX_SCHEMA_DEPTH`). */
function parameterTexts(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return out;
  const nested: unknown[] = [];
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.push(name);
      if (!isRecord(property)) continue;
      if (typeof property.description === 'string') out.push(property.description);
      if (Array.isArray(property.enum)) out.push(...property.enum.filter((value): value is string => typeof value === 'string'));
      nested.push(property);
    }
  }
  if (isRecord(schema.items)) nested.push(schema.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alternatives = schema[key];
    if (Array.isArray(alternatives)) nested.push(...alternatives);
  }
  for (const child of nested) parameterTexts(child, depth + 1, out);
  return out;
}

/**
 * Field weights, chosen on `npm run bench -- tools`: a word of the connection's name counts most
 * (a person names the product, "on GitHub", and where servers do alike that decides), then a word
 * of the tool's name, a parameter's least. Connection 6 against 2 raised recall@5 on both halves of
 * the benchmark's questions (0.803 to 0.809 and 0.768 to 0.821), so it is no fit to one half.
 */
const BOOST = { words: 2, connection: 6, description: 1, parameters: 0.3 };

/** A schema given as JSON text, parsed (an unreadable one has no parameters). */
function schemaOf(schema: Record<string, unknown> | string): unknown {
  if (typeof schema !== 'string') return schema;
  try {
    return JSON.parse(schema);
  } catch {
    return {};
  }
}

/** A field of a document, read from its tool as the document is added: the schema is parsed then, within the build's slice. */
function fieldOf(document: IndexedTool, field: string): string | number | undefined {
  const { tool } = document;
  if (field === 'id') return document.id;
  if (field === 'words') return tool.toolName;
  if (field === 'connection') return tool.connection;
  if (field === 'description') return tool.description;
  if (field === 'parameters') return parameterTexts(schemaOf(tool.inputSchema)).join(' ').slice(0, MAX_FIELD_CHARACTERS);
  return undefined;
}

const newIndex = () =>
  new MiniSearch<IndexedTool>({
    fields: ['words', 'connection', 'description', 'parameters'],
    tokenize: wordsOf,
    processTerm: termOf,
    extractField: fieldOf,
  });

/** The same index answering for `tools`: tools that read as the index's did, position by position (their ids may differ). */
export function withTools(index: ToolIndex, tools: readonly SearchableTool[]): ToolIndex {
  const found = tools.map(({ id, name, connection, description }) => ({ id, name, connection, description }));
  return { search: index.search, tools: found, size: found.length };
}

/** Builds the index of a workspace's tools (all of them: permissions are applied when searching), in one go. */
export function buildToolIndex(tools: readonly SearchableTool[]): ToolIndex {
  const search = newIndex();
  search.addAll(tools.map((tool, id) => ({ id, tool })));
  return withTools({ search, tools: [], size: 0 }, tools);
}

/**
 * Tools indexed per slice of a build that yields (`buildToolIndexInSlices`). A tool of the largest
 * allowed size (an 8 KB description, a 32 KB schema: the index reads 4 000 characters of each) takes
 * about 3 ms, so a request waits a few milliseconds per turn of the loop; a slice of 2 doubled the
 * p99 of another organisation's requests on a busy machine. The yield after each (a timer) adds about
 * 1 ms a tool: 1 s to the largest build's 3.
 */
const SLICE_TOOLS = 1;

/**
 * Builds the index as `buildToolIndex` does, `SLICE_TOOLS` tools at a time with the event loop
 * served between slices (MiniSearch's `addAllAsync`): a workspace's 1 000 tools take seconds to
 * index, and no other request may wait on that.
 */
export async function buildToolIndexInSlices(tools: readonly SearchableTool[]): Promise<ToolIndex> {
  const search = newIndex();
  await search.addAllAsync(
    tools.map((tool, id) => ({ id, tool })),
    { chunkSize: SLICE_TOOLS },
  );
  return withTools({ search, tools: [], size: 0 }, tools);
}

/**
 * The tools that best match a query, best first (ties by name), among the `allowed` ids only: the
 * caller's permissions and `block_tool` guardrails are applied before any match leaves this module.
 * A term matches longer terms it starts (3 characters or more) and, from 6 characters, terms one
 * edit away, each worth less than an exact match (MiniSearch's weights).
 */
export function searchTools(index: ToolIndex, query: string, options: { limit: number; allowed: ReadonlySet<string> }): ToolMatch[] {
  const results = index.search.search(query, {
    tokenize: queryWordsOf,
    boost: BOOST,
    prefix: (term) => term.length >= 3,
    fuzzy: (term) => (term.length >= 6 ? 1 : false),
    filter: (result) => options.allowed.has(index.tools[Number(result.id)]?.id ?? ''),
  });
  const matches: ToolMatch[] = [];
  for (const result of results) {
    const tool = index.tools[Number(result.id)];
    if (!tool) continue;
    matches.push({
      name: tool.name,
      connection: tool.connection,
      description: tool.description,
      score: Math.round(result.score * 1000) / 1000,
    });
  }
  return matches.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, options.limit);
}
