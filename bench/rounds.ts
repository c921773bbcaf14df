import { apiOf, percentile, type Row } from './report.js';
import { ANSWER, startRoundsSetup, type RoundsSetup } from './rounds-setup.js';

/**
 * Sequential store rounds per request, measured black-box (issue 34): `npm start` in its own
 * process with its store behind a latency proxy (`latency-proxy.ts`). Each request is timed with
 * the proxy adding 0 ms and `DELAY_MS` to every store call, alternately, the same request each time;
 * rounds = (p50 at DELAY_MS − p50 at 0) / DELAY_MS: how many store calls the client waited for one
 * after the other. `calls`: the store calls the proxy forwarded from the request's start to its
 * end (the whole stream for the streamed one), p50.
 */

const DELAY_MS = 6;
const RUNS = Number(process.env.BENCH_ROUNDS_RUNS ?? 30);
const WARM_UP = 5;

interface Kind {
  request: string;
  goal: string;
  /** Untimed work the request needs first (a conversation to follow up, a paused query). */
  prepare?: () => Promise<string>;
  /** Sends the request; answers the time it took, in ms, to what the user waits for. */
  measure: (prepared: string) => Promise<number>;
}

/** Reads an event stream to its end; answers when the first `text` event and `done` arrived. */
async function readEvents(response: Response): Promise<{ firstText: number; done: number; seen: string }> {
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
  if (Number.isNaN(done)) throw new Error(`stream without done: ${seen.slice(0, 500)}`);
  return { firstText, done, seen };
}

function queryKinds(setup: RoundsSetup): Kind[] {
  const { call } = apiOf(setup.url, setup.cookie);
  const base = `/api/workspaces/${setup.workspaceId}`;
  const ask = async (body: Record<string, unknown>) => {
    const answer = await call('POST', `${base}/query`, body);
    if (answer.error) throw new Error(`query failed: ${JSON.stringify(answer.error)}`);
    return String(answer.session_id ?? answer.conversation_id);
  };
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  let counter = 0;
  return [
    { request: 'new conversation (query)', goal: '≤ 2', measure: () => timed(() => ask({ query: `Is the VPN down? (${++counter})` })) },
    {
      request: 'follow-up (query with session_id)',
      goal: '≤ 2',
      prepare: () => ask({ query: `Is the VPN down? (${++counter})` }),
      measure: (sessionId) => timed(() => ask({ query: 'And since when?', session_id: sessionId })),
    },
    {
      request: 'first text event of a streamed query',
      goal: '≤ 1',
      measure: async () => {
        const started = performance.now();
        const response = await fetch(`${setup.url}${base}/query`, {
          method: 'POST',
          headers: { cookie: setup.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ query: `Is the VPN down? (${++counter})` }),
        });
        return (await readEvents(response)).firstText - started;
      },
    },
    { request: 'list workspaces (GET /api/workspaces)', goal: '≤ 1', measure: () => timed(() => call('GET', '/api/workspaces')) },
    { request: 'workspace detail (GET /api/workspaces/:id)', goal: '≤ 1', measure: () => timed(() => call('GET', base)) },
  ];
}

