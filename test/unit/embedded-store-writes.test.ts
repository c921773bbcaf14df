import { describe, expect, it } from 'vitest';
import { bufferWrites, type LevelDb } from '../../bin/embedded-store-writes.js';

/**
 * The embedded store's writes (bin/embedded-store-writes.ts) against a leveldb stand-in whose
 * batches are written only when the test says so: what dynalite is told, what a read sees before
 * a batch is written, what the store's caller waits for, and a refused batch.
 */

type Write = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

function fakeLevel(status = 'open') {
  const stored = new Map<string, string>();
  const batches: { writes: Write[]; finish(error?: Error): void }[] = [];
  const direct: string[] = [];
  const level: LevelDb = {
    status,
    getSync: (key) => (stored.has(key) ? JSON.parse(stored.get(key) as string) : undefined),
    get: (key) => direct.push(`get ${key}`),
    put: (key) => direct.push(`put ${key}`),
    del: (key) => direct.push(`del ${key}`),
    batch: (writes, callback) => {
      batches.push({
        writes: writes as Write[],
        finish: (error) => {
          if (!error)
            for (const write of writes as Write[]) write.type === 'put' ? stored.set(write.key, write.value) : stored.delete(write.key);
          callback?.(error ?? null);
        },
      });
    },
  };
  return { level, stored, batches, direct };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const done = (callback: (fn: (error?: Error | null) => void) => void) =>
  new Promise<Error | null | undefined>((resolve) => callback(resolve));
const read = (level: LevelDb, key: string) =>
  new Promise((resolve, reject) => level.get(key, (error, value) => (error ? reject(error) : resolve(value))));
/** Whether a promise has settled, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let yes = false;
  void promise.then(
    () => (yes = true),
    () => (yes = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  return yes;
}

describe('the embedded store’s writes', () => {
  it('tells dynalite a write is done at once, reads it back before leveldb has it, and lets the caller wait for leveldb', async () => {
    const { level, stored, batches } = fakeLevel();
    const writes = bufferWrites(level);
    expect(await done((callback) => level.put('item~a', { n: 1 }, callback))).toBeNull();
    expect(await read(level, 'item~a')).toEqual({ n: 1 });
    const waited = writes.written(writes.mark());
    await turn();
    expect(batches).toHaveLength(1);
    expect(stored.has('item~a')).toBe(false);
    expect(await settled(waited)).toBe(false);
    batches[0]?.finish();
    await waited;
    expect(stored.get('item~a')).toBe('{"n":1}');
    expect(await read(level, 'item~a')).toEqual({ n: 1 });
  });

  it('writes one turn in one batch, in order, and starts the next batch only once the one before is written', async () => {
    const { level, stored, batches } = fakeLevel();
    const writes = bufferWrites(level);
    stored.set('old', '{"v":0}');
    level.put('a', { v: 1 }, () => undefined);
    level.put('b', { v: 2 }, () => undefined);
    level.del('old', () => undefined);
    level.put('a', { v: 3 }, () => undefined);
    expect(await read(level, 'old')).toBeUndefined();
    await turn();
    expect(batches.map((batch) => batch.writes.map((write) => `${write.type} ${write.key}`))).toEqual([
      ['put a', 'put b', 'del old', 'put a'],
    ]);
    level.put('c', { v: 4 }, () => undefined);
    await turn();
    await turn();
    expect(batches).toHaveLength(1);
    const waited = writes.written(writes.mark());
    batches[0]?.finish();
    await turn();
    await turn();
    expect(batches).toHaveLength(2);
    expect(await settled(waited)).toBe(false);
    batches[1]?.finish();
    await waited;
    expect(Object.fromEntries(stored)).toEqual({ a: '{"v":3}', b: '{"v":2}', c: '{"v":4}' });
  });

  it('writes a value as it was when it was put', async () => {
    const { level, stored, batches } = fakeLevel();
    const writes = bufferWrites(level);
    const item = { n: 1 };
    level.put('k', item, () => undefined);
    item.n = 2;
    expect(await read(level, 'k')).toEqual({ n: 1 });
    await turn();
    batches[0]?.finish();
    await writes.written(writes.mark());
    expect(stored.get('k')).toBe('{"n":1}');
  });

  it('gives a refused batch’s error to whoever waits for it, forgets its writes, and goes on with the next', async () => {
    const { level, stored, batches } = fakeLevel();
    const writes = bufferWrites(level);
    stored.set('k', '{"v":"old"}');
    const before = writes.mark();
    level.put('k', { v: 'new' }, () => undefined);
    const waited = writes.written(before);
    await turn();
    batches[0]?.finish(new Error('disk full'));
    await expect(waited).rejects.toThrow('disk full');
    expect(await read(level, 'k')).toEqual({ v: 'old' });
    // A call that started before the refusal is told, whenever it asks; one that started after is not.
    await expect(writes.written(before)).rejects.toThrow('disk full');
    await expect(writes.written(writes.mark())).resolves.toBeUndefined();
    level.put('k2', { v: 1 }, () => undefined);
    await turn();
    batches[1]?.finish();
    await writes.written(writes.mark());
    expect(stored.get('k2')).toBe('{"v":1}');
  });

  it('writes dynalite’s own batches after the writes still on their way', async () => {
    const { level, batches } = fakeLevel();
    bufferWrites(level);
    level.put('item~a', { n: 1 }, () => undefined);
    await turn();
    const answered = done((callback) => level.batch([{ type: 'del', key: 'item~a' }], callback));
    await turn();
    expect(batches).toHaveLength(1);
    batches[0]?.finish();
    await turn();
    expect(batches.map((batch) => batch.writes.map((write) => `${write.type} ${write.key}`))).toEqual([['put item~a'], ['del item~a']]);
    expect(await settled(answered)).toBe(false);
    batches[1]?.finish();
    expect(await answered).toBeNull();
  });

  it('leaves calls before the database is open, and calls without a callback, to dynalite’s own path', () => {
    const opening = fakeLevel('opening');
    bufferWrites(opening.level);
    opening.level.put('a', {}, () => undefined);
    opening.level.get('a', () => undefined);
    const open = fakeLevel();
    bufferWrites(open.level);
    open.level.del('b');
    expect([...opening.direct, ...open.direct]).toEqual(['put a', 'get a', 'del b']);
    expect([...opening.batches, ...open.batches]).toEqual([]);
  });
});
