import type { ToolCallOutcome } from '../connections/index.js';
import {
  ModelError,
  NO_USAGE,
  addUsage,
  type ContentBlock,
  type ModelClient,
  type ModelMessage,
  type ModelResponse,
  type TokenUsage,
  type ToolSpec,
} from '../models/index.js';
import { AnswerDeltas, type AgentListener, type ToolCallRecord } from './events.js';
import { LoadedTools, runCall } from './loop-tools.js';

/** A tool the loop may offer: its spec for the model and how to run it. */
export interface LoopTool {
  spec: ToolSpec;
  /** Display name of the connection that serves it (for `connections_hit`); none for built-in tools. */
  connectionName?: string;
  /** A person must approve each call first (the workspace's `approval` setting): the loop pauses. */
  needsApproval?: boolean;
  /**
   * Runs a call; `limits.timeoutMs` is what is left of the query's tool budget (the call may not
   * wait longer). `references`: deferred tools the result makes callable (the tool search).
   */
  run(input: Record<string, unknown>, limits?: { timeoutMs?: number }): Promise<ToolCallOutcome & { references?: string[] }>;
}

export interface LoopInput {
  client: ModelClient;
  model: string;
  system: string;
  tools: LoopTool[];
  messages: ModelMessage[];
  maxToolRounds: number;
  maxTokens: number;
  /** Tokens (input and output, all calls) the query may spend; it stops once they are spent. */
  tokenBudget?: number;
  /**
   * How long the query may wait on its tools in all (the workspace's `tool_budget_seconds`): each
   * call waits at most what is left, and once it is spent the query ends with an error saying so.
   */
  toolBudgetMs?: number;
  /** Told of each piece of answer text and each tool call as they happen (the streaming query). */
  onEvent?: AgentListener;
  /** How long the prompt cache keeps the tools and system prompt (`ModelRequest.prefixCacheTtl`). */
  prefixCacheTtl?: '5m' | '1h';
  beforeModelCall?: BeforeModelCall;
  /**
   * The person stopped the answer (the streaming client went away): the model call is aborted,
   * tool calls not yet started do not start, and the run ends `stopped` with what was answered.
   */
  signal?: AbortSignal;
}

/** Asked before each model call with a bound on its prompt (`promptBytesOf`), its cache lifetime and what the run has used so far: why the call is not made (a budget without room for it), or nothing. */
export type BeforeModelCall = (round: {
  promptBytes: number;
  maxTokens: number;
  usage: TokenUsage;
  prefixCacheTtl?: '5m' | '1h';
}) => Promise<string | undefined>;

/** UTF-8 bytes of what the model reads of a request (system prompt, the tool definitions it reads, messages): a bound on its input tokens, a token being at least a byte. */
export function promptBytesOf(system: string, tools: ToolSpec[], messages: ModelMessage[]): number {
  return Buffer.byteLength(system) + Buffer.byteLength(JSON.stringify(tools)) + Buffer.byteLength(JSON.stringify(messages));
}

export type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;

/** What the loop has done so far: carried across a pause. */
export interface LoopProgress {
  answerParts: string[];
  toolsCalled: string[];
  connectionsHit: string[];
  usage: TokenUsage;
  modelMs: number;
  toolMs: number;
  rounds: number;
  /** Deferred tools a tool search has made callable, in the order found (absent: none, or stored before tool search). */
  loadedTools?: string[];
  /** The calls' arguments and results as people are shown them, at most MAX_KEPT_CALLS (absent: stored before they were kept). */
  calls?: ToolCallRecord[];
}

/**
 * A loop paused on a call that needs approval: the conversation up to the turn that asked for it,
 * that turn, the results of its calls that ran, and the calls still waiting (the first is the one
 * asked about now). Plain data: it is stored until someone decides.
 */
export interface LoopCheckpoint {
  messages: ModelMessage[];
  turn: ContentBlock[];
  results: ContentBlock[];
  waiting: ToolUse[];
  progress: LoopProgress;
}

export interface LoopResult {
  answer: string;
  toolsCalled: string[];
  connectionsHit: string[];
  usage: TokenUsage;
  modelMs: number;
  toolMs: number;
  rounds: number;
  calls?: ToolCallRecord[];
  error: string | null;
  /** Set when the loop paused for an approval. */
  paused?: LoopCheckpoint;
  /** Set when the person stopped the answer (`LoopInput.signal`): `answer` is what had arrived. */
  stopped?: true;
}

