import { describe, expect, it } from 'vitest';
import type { ConnectionItem } from '../../shared/connections/connections.js';
import type { ToolItem } from '../../shared/connections/tool-cache.js';
import { workspaceToolIndex } from '../../shared/tool-search/search.js';
import { buildToolIndex, searchTools, type SearchableTool } from '../../shared/tool-search/tool-index.js';
import { namedTools } from '../../shared/connections/tool-access.js';

/** A tool as the index reads it; its offered name is its MCP name. */
function tool(toolName: string, description: string, inputSchema: Record<string, unknown> = {}, connection = 'helpdesk'): SearchableTool {
  return { id: `${connection}:${toolName}`, name: toolName, toolName, connection, description, inputSchema };
}

const TOOLS = [
  tool('create_ticket', 'Open a support ticket', { type: 'object', properties: { title: { type: 'string' } } }),
  tool('archive_ticket', 'Put a support ticket away'),
  tool('search_docs', 'Search the documentation', { type: 'object', properties: { query: { type: 'string', description: 'words' } } }),
  tool('getPullRequest', 'Read one change under review'),
  tool('list-open-issues', 'What is still to be done'),
  tool('calendar.events.list', 'Upcoming entries'),
  tool('fetch_record', 'Fetch one record', {
    type: 'object',
    properties: {
      record_id: { type: 'string', description: 'The invoice number to look up' },
      format: { type: 'string', enum: ['spreadsheet', 'pdf'] },
      filter: { type: 'object', properties: { region: { type: 'string', description: 'Sales territory' } } },
    },
  }),
  tool('post_message', 'Write to a channel', {}, 'chat'),
];
const everyTool = (tools: SearchableTool[]) => new Set(tools.map((candidate) => candidate.id));
const index = buildToolIndex(TOOLS);
const find = (query: string, allowed = everyTool(TOOLS), limit = 10) =>
  searchTools(index, query, { limit, allowed }).map((match) => match.name);

