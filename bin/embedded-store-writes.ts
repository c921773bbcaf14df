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

/** Where a key's last write not yet in leveldb stands: its JSON text (undefined once deleted). */
type Pending = { text: string | undefined; write: number };

/**
 * Reads go through leveldb's `getSync` (a read is about 2 µs of leveldb's own work, the thread
 * pool's hop 50–100 µs of this thread's), after the writes still on their way; writes are gathered
 * as above. Both only once the database is open: before that, and for any call without a
 * callback, dynalite's own path.
 */
export function bufferWrites(level: LevelDb): BufferedWrites {
  const { get, put, del, batch } = level;
  const pending = new Map<string, Pending>();
  let queued: { write: LevelWrite; number: number }[] = [];
  let count = 0;
  let gathering = false;
  // The batches are written one after the other, so they land in the order they were made.
  let chain: Promise<unknown> = Promise.resolve();
  // The last batch made: it settles once every write made so far is in leveldb (or refused).
  let latest: Promise<void> | undefined;
  const refused = { count: 0, error: new Error('leveldb refused a batch') };

  const forget = (writes: typeof queued) => {
    for (const { write, number } of writes) if (pending.get(write.key)?.write === number) pending.delete(write.key);
  };
  const flush = (writes: typeof queued) =>
    new Promise<void>((resolve, reject) => {
      batch.call(
        level,
        writes.map(({ write }) => write),
        (error) => {
          forget(writes);
          if (!error) return resolve();
          refused.count += 1;
          refused.error = error;
          return reject(error);
        },
      );
    });
  const enqueue = (write: LevelWrite, text: string | undefined, callback: Callback) => {
    count += 1;
    pending.set(write.key, { text, write: count });
    queued.push({ write, number: count });
    if (!gathering) {
      gathering = true;
      const previous = chain;
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        gathering = false;
        const writes = queued;
        queued = [];
        await previous;
        return flush(writes);
      });
      latest = done;
      chain = done.catch(() => undefined);
      const settled = () => {
        if (latest === done) latest = undefined;
      };
      done.then(settled, settled);
    }
    queueMicrotask(() => callback(null));
  };

  // dynalite's own batches (a deleted table's items, tags) go after the writes still on their way.
  level.batch = (operations, callback) => {
    if (typeof callback !== 'function' || level.status !== 'open') return batch.call(level, operations, callback);
    const done = chain.then(
      () => new Promise<void>((resolve, reject) => batch.call(level, operations, (error) => (error ? reject(error) : resolve()))),
    );
    chain = done.catch(() => undefined);
    done.then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  };
  level.get = (key, callback) => {
    if (typeof callback !== 'function' || level.status !== 'open') return get.call(level, key, callback);
    let value: unknown;
    try {
      const waiting = pending.get(key);
      value = waiting ? (waiting.text === undefined ? undefined : JSON.parse(waiting.text)) : level.getSync(key);
    } catch (error) {
      queueMicrotask(() => callback(error as Error));
      return;
    }
    queueMicrotask(() => callback(null, value));
  };
  level.put = (key, value, callback) => {
    if (typeof callback !== 'function' || level.status !== 'open') return put.call(level, key, value, callback);
    const text = JSON.stringify(value);
    enqueue({ type: 'put', key, value: text, valueEncoding: 'utf8' }, text, callback);
  };
  level.del = (key, callback) => {
    if (typeof callback !== 'function' || level.status !== 'open') return del.call(level, key, callback);
    enqueue({ type: 'del', key }, undefined, callback);
  };
  return {
    mark: () => refused.count,
    written: async (mark) => {
      await latest;
      if (refused.count > mark) throw refused.error;
    },
  };
}