function textOf(content: ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

const NO_PROGRESS: LoopProgress = {
  answerParts: [],
  toolsCalled: [],
  connectionsHit: [],
  usage: NO_USAGE,
  modelMs: 0,
  toolMs: 0,
  rounds: 0,
  calls: [],
};

/** A loop's result from its progress: also a paused loop that cannot go on, ended with `error`. */
export function resultOf(progress: LoopProgress, error: string | null, paused?: LoopCheckpoint): LoopResult {
  const { answerParts, ...rest } = progress;
  return { ...rest, answer: answerParts.join('\n\n').trim(), error, ...(paused ? { paused } : {}) };
}

/**
 * The agent loop: ask the model; while it asks for tools, run that turn's calls concurrently and
 * send back their results (a failed call goes back as an error result, for the model to handle);
 * stop at a text answer. A model that keeps calling tools is stopped after `maxToolRounds` rounds.
 * A call that needs approval pauses the loop once the turn's other calls have run (`paused`);
 * `resumeAgentLoop` goes on from there. `start` continues from a resumed state.
 */
export async function runAgentLoop(input: LoopInput, start?: { messages: ModelMessage[]; progress: LoopProgress }): Promise<LoopResult> {
  const messages = [...(start?.messages ?? input.messages)];
  const progress: LoopProgress = structuredClone(start?.progress ?? NO_PROGRESS);
  const tools = new LoadedTools(input.tools, input.client.defersTools, progress);
  const emit = input.onEvent ?? (() => undefined);
  const deltas = input.onEvent ? new AnswerDeltas((delta) => emit({ type: 'text', delta }), progress.answerParts.length > 0) : undefined;
  const keepText = (content: ContentBlock[]) => {
    const text = textOf(content).trim();
    if (text) progress.answerParts.push(text);
  };

  for (;;) {
    const request = {
      model: input.model,
      system: input.system,
      tools: tools.specs(),
      messages,
      maxTokens: input.maxTokens,
      prefixCacheTtl: input.prefixCacheTtl,
    };
    const promptBytes = input.beforeModelCall && promptBytesOf(input.system, tools.read(), messages);
    const { maxTokens, prefixCacheTtl } = input;
    const stop = promptBytes && (await input.beforeModelCall?.({ promptBytes, maxTokens, usage: progress.usage, prefixCacheTtl }));
    if (stop) return resultOf(progress, stop);
    if (input.signal?.aborted) return stoppedBy(progress);
    const started = performance.now();
    let response: ModelResponse;
    deltas?.nextTurn();
    try {
      response = await input.client.createMessage(request, deltas && ((delta) => deltas.push(delta)), input.signal);
    } catch (error) {
      progress.modelMs += performance.now() - started;
      if (!(error instanceof ModelError)) throw error;
      // A stream that broke mid-answer, or was stopped: keep what arrived, and count what it used.
      if (error.partial) {
        progress.usage = addUsage(progress.usage, error.partial.usage);
        keepText(error.partial.content);
      }
      return input.signal?.aborted ? stoppedBy(progress) : resultOf(progress, error.message);
    }
    progress.modelMs += performance.now() - started;
    progress.usage = addUsage(progress.usage, response.usage);
    keepText(response.content);
    const calls = response.content.filter((block): block is ToolUse => block.type === 'tool_use');
    if (calls.length === 0 || response.stopReason !== 'tool_use') return resultOf(progress, null);
    // Stopped while the model asked for tools: none of them starts.
    if (input.signal?.aborted) return stoppedBy(progress);
    // A model that keeps calling tools forever is a bug: stop at max_tool_rounds.
    if (progress.rounds >= input.maxToolRounds) return resultOf(progress, `max tool rounds reached (${input.maxToolRounds})`);
    const { usage } = progress;
    const spent = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    if (input.tokenBudget !== undefined && spent >= input.tokenBudget)
      return resultOf(progress, `token budget reached (${input.tokenBudget})`);
    const toolTimeLeft = input.toolBudgetMs === undefined ? undefined : input.toolBudgetMs - progress.toolMs;
    if (toolTimeLeft !== undefined && toolTimeLeft <= 0) return resultOf(progress, toolBudgetSpent(input.toolBudgetMs ?? 0));

    progress.rounds += 1;
    const waiting = calls.filter((call) => tools.callable(call.name)?.needsApproval);
    const toolsStarted = performance.now();
    const limits = toolTimeLeft === undefined ? {} : { timeoutMs: Math.ceil(toolTimeLeft) };
    const ran = await Promise.all(
      calls.filter((call) => !waiting.includes(call)).map((call) => runCall(call, tools.callable(call.name), progress, emit, limits)),
    );
    const outcomes = tools.load(ran);
    progress.toolMs += performance.now() - toolsStarted;
    if (waiting.length) {
      return resultOf(progress, null, {
        messages,
        turn: response.content,
        results: outcomes,
        waiting,
        progress: structuredClone(progress),
      });
    }
    messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: outcomes });
  }
}

/** The result of a run the person stopped: what was answered, no error. */
const stoppedBy = (progress: LoopProgress): LoopResult => ({ ...resultOf(progress, null), stopped: true });

/** The error of a query whose tools used up its time. */
const toolBudgetSpent = (budgetMs: number) =>
  `tool budget reached: the query waited on its tools for ${Math.round(budgetMs / 1000)} seconds in all (tool_budget_seconds)`;

/**
 * Goes on from a checkpoint once the first waiting call is decided: `decided` is its result (the
 * tool's, when approved and run; an error result saying why not, otherwise). Pauses again on the
 * next waiting call of the same turn, else sends the turn's results to the model and loops on.
 */
export async function resumeAgentLoop(input: LoopInput, checkpoint: LoopCheckpoint, decided: ContentBlock): Promise<LoopResult> {
  const results = [...checkpoint.results, decided];
  const [, ...stillWaiting] = checkpoint.waiting;
  if (stillWaiting.length) {
    return resultOf(checkpoint.progress, null, { ...checkpoint, results, waiting: stillWaiting });
  }
  const order = checkpoint.turn.filter((block): block is ToolUse => block.type === 'tool_use').map((block) => block.id);
  const ordered = [...results].sort(
    (a, b) => order.indexOf(a.type === 'tool_result' ? a.toolUseId : '') - order.indexOf(b.type === 'tool_result' ? b.toolUseId : ''),
  );
  const messages: ModelMessage[] = [
    ...checkpoint.messages,
    { role: 'assistant', content: checkpoint.turn },
    { role: 'user', content: ordered },
  ];
  return runAgentLoop(input, { messages, progress: checkpoint.progress });
}
