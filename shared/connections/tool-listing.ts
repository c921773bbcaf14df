import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolLimits } from '../platform/config.js';

/*
 * A tool server's list, bounded while it is read (docs/connections.md, "What a tool server's answers
 * may take"): a server is not trusted with how many tools it lists or how large they are, since the
 * tools are stored, sent to the model and indexed for search in every workspace that connects it.
 */

/** A tool as the server describes it, with `is_write` derived from its annotations. */
export interface DiscoveredTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  isWrite: boolean;
}

/** A connection's tools as kept, and why some were dropped or cut (null when every tool was kept whole). */
export interface ToolListing {
  tools: DiscoveredTool[];
  truncated: string | null;
}

/** MCP's bound on a tool name (the specification: 1–128 characters); a longer name could not be a table key either. */
const MAX_NAME_CHARACTERS = 128;
/** A list that takes more pages than this is cut there: each page costs a round trip of its own. */
const MAX_PAGES = 100;
/** Names a note lists at most. */
const NAMES_SHOWN = 5;

/** Tools without annotations are treated as writes: the safe assumption for permissions. */
function isWriteTool(annotations: { readOnlyHint?: boolean; destructiveHint?: boolean } | undefined): boolean {
  return annotations?.readOnlyHint !== true;
}

/** `text` in at most `bytes` bytes of UTF-8, a cut one ending in `…` (never half a character). */
function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  const kept = Buffer.from(text)
    .subarray(0, bytes - 3)
    .toString('utf8');
  return `${kept.replace(/\uFFFD+$/, '')}…`;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const namesOf = (names: string[]) =>
  `${names.slice(0, NAMES_SHOWN).join(', ')}${names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : ''}`;

/** What a listing is found to hold while its pages are read. */
class ListingBounds {
  readonly tools: DiscoveredTool[] = [];
  private readonly badNames: string[] = [];
  private readonly largeSchemas: string[] = [];
  private cutDescriptions = 0;
  private readonly seen = new Set<string>();
  /** Set when the list went on past what is kept. */
  overflow: string | null = null;

  constructor(private readonly limits: ToolLimits) {}

  get full(): boolean {
    return this.tools.length >= this.limits.perConnection;
  }

  /** Keeps a listed tool, or notes why it is dropped (a schema cannot be cut, so a tool over the bound goes). */
  add(tool: { name: string; description?: string; inputSchema: unknown; annotations?: { readOnlyHint?: boolean } }): void {
    if (this.full) {
      this.overflow = `the server lists more than ${this.limits.perConnection} tools: the first ${this.limits.perConnection} are kept (MCP_MAX_TOOLS_PER_CONNECTION)`;
      return;
    }
    if (!tool.name || tool.name.length > MAX_NAME_CHARACTERS || this.seen.has(tool.name)) {
      this.badNames.push(tool.name.slice(0, MAX_NAME_CHARACTERS));
      return;
    }
    this.seen.add(tool.name);
    if (Buffer.byteLength(JSON.stringify(tool.inputSchema)) > this.limits.schemaBytes) {
      this.largeSchemas.push(tool.name);
      return;
    }
    const description = cutToBytes(tool.description ?? '', this.limits.descriptionBytes);
    if (description !== (tool.description ?? '')) this.cutDescriptions += 1;
    this.tools.push({
      name: tool.name,
      description,
      inputSchema: tool.inputSchema as Record<string, unknown>,
      isWrite: isWriteTool(tool.annotations),
    });
  }

  /** Why tools were dropped or cut, one clause each; null when none was. */
  note(): string | null {
    const clauses = [
      this.overflow,
      this.largeSchemas.length
        ? `${plural(this.largeSchemas.length, 'tool')} dropped for an input schema over ${this.limits.schemaBytes} bytes (MCP_MAX_TOOL_SCHEMA_BYTES): ${namesOf(this.largeSchemas)}`
        : null,
      this.badNames.length
        ? `${plural(this.badNames.length, 'tool')} dropped for a name that is empty, over ${MAX_NAME_CHARACTERS} characters or listed twice`
        : null,
      this.cutDescriptions
        ? `${plural(this.cutDescriptions, 'description')} cut to ${this.limits.descriptionBytes} bytes (MCP_MAX_TOOL_DESCRIPTION_BYTES)`
        : null,
    ].filter((clause): clause is string => clause !== null);
    return clauses.length ? clauses.join('; ') : null;
  }
}

/**
 * Lists a server's tools page by page within `limits`: reading stops once more tools are listed
 * than a connection keeps (or after `MAX_PAGES` pages), so what is held stays within one page of
 * the bound whatever the server sends.
 */
export async function listBoundedTools(
  client: Client,
  limits: ToolLimits,
  options: { timeoutMs: number; onPage?: () => void },
): Promise<ToolListing> {
  const bounds = new ListingBounds(limits);
  let cursor: string | undefined;
  let pages = 0;
  do {
    options.onPage?.();
    pages += 1;
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: options.timeoutMs });
    for (const tool of page.tools) bounds.add(tool);
    cursor = page.nextCursor;
    if (cursor && pages >= MAX_PAGES)
      bounds.overflow = `the server's list takes more than ${MAX_PAGES} pages: the first ${MAX_PAGES} are kept`;
  } while (cursor && !bounds.overflow);
  return { tools: bounds.tools, truncated: bounds.note() };
}
