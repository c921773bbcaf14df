import { describe, expect, it } from 'vitest';
import { resumeAgentLoop, runAgentLoop, type LoopTool } from '../../shared/agent/loop.js';
import type { ContentBlock, ModelClient, ModelRequest, ModelResponse } from '../../shared/models/model.js';

/*
 * The loop's side of the tool search for a provider that does not defer tool definitions (Bedrock):
 * a tool a search found is added to the tools sent, from the next turn on, and the result goes
 * without references; a deferred tool not found is unknown. And for one that does: the same
 * definitions every turn, the references sent.
 */

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };

/** A model client that answers from a script and keeps every request (a copy: the loop reuses its arrays). */
function scripted(defersTools: boolean, turns: ContentBlock[][]) {
  const requests: ModelRequest[] = [];
  const client: ModelClient = {
    defersTools,
    modelFor: () => 'scripted',
    async createMessage(request: ModelRequest): Promise<ModelResponse> {
      requests.push(structuredClone(request));
      const content = turns.shift() ?? [{ type: 'text', text: 'done' }];
      return { content, stopReason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn', usage };
    },
  };
  return { client, requests };
}

const ran: string[] = [];
function tool(name: string, options: { deferred?: boolean; needsApproval?: boolean } = {}): LoopTool {
  return {
    spec: { name, description: `${name} tool`, inputSchema: { type: 'object' }, ...(options.deferred ? { deferred: true } : {}) },
    connectionName: 'helpdesk',
    needsApproval: options.needsApproval,
    run: async () => {
      ran.push(name);
      return { text: `${name} ran`, isError: false };
    },
  };
}
const searchTools: LoopTool = {
  spec: { name: 'search_tools', description: 'find tools', inputSchema: { type: 'object' } },
  run: async (input) => ({
    text: `refund_order: Refund an order (for ${String(input.query)})`,
    isError: false,
    references: ['refund_order'],
  }),
};
const use = (id: string, name: string): ContentBlock => ({ type: 'tool_use', id, name, input: { query: 'refund' } });
const tools = () => [
  searchTools,
  tool('search_docs'),
  tool('refund_order', { deferred: true, needsApproval: false }),
  tool('close_account', { deferred: true }),
];
const base = (client: ModelClient, loopTools: LoopTool[]) => ({
  client,
  model: 'scripted',
  system: 'sys',
  tools: loopTools,
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'refund my order' }] }],
  maxToolRounds: 10,
  maxTokens: 100,
});
const namesOf = (request: ModelRequest | undefined) => request?.tools.map((spec) => spec.name);
const lastResults = (request: ModelRequest | undefined) => request?.messages.at(-1)?.content ?? [];

describe('tool search without deferred loading (Bedrock)', () => {
  it('sends the tools a search found from the next turn on, as ordinary tools, and refuses the ones it did not find', async () => {
    ran.length = 0;
    const { client, requests } = scripted(false, [[use('t1', 'close_account')], [use('t2', 'search_tools')], [use('t3', 'refund_order')]]);
    const result = await runAgentLoop(base(client, tools()));
    expect(result.error).toBeNull();
    expect(namesOf(requests[0])).toEqual(['search_tools', 'search_docs']);
    expect(lastResults(requests[1])).toEqual([
      { type: 'tool_result', toolUseId: 't1', content: 'unknown tool: close_account', isError: true },
    ]);
    // The search's result goes without references; its match is an ordinary tool from the next turn.
    expect(lastResults(requests[2])).toEqual([
      { type: 'tool_result', toolUseId: 't2', content: 'refund_order: Refund an order (for refund)', isError: false },
    ]);
    expect(namesOf(requests[2])).toEqual(['search_tools', 'search_docs', 'refund_order']);
    expect(requests[2]?.tools.every((spec) => spec.deferred === undefined)).toBe(true);
    expect(ran).toEqual(['refund_order']);
    expect(result.toolsCalled).toEqual(['close_account', 'search_tools', 'refund_order']);
  });

  it('carries the tools found across an approval pause', async () => {
    ran.length = 0;
    const approved = [searchTools, tool('refund_order', { deferred: true, needsApproval: true })];
    const { client, requests } = scripted(false, [[use('t1', 'search_tools')], [use('t2', 'refund_order')]]);
    const paused = await runAgentLoop(base(client, approved));
    expect(paused.paused?.waiting.map((call) => call.name)).toEqual(['refund_order']);
    expect(paused.paused?.progress.loadedTools).toEqual(['refund_order']);
    // Stored as JSON while it waits, then resumed with the approved call's result.
    const checkpoint = JSON.parse(JSON.stringify(paused.paused));
    const decided: ContentBlock = { type: 'tool_result', toolUseId: 't2', content: 'refund_order ran', isError: false };
    const resumed = await resumeAgentLoop(base(client, approved), checkpoint, decided);
    expect(resumed.error).toBeNull();
    expect(namesOf(requests.at(-1))).toEqual(['search_tools', 'refund_order']);
  });
});

describe('tool search with deferred loading (Anthropic)', () => {
  it('sends every definition each turn, deferred ones flagged, and the references of the search', async () => {
    ran.length = 0;
    const { client, requests } = scripted(true, [[use('t1', 'search_tools')], [use('t2', 'refund_order')]]);
    await runAgentLoop(base(client, tools()));
    const first = JSON.stringify(requests[0]?.tools);
    expect(requests[0]?.tools.filter((spec) => spec.deferred).map((spec) => spec.name)).toEqual(['refund_order', 'close_account']);
    expect(JSON.stringify(requests[1]?.tools)).toBe(first);
    expect(JSON.stringify(requests[2]?.tools)).toBe(first);
    expect(lastResults(requests[1])).toEqual([
      {
        type: 'tool_result',
        toolUseId: 't1',
        content: 'refund_order: Refund an order (for refund)',
        isError: false,
        references: ['refund_order'],
      },
    ]);
    expect(ran).toEqual(['refund_order']);
  });
});
