import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startLocalRuntime } from '../bin/local-runtime.js';
import { estimateOf, reserveBudgets } from '../shared/budgets/admission.js';
import type { StoredBudget } from '../shared/budgets/store.js';
import { modelTier } from '../shared/models/catalogue.js';
import { parseConfig } from '../shared/platform/config.js';
import { promptChars, startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startLowLevelMcpServer } from '../test/support/mcp-servers.js';
import { signUpOver } from '../test/support/signup.js';
import { apiOf, benchEnv, percentile, QUIET_LOGGER, type Row } from './report.js';

/**
 * Cost: the prompt cache over a conversation, and budgets under parallel load.
 *
 * `cache`: the local runtime against the fake Messages API in its prompt-cache mode (prefix hashes
 * at the breakpoints, 20-block look-back, 1 024-token minimum, 5-minute and 1-hour lifetimes:
 * test/support/fake-prompt-cache.ts); a workspace with a system prompt of about 2 000 tokens and
 * 40 tools (the first 40 of the benchmark's catalogue, one MCP server on loopback); one
 * conversation of 6 turns, each one tool call then the answer. From the service's own answers:
 * the share of input tokens read from the cache on turns 2–6, and the conversation's cost against
 * the same tokens all priced as uncached input.
 *
 * `budgets`: after cheap questions, 100 at once that each cost about 100 times the workspace's
 * average, against an organisation budget of $0.50 (half of what they would cost together): how
 * many were answered and what the budget spent (goal: no overshoot, as each model round holds a
 * bound on its cost first); and the admission step alone (reserving in two budgets) timed on the
 * embedded store.
 */

interface Catalogue {
  servers: { name: string; tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }[];
}

const TURNS = 6;
/** About 2 000 tokens at 3.5 characters a token: a team's system prompt, as written, stable across queries. */
const SYSTEM_PROMPT = Array.from(
  { length: 70 },
  (_, index) =>
    `Rule ${index + 1}: answer customers of Parcelways politely, cite the order number, check the carrier's status before promising a date, and never share another customer's data.`,
).join('\n');

async function catalogueServer(count: number) {
  const catalogue = JSON.parse(readFileSync('bench/data/tool-catalogue.json', 'utf8')) as Catalogue;
  const tools = catalogue.servers.flatMap((server) => server.tools).slice(0, count);
  return startLowLevelMcpServer(() => {
    const server = new Server({ name: 'catalogue', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const, ...tool.inputSchema } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `${request.params.name}: the order shipped on Monday with tracking number PW-${Date.now()}` }],
    }));
    return server;
  });
}

/** Whether the request answers a tool result (the second call of a turn). */
const answeringTool = (request: ModelRequestRecord) => {
  const last = request.body.messages.at(-1);
  return Array.isArray(last?.content) && (last.content as { type: string }[]).some((block) => block.type === 'tool_result');
};

type Tokens = { input: number; output: number; cache_read: number; cache_write: number };

export async function benchCache(): Promise<Row[]> {
  const model = await startFakeModel({ promptCache: true });
  const server = await catalogueServer(40);
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'cache@example.com');
    const { call } = apiOf(runtime.url, cookie);
    const workspace = String((await call('POST', '/api/workspaces', { name: 'Parcelways support', system_prompt: SYSTEM_PROMPT })).id);
    // Every tool sent (40 is past the search threshold): the classic path, where the tools are most of the prefix.
    await call('PUT', `/api/workspaces/${workspace}`, { tool_search: { mode: 'off' } });
    await call('POST', '/api/connectors/mcp', { workspace_id: workspace, name: 'catalogue', transport: 'http', url: server.url });
    const firstTool = () => model.requests.at(-1)?.body.tools?.[3]?.name ?? 'unknown';
    model.handle((request) =>
      answeringTool(request)
        ? textReply('Your order shipped on Monday; it arrives on Thursday.', { output_tokens: 40 })
        : toolUseReply([{ name: firstTool(), input: {} }], { output_tokens: 30 }),
    );
    const turns: { tokens: Tokens; cost: number }[] = [];
    let sessionId: string | undefined;
    for (let turn = 0; turn < TURNS; turn += 1) {
      const answer = await call('POST', `/api/workspaces/${workspace}/query`, {
        query: `Turn ${turn + 1}: where is order 10${turn}?`,
        ...(sessionId ? { session_id: sessionId } : {}),
      });
      sessionId = String(answer.session_id);
      turns.push({ tokens: answer.tokens as Tokens, cost: Number(answer.cost_usd) });
    }
    const tier = modelTier('balanced');
    if (!tier) throw new Error('no balanced tier');
    const sum = (list: typeof turns, field: keyof Tokens) => list.reduce((total, turn) => total + turn.tokens[field], 0);
    const later = turns.slice(1);
    const allInput = (list: typeof turns) => sum(list, 'input') + sum(list, 'cache_read') + sum(list, 'cache_write');
    const readShare = sum(later, 'cache_read') / allInput(later);
    const cost = turns.reduce((total, turn) => total + turn.cost, 0);
    const uncached = (allInput(turns) * tier.inputCostPerMtok + sum(turns, 'output') * tier.outputCostPerMtok) / 1e6;
    const setup = `system prompt ~2 000 tokens, 40 tools, ${TURNS} turns of one tool call each (${TURNS * 2} model calls), balanced tier`;
    return [
      ...turns.map((turn, index) => ({
        turn: index + 1,
        setup: index === 0 ? setup : '',
        input: turn.tokens.input,
        cache_read: turn.tokens.cache_read,
        cache_write: turn.tokens.cache_write,
        read_share: Math.round((turn.tokens.cache_read / allInput([turn])) * 1000) / 1000,
        cost_usd: turn.cost.toFixed(4),
      })),
      {
        turn: 'turns 2–6',
        setup: `read share ${Math.round(readShare * 1000) / 10}% (goal >= 85%)`,
        input: sum(later, 'input'),
        cache_read: sum(later, 'cache_read'),
        cache_write: sum(later, 'cache_write'),
        read_share: Math.round(readShare * 1000) / 1000,
        cost_usd: '',
      },
      {
        turn: 'conversation',
        setup: `$${cost.toFixed(4)} cached against $${uncached.toFixed(4)} uncached: ${Math.round((cost / uncached) * 1000) / 10}% (goal <= 40%)`,
        input: sum(turns, 'input'),
        cache_read: sum(turns, 'cache_read'),
        cache_write: sum(turns, 'cache_write'),
        read_share: '',
        cost_usd: cost.toFixed(4),
      },
    ];
  } finally {
    await runtime.stop();
    await server.stop();
    await model.stop();
  }
}

