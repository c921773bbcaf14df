/*
 * The embedded store's writes (bin/embedded-store.ts). dynalite writes an item, then each of its
 * index entries, with a leveldb `put` or `del` each, and waits for each before the next: every one
 * a trip through libuv's thread pool and back, and a query makes a dozen or so. Here dynalite is
 * told at once that a write is done, and the writes of one turn of the event loop go to leveldb as
 * one batch. Until that batch is written, a read of the same key sees the new value. The store's
 * caller is answered only once every write made so far is in leveldb, so what it is told is saved
 * is saved, as before; if leveldb refuses the batch, the writes are forgotten and the caller gets
 * the error.
 */

type Callback = (error?: Error | null, value?: unknown) => void;

/** leveldb as dynalite wraps it (callbacks), with its synchronous read. */
export interface LevelDb {
  status: string;
  getSync(key: string): unknown;
  get(key: string, callback?: Callback): unknown;
  put(key: string, value: unknown, callback?: Callback): unknown;
  del(key: string, callback?: Callback): unknown;
  batch(operations: LevelWrite[], callback?: Callback): unknown;
}

/** A write as leveldb's batch takes it: a put's value is its JSON text, as taken when it was made. */
type LevelWrite = { type: 'put'; key: string; value: string; valueEncoding: 'utf8' } | { type: 'del'; key: string };

export interface BufferedWrites {
  /** A mark to give `written`: taken when a call starts. */
  mark(): number;
  /**
   * Resolves once every write made so far is in leveldb. Rejects if a batch was refused since
   * `mark` (a call may have written into it), or the batch it waits for is.
   */
  written(mark: number): Promise<void>;
}

/** A write not yet in leveldb, numbered in the order writes were made. */
type Queued = { write: LevelWrite; number: number };

/** The writes on their way to leveldb, gathered a turn at a time, written one batch after the other. */
class WriteQueue {
  /** Each key's last write not yet in leveldb. */
  private readonly pending = new Map<string, Queued>();
  private queued: Queued[] = [];
  private count = 0;
  private gathering = false;
  // The batches are written one after the other, so they land in the order they were made.
  private chain: Promise<unknown> = Promise.resolve();
  // The last batch made: it settles once every write made so far is in leveldb (or refused).
  private latest: Promise<void> | undefined;
  private readonly refused = { count: 0, error: new Error('leveldb refused a batch') };

  constructor(private readonly writeBatch: (writes: LevelWrite[]) => Promise<void>) {}

  /** A key's write still on its way, if there is one. */
  waiting(key: string): LevelWrite | undefined {
    return this.pending.get(key)?.write;
  }

  add(write: LevelWrite): void {
    this.count += 1;
    const queued = { write, number: this.count };
    this.pending.set(write.key, queued);
    this.queued.push(queued);
    if (this.gathering) return;
    this.gathering = true;
    const gathered = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.gathering = false;
    });
    const done = this.after(gathered, () => this.flush());
    this.latest = done;
    const settled = () => {
      if (this.latest === done) this.latest = undefined;
    };
    done.then(settled, settled);
  }

  /** Runs `write` once `ready` and the batches made so far are written; a later batch waits for it. */
  after(ready: Promise<void>, write: () => Promise<void>): Promise<void> {
    const previous = this.chain;
    const done = ready.then(async () => {
      await previous;
      return write();
    });
    this.chain = done.catch(() => undefined);
    return done;
  }

  mark(): number {
    return this.refused.count;
  }

  async written(mark: number): Promise<void> {
    await this.latest;
    if (this.refused.count > mark) throw this.refused.error;
  }

  private async flush(): Promise<void> {
    // Taken once the batches before are written: writes made meanwhile go in this one too.
    const writes = this.queued;
    this.queued = [];
    if (writes.length === 0) return;
    try {
      await this.writeBatch(writes.map(({ write }) => write));
    } catch (error) {
      this.refused.count += 1;
      this.refused.error = error as Error;
      throw error;
    } finally {
      for (const queued of writes) if (this.pending.get(queued.write.key) === queued) this.pending.delete(queued.write.key);
    }
  }
}

/**
 * Reads go through leveldb's `getSync` (a read is about 2 µs of leveldb's own work, the thread
 * pool's hop 50–100 µs of this thread's), after the writes still on their way; writes are gathered
 * as above. Both only once the database is open: before that, and for any call without a
 * callback, dynalite's own path.
 */
export function bufferWrites(level: LevelDb): BufferedWrites {
  const { get, put, del, batch } = level;
  const writeBatch = (writes: LevelWrite[]) =>
    new Promise<void>((resolve, reject) => batch.call(level, writes, (error) => (error ? reject(error) : resolve())));
  const queue = new WriteQueue(writeBatch);
  const ours = (callback: unknown) => typeof callback === 'function' && level.status === 'open';

  // dynalite's own batches (a deleted table's items, tags) go after the writes still on their way.
  level.batch = (operations, callback) => {
    if (!ours(callback)) return batch.call(level, operations, callback);
    queue
      .after(Promise.resolve(), () => writeBatch(operations))
      .then(
        () => callback?.(null),
        (error: Error) => callback?.(error),
      );
  };
  level.get = (key, callback) => {
    if (!ours(callback)) return get.call(level, key, callback);
    let value: unknown;
    try {
      const waiting = queue.waiting(key);
      value = waiting ? (waiting.type === 'put' ? JSON.parse(waiting.value) : undefined) : level.getSync(key);
    } catch (error) {
      queueMicrotask(() => callback?.(error as Error));
      return;
    }
    queueMicrotask(() => callback?.(null, value));
  };
  level.put = (key, value, callback) => {
    if (!ours(callback)) return put.call(level, key, value, callback);
    queue.add({ type: 'put', key, value: JSON.stringify(value), valueEncoding: 'utf8' });
    queueMicrotask(() => callback?.(null));
  };
  level.del = (key, callback) => {
    if (!ours(callback)) return del.call(level, key, callback);
    queue.add({ type: 'del', key });
    queueMicrotask(() => callback?.(null));
  };
  return { mark: () => queue.mark(), written: (mark) => queue.written(mark) };
}
