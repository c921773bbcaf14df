import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { startFakeModel, textReply } from '../test/support/fake-model.js';
import { signUpOver } from '../test/support/signup.js';
import { QUIET_LOGGER, benchEnv, percentile, percentileOf, type Row } from './report.js';

const ANSWER = 'To reset your password, open Settings, choose Security, then Reset password, and follow the link we e-mail you.';

interface Sample {
  /** The client's time to the first `text` event, minus the model's own time to its first token. */
  firstTextMs: number;
  totalMs: number;
}

/** Reads an event stream to its end; when the first `text` event's bytes arrived. */
async function readStream(response: Response): Promise<number> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let firstText = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(firstText)) {
      seen += decoder.decode(value, { stream: true });
      if (seen.includes('event: text')) firstText = performance.now();
    }
  }
  return firstText;
}

/**
 * Time to the first answer text of a streamed query on the local runtime: the client's time to
 * its first `text` event minus the fake model's own time to its first token (so what is left is
 * the service's: reading, screening, the request to the model, relaying the token). The model,
 * the service and the client share one process and one clock. The same query without the header,
 * for the total time.
 */
export async function benchStream(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle(() => ({ ...textReply(ANSWER), chunkChars: 6 }));
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'bench-stream@example.com');
    const created = await fetch(`${runtime.url}/api/workspaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Bench streaming' }),
    });
    const workspaceId = String(((await created.json()) as { id: string }).id);
    const ask = (index: number, stream: boolean) =>
      fetch(`${runtime.url}/api/workspaces/${workspaceId}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...(stream ? { accept: 'text/event-stream' } : {}) },
        body: JSON.stringify({ query: `How do I reset my password? (${index})` }),
      });

    const streamed = async (count: number): Promise<Sample[]> => {
      const samples: Sample[] = [];
      for (let index = 0; index < count; index += 1) {
        const started = performance.now();
        const firstText = await readStream(await ask(index, true));
        const finished = performance.now();
        const request = model.requests.at(-1);
        const modelFirstToken = (request?.firstTextAt ?? Number.NaN) - (request?.receivedAt ?? Number.NaN);
        samples.push({ firstTextMs: firstText - started - modelFirstToken, totalMs: finished - started });
      }
      return samples;
    };
    const plain = async (count: number): Promise<number[]> => {
      const totals: number[] = [];
      for (let index = 0; index < count; index += 1) {
        const started = performance.now();
        await (await ask(index, false)).json();
        totals.push(performance.now() - started);
      }
      return totals;
    };

    await streamed(30); // warm up
    await plain(30);
    const samples = await streamed(300);
    const totals = await plain(300);
    return [
      {
        benchmark: 'streamed query (no tool call; answer in 19 pieces)',
        n: samples.length,
        first_text_minus_model_p50_ms: percentileOf(samples, (sample) => sample.firstTextMs, 50),
        first_text_minus_model_p99_ms: percentileOf(samples, (sample) => sample.firstTextMs, 99),
        total_p50_ms: percentileOf(samples, (sample) => sample.totalMs, 50),
        total_p99_ms: percentileOf(samples, (sample) => sample.totalMs, 99),
      },
      {
        benchmark: 'the same query as JSON',
        n: totals.length,
        first_text_minus_model_p50_ms: '-',
        first_text_minus_model_p99_ms: '-',
        total_p50_ms: percentile(totals, 50),
        total_p99_ms: percentile(totals, 99),
      },
    ];
  } finally {
    await runtime.stop();
    await model.stop();
  }
}