export async function benchBudgets(): Promise<Row[]> {
  const model = await startFakeModel();
  // Cheap questions first: the workspace's average is about $0.0001 a question.
  model.handle(() => textReply('an answer', { input_tokens: 10, output_tokens: 5 }));
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'budgets@example.com');
    const { send: call } = apiOf(runtime.url, cookie);
    const workspace = String((await call('POST', '/api/workspaces', { name: 'Budgeted' })).body.id);
    const ask = (query: string) => call('POST', `/api/workspaces/${workspace}/query`, { query });
    for (let index = 0; index < 5; index += 1) await ask('How much?');
    const average = Number((await ask('How much?')).body.cost_usd);
    const limit = 0.5;
    await call('POST', '/api/org/budgets', { scope: 'org', period: 'month', limit_usd: limit });
    // Then 100 at once, each about 100 times the average: a long question (its input tokens counted
    // from the request, 3.5 characters a token) and a long answer.
    model.handle((request) => textReply('an answer', { input_tokens: Math.ceil(promptChars(request.body) / 3.5), output_tokens: 575 }));
    const question = 'Summarise the incident report and list what failed, please. '.repeat(34);
    const answers = await Promise.all(Array.from({ length: 100 }, () => ask(question)));
    const answered = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402).length;
    const each = answered.length ? Number(answered[0]?.body.cost_usd) : 0;
    const budget = ((await call('GET', '/api/org/budgets')).body.budgets as { spent_usd: number }[])[0];
    const spent = budget?.spent_usd ?? 0;

    // The admission step alone: two covering budgets, reserve (what runs before the model) then settle.
    const { deps } = runtime;
    const now = new Date();
    const budgets: StoredBudget[] = (['org', 'workspace'] as const).map((scope, index) => ({
      id: `bud_bench_${index}`,
      scope,
      scope_id: scope === 'org' ? null : workspace,
      name: scope,
      period: 'day',
      limit_usd: 1_000_000,
      alert_percent: [],
      created_at: now.toISOString(),
    }));
    const estimate = estimateOf({}, now);
    const samples: number[] = [];
    for (let index = 0; index < 300; index += 1) {
      const started = performance.now();
      const hold = await reserveBudgets(deps, 'org_bench', budgets, estimate, now);
      samples.push(performance.now() - started);
      await hold.settle(estimate);
    }
    return [
      {
        case: `100 parallel queries of $${each} each (${Math.round(each / average)}× the average of $${average}), org budget $${limit}`,
        answered: answered.length,
        refused_402: refused,
        spent_usd: spent,
        overshoot_usd: Math.max(0, Math.round((spent - limit) * 1e6) / 1e6),
        p50_ms: '',
        p99_ms: '',
      },
      {
        case: 'admission: reserve in 2 budgets (embedded store on loopback), 300 times',
        answered: '',
        refused_402: '',
        spent_usd: '',
        overshoot_usd: '',
        p50_ms: Math.round(percentile(samples, 50) * 100) / 100,
        p99_ms: Math.round(percentile(samples, 99) * 100) / 100,
      },
    ];
  } finally {
    await runtime.stop();
    await model.stop();
  }
}