function otherKinds(setup: RoundsSetup): Kind[] {
  const { call } = apiOf(setup.url, setup.cookie);
  let counter = 0;
  return [
    {
      request: 'approve, streamed, to the resumed answer’s done',
      goal: '',
      prepare: async () => {
        const asked = await call('POST', `/api/workspaces/${setup.approvalsId}/query`, { query: `Open a ticket (${++counter})` });
        const pending = asked.pending_approval as { id: string } | null;
        if (!pending) throw new Error(`the query did not pause: ${JSON.stringify(asked)}`);
        return pending.id;
      },
      measure: async (approvalId) => {
        const started = performance.now();
        const response = await fetch(`${setup.url}/api/workspaces/${setup.approvalsId}/approvals/${approvalId}`, {
          method: 'POST',
          headers: { cookie: setup.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ decision: 'approve' }),
        });
        const { done, seen } = await readEvents(response);
        if (!seen.includes('"tools_called":["create_ticket"]')) throw new Error(`unexpected resumed answer: ${seen.slice(-500)}`);
        return done - started;
      },
    },
    {
      request: 'messaging webhook (new thread)',
      goal: '',
      measure: async () => {
        const started = performance.now();
        const response = await fetch(`${setup.url}/api/consumers/${setup.messagingId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${setup.messagingKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ user: 'Lin', text: 'Is the VPN down?', thread_id: `thread-${++counter}` }),
        });
        const body = (await response.json()) as { answer?: string };
        if (response.status !== 200 || body.answer !== ANSWER) throw new Error(`webhook: ${response.status} ${JSON.stringify(body)}`);
        return performance.now() - started;
      },
    },
    {
      request: 'team-chat mention, to the answer shown',
      goal: '',
      measure: async () => {
        const ts = `${9000 + ++counter}.0001`;
        const started = performance.now();
        setup.chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> is the VPN down?', ts });
        const deadline = started + 10_000;
        while (!setup.chat.answersIn(ts).includes(ANSWER)) {
          if (performance.now() > deadline) throw new Error(`no answer in thread ${ts}: ${JSON.stringify(setup.chat.messagesIn(ts))}`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        return performance.now() - started;
      },
    },
  ];
}

interface Sample {
  ms: number;
  calls: number;
  operations: Map<string, number>;
}

/** One request at one delay: prepared at 0 ms, then timed with the store calls it made counted. */
async function sampleOnce(setup: RoundsSetup, kind: Kind, delayMs: number): Promise<Sample> {
  const { store } = setup;
  store.delayMs = 0;
  const prepared = kind.prepare ? await kind.prepare() : '';
  await store.settle();
  store.delayMs = delayMs;
  const calls = store.calls;
  const before = new Map(store.operations);
  const ms = await kind.measure(prepared);
  const operations = new Map([...store.operations].map(([name, count]) => [name, count - (before.get(name) ?? 0)]));
  const sample = { ms, calls: store.calls - calls, operations };
  store.delayMs = 0;
  await store.settle();
  return sample;
}

/** The operations of the samples, averaged per request: `GetItem 1, Query 2`. */
function operationsOf(samples: Sample[]): string {
  const totals = new Map<string, number>();
  for (const sample of samples) {
    for (const [name, count] of sample.operations) totals.set(name, (totals.get(name) ?? 0) + count);
  }
  return [...totals]
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${Math.round((count / samples.length) * 10) / 10}`)
    .join(', ');
}

async function measureKind(setup: RoundsSetup, kind: Kind): Promise<Row> {
  const heldBefore = setup.store.held;
  const at: Record<number, Sample[]> = { 0: [], [DELAY_MS]: [] };
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    // Alternate which delay goes first, so a drift of the machine falls on both.
    const order = run % 2 === 0 ? [0, DELAY_MS] : [DELAY_MS, 0];
    for (const delay of order) {
      const sample = await sampleOnce(setup, kind, delay);
      if (run >= WARM_UP) at[delay]?.push(sample);
    }
  }
  const zero = at[0] ?? [];
  const delayed = at[DELAY_MS] ?? [];
  const p50 = (samples: Sample[]) =>
    percentile(
      samples.map((sample) => sample.ms),
      50,
    );
  const held = setup.store.held;
  const heldMs = (held.totalMs - heldBefore.totalMs) / Math.max(1, held.count - heldBefore.count);
  return {
    request: kind.request,
    n: zero.length,
    p50_0ms: p50(zero),
    [`p50_${DELAY_MS}ms`]: p50(delayed),
    rounds: Math.round(((p50(delayed) - p50(zero)) / DELAY_MS) * 100) / 100,
    held_ms: Math.round(heldMs * 100) / 100,
    rounds_held: Math.round(((p50(delayed) - p50(zero)) / heldMs) * 100) / 100,
    goal: kind.goal,
    store_calls_p50: percentile(
      [...zero, ...delayed].map((sample) => sample.calls),
      50,
    ),
    store_calls_max: Math.max(...[...zero, ...delayed].map((sample) => sample.calls)),
    operations: operationsOf([...zero, ...delayed]),
  };
}

export async function benchRounds(): Promise<Row[]> {
  const setup = await startRoundsSetup();
  try {
    const rows: Row[] = [];
    for (const kind of [...queryKinds(setup), ...otherKinds(setup)]) rows.push(await measureKind(setup, kind));
    return rows;
  } finally {
    await setup.stop();
  }
}
