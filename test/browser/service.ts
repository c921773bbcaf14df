import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import {
  errorReply,
  startFakeModel,
  textReply,
  toolUseReply,
  visibleTools,
  type FakeModel,
  type ModelRequestRecord,
} from '../support/fake-model.js';
import { FAST_SCRYPT } from '../support/context.js';
import { RecordingLogger } from '../support/logger.js';

/** What the fake model answers, and the switch that makes the statistics job fail (to have a failed job to retry). */
interface ModelScript {
  failStats: boolean;
  /** Answer with markup that would run a script if the console rendered it as HTML. */
  markup: boolean;
  /** After its tool call, answer with MARKDOWN (a list, a table, code, links) instead of ANSWER. */
  markdown: boolean;
}

export const STATS = {
  sentiment_score: 0.6,
  resolution_status: 'resolved',
  category: 'orders',
  summary: 'Asked where order 42 is; it has shipped.',
};
export const MARKUP = '<img src=x onerror="window.pwned=true"> <script>window.pwned=true</script>';
/** The code line of the Markdown answer: long enough to scroll inside its block on a phone. */
export const CODE_LINE = 'track-parcel --order 42 --carrier parcelways --format json --include-history --since 2026-12-01';
export const ANSWER = 'Order 42 has shipped with Parcelways and arrives within 2 days.';
/** An answer in Markdown: a list, a table, a fenced code block, a link, and a `javascript:` link that must not become one. */
const MARKDOWN = [
  'Order 42:',
  '',
  '- shipped with Parcelways',
  '- arrives within 2 days',
  '',
  '| Item | Qty |',
  '| --- | --- |',
  '| Teapot | 1 |',
  '',
  '```sh',
  CODE_LINE,
  '```',
  '',
  'See [the tracking page](https://parcels.example/track/42) or [run this](javascript:alert(1)).',
].join('\n');

/** Whether the model has called a tool whose name ends with `suffix` earlier in the request's conversation. */
function called(body: ModelRequestRecord['body'], suffix: string): boolean {
  return body.messages.some(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.content) &&
      (message.content as { type: string; name?: string }[]).some((block) => block.type === 'tool_use' && block.name?.endsWith(suffix)),
  );
}

/**
 * The model's side of a conversation: a question gets one call of the orders server's
 * `lookup_order` (found with `search_tools` first when the workspace searches its tools), the
 * tool's result gets the answer; the statistics job gets its statistics.
 */
function reply(script: ModelScript) {
  return (request: ModelRequestRecord) => {
    const body = request.body as ModelRequestRecord['body'] & { tool_choice?: unknown };
    if (body.tool_choice)
      return script.failStats ? errorReply(500, 'the model is down') : toolUseReply([{ name: 'record_conversation_stats', input: STATS }]);
    if (script.markup) return textReply(MARKUP);
    if (body.tools?.some((tool) => tool.name === 'search_tools') && !called(body, 'search_tools'))
      return toolUseReply([{ name: 'search_tools', input: { query: 'look up an order' } }], { input_tokens: 80, output_tokens: 12 });
    // Only a tool whose definition the model reads: a deferred one once a search has found it.
    const visible = visibleTools(body);
    const lookup = body.tools?.find((tool) => tool.name.endsWith('lookup_order') && visible.includes(tool.name));
    if (lookup && !called(body, 'lookup_order'))
      return toolUseReply([{ name: lookup.name, input: { order_id: '42' } }], { input_tokens: 420, output_tokens: 24 });
    if (script.markdown) return { ...textReply(MARKDOWN, { input_tokens: 510, output_tokens: 60 }), chunkDelayMs: 5 };
    return { ...textReply(ANSWER, { input_tokens: 510, output_tokens: 36 }), chunkDelayMs: 150 };
  };
}

export interface ConsoleService {
  url: string;
  runtime: LocalRuntime;
  model: FakeModel;
  script: ModelScript;
  stop(): Promise<void>;
}

/**
 * The local runtime as `npm start` runs it (the built console at /, the repository's stdio MCP
 * server allowed), in memory, with the fake model; a job is tried once, so a failure is final.
 * `deploymentKey: false` starts it without a model key of its own (no `ANTHROPIC_API_KEY`), as a
 * fresh install before anyone has set one. `env` adds settings (`MCP_ALLOW_PRIVATE_URLS` for an
 * identity provider on loopback).
 */
export async function startConsoleService(
  options: { deploymentKey?: boolean; env?: Record<string, string> } = {},
): Promise<ConsoleService> {
  const model = await startFakeModel();
  const script: ModelScript = { failStats: false, markup: false, markdown: false };
  model.handle(reply(script));
  const config = parseConfig(
    {
      DATA_DIR: 'memory',
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      ANTHROPIC_BASE_URL: model.url,
      ...(options.deploymentKey === false ? {} : { ANTHROPIC_API_KEY: 'browser-test-key' }),
      JOB_MAX_ATTEMPTS: '1',
      JOB_RETRY_BASE_MS: '0',
      ...options.env,
    },
    'local',
  );
  const runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
  return {
    url: runtime.url,
    runtime,
    model,
    script,
    async stop() {
      await runtime.stop();
      await model.stop();
    },
  };
}
