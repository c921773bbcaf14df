import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';

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
  inputSchema: Record<string, unknown>;
}

/** One match, best first. */
export interface ToolMatch {
  name: string;
  connection: string;
  description: string;
  score: number;
}

/** A workspace's tools, indexed. */
export interface ToolIndex {
  readonly search: MiniSearch<IndexedFields>;
  readonly tools: ReadonlyMap<string, SearchableTool>;
  /** How many tools it holds (the size its cache counts). */
  readonly size: number;
}

interface IndexedFields {
  id: string;
  words: string;
  connection: string;
  description: string;
  parameters: string;
}

/**
 * The most characters of a field the index reads: a server's description or schema of hundreds of
 * kilobytes would cost every build and says no more about what the tool is for than its start.
 */
const MAX_FIELD_CHARACTERS = 4_000;
/** How deep into nested parameters (objects, array items, alternatives) their names count. */
const MAX_SCHEMA_DEPTH = 3;

/** Function words that say nothing about which tool is meant (the question's "how do I", "the"). */
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from had has have how i if in into is it its me my of on or our please should so than that the their them then there these they this those to us was we were what when where which who why will with would you your'.split(
    ' ',
  ),
);

/**
 * Words of a text or a name: `createTicket`, `create_ticket`, `create-ticket` and `tickets.create`
 * all cut at the case change or the punctuation, lower-cased.
 */
function wordsOf(text: string): string[] {
  return text
    .slice(0, MAX_FIELD_CHARACTERS)
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * The words a query is searched by: each once, and at most `MAX_QUERY_WORDS`. Each word is a search
 * of its own (with its prefixes and one-edit neighbours), so a question's 500 characters of one
 * short word repeated cost 38 ms at 858 tools before; a question says what it wants in fewer words.
 */
const MAX_QUERY_WORDS = 32;
function queryWordsOf(text: string): string[] {
  return [...new Set(wordsOf(text))].slice(0, MAX_QUERY_WORDS);
}

/** The term a word is indexed and searched as: its Porter stem; none for a function word. */
function termOf(word: string): string | null {
  return STOP_WORDS.has(word) ? null : stemmer(word);
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

/** Builds the index of a workspace's tools (all of them: permissions are applied when searching). */
export function buildToolIndex(tools: readonly SearchableTool[]): ToolIndex {
  const search = new MiniSearch<IndexedFields>({
    fields: ['words', 'connection', 'description', 'parameters'],
    tokenize: wordsOf,
    processTerm: termOf,
  });
  search.addAll(
    tools.map((tool) => ({
      id: tool.id,
      words: tool.toolName,
      connection: tool.connection,
      description: tool.description,
      parameters: parameterTexts(tool.inputSchema).join(' ').slice(0, MAX_FIELD_CHARACTERS),
    })),
  );
  return { search, tools: new Map(tools.map((tool) => [tool.id, tool])), size: tools.length };
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
    filter: (result) => options.allowed.has(String(result.id)),
  });
  const matches: ToolMatch[] = [];
  for (const result of results) {
    const tool = index.tools.get(String(result.id));
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
