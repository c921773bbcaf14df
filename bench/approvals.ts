import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startHttpMcpServer } from '../test/support/mcp-servers.js';
import { signUpOver } from '../test/support/signup.js';
import { QUIET_LOGGER, benchEnv, percentileOf, type Row } from './report.js';

const ANSWER = 'The ticket is open: the VPN team has it, and you will hear from them within the hour.';
const WARM_UP = 20;
const APPROVALS = 200;

interface Sample {
  /** From sending the decision to the first `text` event of the resumed answer at the client. */
  firstTextMs: number;
  /** From sending the decision to the `done` event. */
  doneMs: number;
  /** Store round trips of the decision, from the claim to the stored answer. */
  roundTrips: number;
}

/** Reads an event stream to its end; when the first `text` event's bytes and the `done` event's arrived. */
async function readStream(response: Response): Promise<{ firstText: number; done: number }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let firstText = Number.NaN;
  let done = Number.NaN;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    seen += decoder.decode(chunk.value, { stream: true });
    if (Number.isNaN(firstText) && seen.includes('event: text')) firstText = performance.now();
    if (Number.isNaN(done) && seen.includes('event: done')) done = performance.now();
  }
  if (!seen.includes('"pending_approval":null') || !seen.includes('"tools_called":["create_ticket"]'))
    throw new Error(`unexpected resumed answer: ${seen}`);
  return { firstText, done };
}

/**
 * Deciding an approval on the local runtime: the time from sending the decision (`POST
 * …/approvals/:id` with `Accept: text/event-stream`) to the first `text` event of the resumed
 * answer, and to its `done`. What lies between: the claim (a conditional write), loading the
 * paused query from the approval item, the approved tool call (an MCP server in this process), one
 * model call (a zero-latency fake streaming on loopback), storing the answer. Each approval needs
 * its own paused query first; those are not timed.
 */
export async function benchApprovals(): Promise<Row[]> {
  const model = await startFakeModel();
  // Ask for the write; once its result is back, answer.
  model.handle((request: ModelRequestRecord) => {
    const last = request.body.messages.at(-1)?.content;
    const hasResult = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
    return hasResult ? { ...textReply(ANSWER), chunkChars: 8 } : toolUseReply([{ name: 'create_ticket', input: { title: 'VPN down' } }]);
  });
  const tickets = await startHttpMcpServer({
    name: 'bench-tickets',
    tools: [
      {
        name: 'create_ticket',
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => `ticket created: ${String(args.title)}`,
      },
    ],
  });
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'bench-approvals@example.com');
    const post = async (path: string, body: unknown, method = 'POST') => {
      const response = await fetch(`${runtime.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const workspaceId = String((await post('/api/workspaces', { name: 'Bench approvals' })).id);
    await post('/api/connectors/mcp', { workspace_id: workspaceId, name: 'tickets', url: tickets.url });
    await post(`/api/workspaces/${workspaceId}`, { approval: { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 } }, 'PUT');

    const measure = async (count: number): Promise<Sample[]> => {
      const samples: Sample[] = [];
      for (let index = 0; index < count; index += 1) {
        const asked = await post(`/api/workspaces/${workspaceId}/query`, { query: `Open a ticket for the VPN (${index})` });
        const pending = asked.pending_approval as { id: string } | null;
        if (!pending) throw new Error(`the query did not pause: ${JSON.stringify(asked)}`);
        const trips = runtime.deps.table.roundTrips;
        const started = performance.now();
        const response = await fetch(`${runtime.url}/api/workspaces/${workspaceId}/approvals/${pending.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
          body: JSON.stringify({ decision: 'approve' }),
        });
        const { firstText, done } = await readStream(response);
        samples.push({ firstTextMs: firstText - started, doneMs: done - started, roundTrips: runtime.deps.table.roundTrips - trips });
      }
      return samples;
    };

    await measure(WARM_UP);
    const samples = await measure(APPROVALS);
    return [
      {
        benchmark: 'approve, streamed (1 tool call, 1 model call; answer in 11 pieces)',
        n: samples.length,
        first_text_p50_ms: percentileOf(samples, (sample) => sample.firstTextMs, 50),
        first_text_p99_ms: percentileOf(samples, (sample) => sample.firstTextMs, 99),
        done_p50_ms: percentileOf(samples, (sample) => sample.doneMs, 50),
        done_p99_ms: percentileOf(samples, (sample) => sample.doneMs, 99),
        store_round_trips_p50: percentileOf(samples, (sample) => sample.roundTrips, 50),
        store_round_trips_max: Math.max(...samples.map((sample) => sample.roundTrips)),
      },
    ];
  } finally {
    await runtime.stop();
    await Promise.all([model.stop(), tickets.stop()]);
  }
}