describe('searchTools', () => {
  it('matches the stems of words: "creating" finds create_ticket, "tickets" both ticket tools', () => {
    expect(find('creating')).toEqual(['create_ticket']);
    expect(find('tickets').sort()).toEqual(['archive_ticket', 'create_ticket']);
    expect(find('creating tickets')[0]).toBe('create_ticket');
  });

  it('splits names at case changes, underscores, hyphens and dots', () => {
    expect(find('pull request')).toEqual(['getPullRequest']);
    expect(find('open issues')[0]).toBe('list-open-issues');
    expect(find('calendar events')).toEqual(['calendar.events.list']);
  });

  it("reads parameters: names, descriptions, enum values and nested parameters' descriptions", () => {
    expect(find('invoices')).toEqual(['fetch_record']);
    expect(find('spreadsheet')).toEqual(['fetch_record']);
    expect(find('sales territory')).toEqual(['fetch_record']);
    expect(find('record id')).toEqual(['fetch_record']);
  });

  it("reads the connection's name", () => {
    expect(find('chat')).toEqual(['post_message']);
  });

  it('weighs a word of the name over the same word in a description', () => {
    const ranked = searchTools(
      buildToolIndex([tool('open_door', 'Lets a visitor in'), tool('close_door', 'The opposite of open')]),
      'open',
      {
        limit: 2,
        allowed: new Set(['helpdesk:open_door', 'helpdesk:close_door']),
      },
    );
    expect(ranked.map((match) => match.name)).toEqual(['open_door', 'close_door']);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('never answers a tool outside allowed, and counts limit among the allowed ones', () => {
    const allowed = everyTool(TOOLS.filter((candidate) => candidate.toolName !== 'create_ticket'));
    expect(find('creating tickets', allowed)).toEqual(['archive_ticket']);
    expect(find('creating tickets', allowed, 1)).toEqual(['archive_ticket']);
    expect(find('creating tickets', new Set())).toEqual([]);
  });

  it('answers nothing for a query of function words or punctuation, and orders ties by name', () => {
    expect(find('the of to')).toEqual([]);
    expect(find('?!* …')).toEqual([]);
    const twins = [tool('b_report', 'Same words'), tool('a_report', 'Same words')];
    expect(searchTools(buildToolIndex(twins), 'report', { limit: 5, allowed: everyTool(twins) }).map((match) => match.name)).toEqual([
      'a_report',
      'b_report',
    ]);
  });

  it('indexes 300 tools of realistic shape and finds the one a question asks for', () => {
    const verbs = ['create', 'list', 'get', 'update', 'delete', 'search', 'close', 'merge', 'assign', 'archive'];
    const nouns = ['ticket', 'issue', 'pull_request', 'branch', 'commit', 'message', 'channel', 'invoice', 'customer', 'document'];
    const connections = ['github', 'tracker', 'chat'];
    const tools = Array.from({ length: 300 }, (_, n) => {
      const verb = verbs[n % verbs.length]!;
      const noun = nouns[Math.floor(n / verbs.length) % nouns.length]!;
      const connection = connections[Math.floor(n / 100)]!;
      const words = noun.replace('_', ' ');
      return tool(
        `${verb}_${noun}`,
        `${verb} a ${words} in ${connection}; answers the ${words} with its fields, links and timestamps.`,
        {
          type: 'object',
          properties: {
            id: { type: 'string', description: `The ${words} identifier` },
            limit: { type: 'integer', description: 'Maximum number of results, 1 to 100' },
            state: { type: 'string', enum: ['open', 'closed', 'all'] },
          },
        },
        connection,
      );
    });
    const big = buildToolIndex(tools);
    expect(big.size).toBe(300);
    const best = searchTools(big, 'please merge this pull request on github', { limit: 5, allowed: everyTool(tools) });
    expect(best[0]).toMatchObject({ name: 'merge_pull_request', connection: 'github' });
    expect(best).toHaveLength(5);
  });

  it('searches by each word of a question once, and by its first 32 words only (a long question of one word repeated costs one word)', () => {
    const once = searchTools(index, 'ticket', { limit: 10, allowed: everyTool(TOOLS) });
    const repeated = searchTools(index, Array.from({ length: 80 }, () => 'ticket').join(' '), { limit: 10, allowed: everyTool(TOOLS) });
    expect(repeated).toEqual(once);
    const filler = Array.from({ length: 32 }, (_, word) => `filler${word}`).join(' ');
    expect(find(`${filler} calendar`)).toEqual([]);
    expect(find(`calendar ${filler}`)).toEqual(['calendar.events.list']);
  });

  it('indexes at most the first 4 000 characters of a long description', () => {
    const long = buildToolIndex([tool('long_tool', `${'filler '.repeat(1000)} needle`)]);
    expect(searchTools(long, 'filler', { limit: 1, allowed: new Set(['helpdesk:long_tool']) })).toHaveLength(1);
    expect(searchTools(long, 'needle', { limit: 1, allowed: new Set(['helpdesk:long_tool']) })).toEqual([]);
  });
});

describe('workspaceToolIndex', () => {
  const connection = { id: 'conn_1', name: 'helpdesk' } as ConnectionItem;
  const item = (name: string, description: string): ToolItem => ({
    pk: 'WS#org_a#ws-cache',
    sk: `TOOL#conn_1#${name}`,
    id: `conn_1:${name}`,
    name,
    description,
    input_schema: '{"type":"object"}',
    is_write: false,
    connection_id: 'conn_1',
  });
  const named = (tools: ToolItem[]) => namedTools([connection], new Map([['conn_1', tools]]));

  it("keeps a workspace's index while its tools are the same, and builds a new one when any changes", async () => {
    const first = await workspaceToolIndex('org_a', 'ws-cache', named([item('create_ticket', 'Open a ticket')]));
    expect(await workspaceToolIndex('org_a', 'ws-cache', named([item('create_ticket', 'Open a ticket')]))).toBe(first);
    const changed = await workspaceToolIndex('org_a', 'ws-cache', named([item('create_ticket', 'Open an invoice')]));
    expect(changed).not.toBe(first);
    expect(searchTools(changed, 'invoice', { limit: 1, allowed: new Set(['conn_1:create_ticket']) })).toHaveLength(1);
    const renamed = namedTools([{ ...connection, name: 'billing' }], new Map([['conn_1', [item('create_ticket', 'Open an invoice')]]]));
    expect(await workspaceToolIndex('org_a', 'ws-cache', renamed)).not.toBe(changed);
  });
});
