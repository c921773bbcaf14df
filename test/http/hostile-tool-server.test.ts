import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../shared/connections/mcp-hub.js';
import { RecordingLogger } from '../support/logger.js';
import { startLowLevelMcpServer } from '../support/mcp-servers.js';

/*
 * A tool server is not trusted: its tools' output schemas are its own words. The MCP client checks
 * a tool's structured result against the tool's output schema; with JavaScript's RegExp, a
 * `pattern` such as `^(a+)+$` and a result of forty `a`s and a `!` would hold the process for
 * hours. The service checks patterns with RE2 (linear time), and leaves unchecked a schema RE2
 * cannot read.
 */

/** Each tool answers `{ word }` and declares an output schema whose `word` must match `pattern`. */
const TOOLS = {
  nested_plus_short: { pattern: '^(a+)+$', word: `${'a'.repeat(27)}!` },
  nested_plus: { pattern: '^(a+)+$', word: `${'a'.repeat(40)}!` },
  lookahead: { pattern: '^(?=x)x$', word: 'y' },
  lowercase: { pattern: '^[a-z]+$', word: 'ABC' },
} as const;

/** A low-level MCP server (no schema checks of its own), stateless over streamable HTTP. */
async function startSchemaServer() {
  const build = () => {
    const server = new Server({ name: 'schemas', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: Object.entries(TOOLS).map(([name, tool]) => ({
        name,
        description: `Answers a word (${name})`,
        inputSchema: { type: 'object' as const, properties: {} },
        outputSchema: { type: 'object' as const, properties: { word: { type: 'string', pattern: tool.pattern } }, required: ['word'] },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const word = TOOLS[request.params.name as keyof typeof TOOLS]?.word ?? '';
      return { content: [{ type: 'text', text: word }], structuredContent: { word } };
    });
    return server;
  };
  return startLowLevelMcpServer(build);
}

let hub: McpHub;
let schemas: Awaited<ReturnType<typeof startSchemaServer>>;

beforeAll(async () => {
  schemas = await startSchemaServer();
  hub = new McpHub({ allowPrivateUrls: true, stdioServers: {}, timeoutMs: 5_000, logger: new RecordingLogger() });
});
afterAll(async () => {
  await hub.closeAll();
  await schemas.stop();
});

describe("a tool server's output schemas", () => {
  it('are checked with RE2: a backtracking pattern answers at once, a pattern RE2 cannot read is left unchecked, others still hold', async () => {
    const spec = { transport: 'http' as const, url: schemas.url };
    // Listing the tools over a session is what makes the client check their results on it.
    expect((await hub.listTools('conn_schemas', spec)).tools.map((tool) => tool.name)).toEqual(Object.keys(TOOLS));

    // RegExp takes seconds on this one (2^27 ways to split the a's): with backtracking the test
    // fails here instead of hanging on the next.
    const short = performance.now();
    expect(await hub.callTool('conn_schemas', spec, 'nested_plus_short', {})).toMatchObject({ isError: true });
    expect(performance.now() - short).toBeLessThan(1_000);
    // RegExp never returns on this one (2^40 ways to split the a's); RE2 takes milliseconds. The
    // bound leaves room for a busy CI machine, not for backtracking.
    const started = performance.now();
    const nested = await hub.callTool('conn_schemas', spec, 'nested_plus', {});
    expect(performance.now() - started).toBeLessThan(3_000);
    // `a…a!` does not match `^(a+)+$`: refused, as `ABC` is by `^[a-z]+$`.
    expect(nested).toEqual({ isError: true, text: expect.stringMatching(/does not match the tool's output schema/) });
    expect(await hub.callTool('conn_schemas', spec, 'lowercase', {})).toEqual({
      isError: true,
      text: expect.stringMatching(/does not match the tool's output schema/),
    });
    // The lookahead RE2 cannot read: not checked, so the result goes to the model as it is.
    expect(await hub.callTool('conn_schemas', spec, 'lookahead', {})).toEqual({ isError: false, text: 'y' });
  });
});
