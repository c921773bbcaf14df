import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { promptChars, startFakeModel, textReply, toolUseReply, visibleTools, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startLowLevelMcpServer } from '../test/support/mcp-servers.js';
import { signUpOver } from '../test/support/signup.js';
import { apiOf, benchEnv, QUIET_LOGGER, type Row } from './report.js';

/**
 * The tool search in the agent loop, on the benchmark's catalogue (bench/data): a workspace with
 * the 25 recorded MCP servers connected (858 tools, each server a real MCP server on loopback
 * listing its recorded tools), the local runtime, and the fake Messages API, which loads deferred
 * tools as Anthropic's does. For each labelled question the model searches with the question as
 * its query, then calls the tool it found first. Measured from the requests the model received:
 * what the model reads on its first call (tokens at about 3.5 characters each) with every tool
 * sent and with search; what it reads after the search; whether the labelled tool was among the
 * tools found; and whether the tool definitions were the same bytes on every call.
 */

interface Catalogue {
  servers: { name: string; tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }[];
}
interface Questions {
  questions: { question: string; server: string; tool: string }[];
}

const QUESTIONS = 60;
const tokensOf = (chars: number) => Math.round(chars / 3.5);

async function startCatalogueServers(catalogue: Catalogue) {
  return Promise.all(
    catalogue.servers.map(async (recorded) => ({
      name: recorded.name,
      server: await startLowLevelMcpServer(() => {
        const server = new Server({ name: recorded.name, version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({
          tools: recorded.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const, ...tool.inputSchema } })),
        }));
        server.setRequestHandler(CallToolRequestSchema, async (request) => ({
          content: [{ type: 'text', text: `${request.params.name}: done` }],
        }));
        return server;
      }),
    })),
  );
}

/** The tool names a `search_tools` result referenced (its `tool_reference` blocks), in order. */
function referencedIn(request: ModelRequestRecord | undefined): string[] {
  const last = request?.body.messages.at(-1)?.content as { type: string; content?: { type: string; tool_name?: string }[] }[] | undefined;
  const result = last?.find((block) => block.type === 'tool_result');
  return (Array.isArray(result?.content) ? result.content : [])
    .filter((block) => block.type === 'tool_reference')
    .map((block) => String(block.tool_name));
}

export async function benchToolSearchLoop(): Promise<Row[]> {
  const catalogue = JSON.parse(readFileSync('bench/data/tool-catalogue.json', 'utf8')) as Catalogue;
  const { questions } = JSON.parse(readFileSync('bench/data/tool-questions.json', 'utf8')) as Questions;
  const model = await startFakeModel();
  const servers = await startCatalogueServers(catalogue);
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'tools-loop@example.com');
    const { call } = apiOf(runtime.url, cookie);
    const workspace = String((await call('POST', '/api/workspaces', { name: 'Every tool' })).id);
    for (const { name, server } of servers) {
      await call('POST', '/api/connectors/mcp', { workspace_id: workspace, name, transport: 'http', url: server.url });
    }
    const ask = (query: string) => call('POST', `/api/workspaces/${workspace}/query`, { query });

    // Every tool sent: what the model reads on its first call.
    await call('PUT', `/api/workspaces/${workspace}`, { tool_search: { mode: 'off' } });
    model.reset();
    await ask(questions[0]?.question ?? 'hello');
    const everything = model.requests[0];
    const everyTool = everything ? promptChars(everything.body) : 0;

    // Search (the default: auto, past 30 tools): each question searched, then its first match called.
    await call('PUT', `/api/workspaces/${workspace}`, { tool_search: { mode: 'auto' } });
    let found = 0;
    let firstChars = 0;
    let afterChars = 0;
    let identical = true;
    const sample = questions.slice(0, QUESTIONS);
    for (const { question, tool } of sample) {
      model.reset();
      model.reply(
        toolUseReply([{ name: 'search_tools', input: { query: question } }]),
        (request) => {
          const first = referencedIn(request)[0];
          return first ? toolUseReply([{ name: first, input: {} }]) : textReply('nothing found');
        },
        textReply('done'),
      );
      await ask(question);
      const [first, second] = model.requests;
      if (!first || !second) throw new Error('the model was not called twice');
      firstChars += promptChars(first.body);
      afterChars += promptChars(second.body);
      // A match is the labelled tool under its offered name (prefixed where two servers share it).
      if (referencedIn(second).some((name) => name === tool || name.endsWith(`__${tool}`))) found += 1;
      const bytes = JSON.stringify(first.body.tools);
      identical &&= model.requests.every((request) => JSON.stringify(request.body.tools) === bytes);
      if (visibleTools(first.body).length !== 1) throw new Error('the first call read more than search_tools');
    }
    const setup = `${catalogue.servers.length} MCP servers, ${everything?.body.tools?.length ?? 0} tools; ${sample.length} questions`;
    return [
      {
        path: 'every tool sent (tool_search off)',
        setup,
        first_call_tokens: tokensOf(everyTool),
        after_search_tokens: '',
        recall_at_5: '',
        same_bytes: '',
      },
      {
        path: 'search_tools (auto; Anthropic deferred loading)',
        setup,
        first_call_tokens: tokensOf(firstChars / sample.length),
        after_search_tokens: tokensOf(afterChars / sample.length),
        recall_at_5: Math.round((found / sample.length) * 1000) / 1000,
        same_bytes: identical ? 'yes, every call' : 'NO',
      },
    ];
  } finally {
    await runtime.stop();
    await Promise.all(servers.map(({ server }) => server.stop()));
    await model.stop();
  }
}
