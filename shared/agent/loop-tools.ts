import type { Attributes } from '@opentelemetry/api';
import type { ToolCallOutcome } from '../connections/index.js';
import type { ContentBlock, ToolSpec } from '../models/index.js';
import { ATTR, contentAttributes, failSpan, inSpan } from '../platform/tracing.js';
import { toolText, type AgentListener, type ToolCallRecord } from './events.js';
import type { LoopProgress, LoopTool, ToolUse } from './loop.js';

/*
 * The loop's tools (loop.ts): one call of a turn as it runs, and the tools the model gets each
 * turn with the tool search's deferred ones.
 */

/** The calls an answer keeps with their arguments and results: enough to follow it, and a bounded item (each text is cut to TOOL_TEXT_CHARS). */
const MAX_KEPT_CALLS = 25;

/** The GenAI conventions' attributes of a tool call; its arguments only when content is captured. */
function toolSpanAttributes(call: ToolUse): Attributes {
  return {
    [ATTR.operation]: 'execute_tool',
    [ATTR.toolName]: call.name,
    [ATTR.toolCallId]: call.id,
    [ATTR.toolType]: 'function',
    ...contentAttributes(() => ({ [ATTR.toolArguments]: JSON.stringify(call.input) })),
  };
}

/** One tool call of a turn, told to the listener as it starts and ends; its result goes back to the model. */
export async function runCall(
  call: ToolUse,
  tool: LoopTool | undefined,
  state: { toolsCalled: string[]; connectionsHit: string[]; calls?: ToolCallRecord[] },
  emit: AgentListener,
  limits: { timeoutMs?: number } = {},
): Promise<ContentBlock> {
  state.toolsCalled.push(call.name);
  const started = performance.now();
  const connection = tool?.connectionName ?? null;
  const shownArguments = toolText(JSON.stringify(call.input ?? {}));
  emit({ type: 'tool_call', id: call.id, name: call.name, connection, arguments: shownArguments });
  if (tool?.connectionName && !state.connectionsHit.includes(tool.connectionName)) state.connectionsHit.push(tool.connectionName);
  const outcome = await inSpan(`execute_tool ${call.name}`, { attributes: () => toolSpanAttributes(call) }, async (span) => {
    const ran: ToolCallOutcome & { references?: string[] } = tool
      ? await tool.run(call.input, limits)
      : { text: `unknown tool: ${call.name}`, isError: true };
    span.setAttributes(contentAttributes(() => ({ [ATTR.toolResult]: ran.text })));
    if (ran.isError) failSpan(span, 'tool_error', ran.text);
    return ran;
  });
  const ended = {
    id: call.id,
    name: call.name,
    is_error: outcome.isError,
    duration_ms: Math.round(performance.now() - started),
    result: toolText(outcome.text),
  };
  emit({ type: 'tool_result', ...ended, ...(outcome.references ? { found: outcome.references } : {}) });
  state.calls ??= [];
  if (state.calls.length < MAX_KEPT_CALLS) state.calls.push({ ...ended, connection, arguments: shownArguments });
  const references = outcome.references?.length ? { references: outcome.references } : {};
  return { type: 'tool_result', toolUseId: call.id, content: outcome.text || '(no output)', isError: outcome.isError, ...references };
}

/**
 * The tools of a loop as the model gets them, with the tool search's deferred ones
 * (docs/agent-loop.md, "Tool search"): a deferred tool is callable once a search has found it.
 * Where the provider defers definitions, every tool is sent every turn (the same bytes, so the
 * prompt cache holds) and a search's result references what it found; elsewhere a found tool is
 * added to the tools sent, and the references are not sent.
 */
export class LoadedTools {
  private readonly byName: Map<string, LoopTool>;
  private readonly loaded: Set<string>;

  constructor(
    private readonly tools: LoopTool[],
    private readonly defers: boolean,
    private readonly progress: LoopProgress,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
    this.loaded = new Set(progress.loadedTools ?? []);
  }

  /** The definitions the model reads this turn: those not deferred, and the deferred ones found. */
  read(): ToolSpec[] {
    return this.tools.filter((tool) => !tool.spec.deferred || this.loaded.has(tool.spec.name)).map((tool) => tool.spec);
  }

  /** The definitions sent this turn. */
  specs(): ToolSpec[] {
    if (this.defers) return this.tools.map((tool) => tool.spec);
    return this.tools
      .filter((tool) => !tool.spec.deferred || this.loaded.has(tool.spec.name))
      .map(({ spec: { deferred: _deferred, ...spec } }) => spec);
  }

  /** The tool a call names, if the model may call it now: a deferred one not yet found is unknown. */
  callable(name: string): LoopTool | undefined {
    const tool = this.byName.get(name);
    return tool && (!tool.spec.deferred || this.loaded.has(name)) ? tool : undefined;
  }

  /** Takes in the tools a turn's results found; answers the results as the provider takes them. */
  load(results: ContentBlock[]): ContentBlock[] {
    for (const result of results) {
      if (result.type !== 'tool_result') continue;
      for (const name of result.references ?? []) {
        if (this.byName.get(name)?.spec.deferred && !this.loaded.has(name)) this.loaded.add(name);
      }
    }
    if (this.loaded.size) this.progress.loadedTools = [...this.loaded];
    if (this.defers) return results;
    return results.map((result) => {
      if (result.type !== 'tool_result' || !result.references) return result;
      const { references: _references, ...rest } = result;
      return rest;
    });
  }
}
