import { writeHeapSnapshot } from 'node:v8';
import { fork, type ChildProcess } from 'node:child_process';

/** A message between the load benchmark and one of its child processes. */
export interface ChildMessage {
  id?: number;
  type: string;
  [field: string]: unknown;
}

/** A child process of the load benchmark, spoken to over its IPC channel. */
export interface BenchChild {
  /** The fields of the child's `ready` message (its URLs). */
  ready: Record<string, unknown>;
  /** Sends a request and answers the child's reply to it. */
  ask(type: string): Promise<ChildMessage>;
  /** Asks the child to stop and waits for it to exit (killed if it does not within 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `file` (TypeScript, through tsx) in a process of its own with `--expose-gc`, and waits for
 * its `ready` message. A child that exits or fails before it is ready rejects with its stderr.
 */
export async function startChild(file: string, env: Record<string, string>, execArgv: string[] = []): Promise<BenchChild> {
  const child: ChildProcess = fork(file, [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const pending = new Map<number, { resolve: (message: ChildMessage) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A child gone mid-benchmark fails what is waiting for it, with its last words.
  child.once('exit', (code, signal) => {
    for (const { reject } of pending.values()) reject(new Error(`${file} exited (${code ?? signal}):\n${stderr}`));
    pending.clear();
  });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`${file} exited (${code ?? signal}) before it was ready:\n${stderr}`)));
    child.once('error', reject);
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') return resolve(message);
      if (message.type === 'failed') return reject(new Error(`${file} failed to start: ${String(message.error)}`));
      if (message.id !== undefined) pending.get(message.id)?.resolve(message);
      pending.delete(message.id ?? 0);
    });
  });
  return {
    ready,
    ask(type) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error(`${file} is no longer running:\n${stderr}`));
        pending.set(id, { resolve, reject });
        child.send({ id, type }, (error) => error && reject(error));
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The child's side: sends `ready` with `fields`, answers `memory` requests (after a forced GC) and
 * `cpu` requests (the process's CPU time so far), and runs `stop` then exits on a `stop` request.
 */
export function serveParent(fields: Record<string, unknown>, stop: () => Promise<void>): void {
  const send = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message: ChildMessage) => {
    if (message.type === 'memory') {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      send({ id: message.id, type: 'memory', heap_mb: usage.heapUsed / 2 ** 20, rss_mb: usage.rss / 2 ** 20 });
    } else if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      send({ id: message.id, type: 'cpu', cpu_ms: (usage.user + usage.system) / 1000 });
    } else if (message.type === 'snapshot') {
      (globalThis as { gc?: () => void }).gc?.();
      send({ id: message.id, type: 'snapshot', file: writeHeapSnapshot() });
    } else if (message.type === 'stop') {
      void stop().finally(() => process.exit(0));
    }
  });
  // The parent gone (benchmark interrupted): stop too.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)));
  send({ type: 'ready', ...fields });
}

/** Reports a failure to start to the parent and exits. */
export function failToParent(error: unknown): never {
  process.send?.({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}
