import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.js';

/**
 * A store some milliseconds away, for the benchmarks that read latency as AWS users feel it:
 * dynalite (in memory, through its public interface) on a loopback port in a process of its own
 * (`store-child.ts`: its work does not hold the proxy's timers), and in front of it a TCP
 * proxy that holds every byte the client sends for `delayMs` before passing it on (answers pass at
 * once), so each request to the store costs one `delayMs` more. The delay can change between
 * requests. The proxy counts the store calls it forwards (by their `X-Amz-Target`), per operation.
 */
export interface DelayedStore {
  /** What `DYNAMODB_ENDPOINT` takes: the proxy's URL. */
  endpoint: string;
  /** The delay added to each request, in ms; 0 passes bytes through at once. */
  delayMs: number;
  /** How it is added (`DelayMode`); it can change between requests. */
  mode: DelayMode;
  /** Store calls forwarded since the start, in all and per operation (`GetItem`, `Query`…). */
  readonly calls: number;
  readonly operations: Map<string, number>;
  /** How long held bytes were really held (timers fire late): their total in ms, and their number. */
  readonly held: { totalMs: number; count: number };
  /** Waits until nothing has passed either way for `quietMs` (background work done). */
  settle(quietMs?: number): Promise<void>;
  close(): Promise<void>;
}

const TARGET = /x-amz-target:\s*DynamoDB_\d+\.(\w+)/gi;

/**
 * How the delay is added. `request`: each request's bytes are held `delayMs` before they reach the
 * store, so a call costs `delayMs` plus the store's own time, and dynalite, which serves one call
 * at a time, adds the time of the calls before it in the same parallel round. `floor`: requests
 * pass at once and each answer is held until `delayMs` after its request arrived, so a call takes
 * `delayMs`, or the store's time if longer: DynamoDB's latency holds its own work, and it serves
 * the calls of a round side by side (what `aws-shaped` models).
 */
export type DelayMode = 'request' | 'floor';

export async function startDelayedStore(delayMs: number, mode: DelayMode = 'request'): Promise<DelayedStore> {
  const store = await startChild(fileURLToPath(new URL('./store-child.ts', import.meta.url)), {});
  const storePort = Number(store.ready.port);
  const sockets = new Set<Socket>();
  const operations = new Map<string, number>();
  const state = { delayMs, mode, calls: 0, lastActivity: performance.now(), heldTotal: 0, heldCount: 0 };

  /** Counts the calls in what the client sent; `carry` keeps a header split between two chunks. */
  let carry = '';
  const count = (chunk: Buffer) => {
    const text = carry + chunk.toString('latin1');
    let end = 0;
    for (const match of text.matchAll(TARGET)) {
      state.calls += 1;
      const name = match[1] ?? '?';
      operations.set(name, (operations.get(name) ?? 0) + 1);
      end = (match.index ?? 0) + match[0].length;
    }
    carry = text.slice(Math.max(end, text.length - 64));
  };

  /** Passes `from`'s bytes to `to`, each held until `dueOf(arrival)`, in order (`count`: `from` is the client). */
  const delayedPipe = (from: Socket, to: Socket, dueOf: (arrived: number) => number, counts: boolean) => {
    const queue: { due: number; arrived: number; chunk: Buffer }[] = [];
    let pumping = false;
    const pump = () => {
      for (let head = queue[0]; head && head.due <= performance.now(); head = queue[0]) {
        queue.shift();
        state.heldTotal += performance.now() - head.arrived;
        state.heldCount += 1;
        to.write(head.chunk);
      }
      const head = queue[0];
      if (!head) {
        pumping = false;
        return;
      }
      // A timer fires late by a millisecond or so: the last stretch is waited out by turns of the loop.
      const wait = head.due - performance.now();
      if (wait > 2) setTimeout(pump, wait - 2);
      else setImmediate(pump);
    };
    from.on('data', (chunk: Buffer) => {
      state.lastActivity = performance.now();
      if (counts) count(chunk);
      const arrived = performance.now();
      const due = dueOf(arrived);
      if (due <= arrived && queue.length === 0) {
        to.write(chunk);
        return;
      }
      queue.push({ due, arrived, chunk });
      if (!pumping) {
        pumping = true;
        pump();
      }
    });
  };

  const proxy = createServer((client) => {
    const upstream = connect(storePort, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    // In `floor` mode, one call at a time on a connection (HTTP/1.1 without pipelining): an answer
    // belongs to the last request that arrived on it.
    let requestedAt = 0;
    delayedPipe(
      client,
      upstream,
      (arrived) => {
        requestedAt = arrived;
        return state.mode === 'request' ? arrived + state.delayMs : arrived;
      },
      true,
    );
    delayedPipe(upstream, client, (arrived) => (state.mode === 'request' ? arrived : requestedAt + state.delayMs), false);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('end', close);
      socket.on('error', close);
      socket.on('close', close);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    get mode() {
      return state.mode;
    },
    set mode(value: DelayMode) {
      state.mode = value;
    },
    get calls() {
      return state.calls;
    },
    operations,
    get held() {
      return { totalMs: state.heldTotal, count: state.heldCount };
    },
    async settle(quietMs = 30) {
      while (performance.now() - state.lastActivity < quietMs) {
        await new Promise((resolve) => setTimeout(resolve, quietMs - (performance.now() - state.lastActivity) + 1));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await store.stop();
    },
  };
}
