import { describe, expect, it } from 'vitest';
import { BriefCache } from '../../shared/platform/brief-cache.js';

/** A cache on a clock the test moves, and a store whose reads it counts and can hold or fail. */
function setUp() {
  let time = 1_000;
  const failures: unknown[] = [];
  const cache = new BriefCache<string>(5_000, (error) => failures.push(error), { now: () => time });
  let reads = 0;
  let stored = 'v1';
  let held: (() => void) | undefined;
  let failNext = false;
  const load = () => {
    reads += 1;
    const value = stored;
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error('store unavailable'));
    }
    if (!held) return Promise.resolve(value);
    return new Promise<string>((resolve) => {
      const release = held;
      held = () => {
        release?.();
        resolve(value);
      };
    });
  };
  return {
    cache,
    failures,
    load,
    advance: (ms: number) => (time += ms),
    store: (value: string) => (stored = value),
    reads: () => reads,
    hold: () => (held = () => {}),
    release: () => {
      const release = held;
      held = undefined;
      release?.();
    },
    failNextRead: () => (failNext = true),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BriefCache', () => {
  it('reads once, then serves the value without reading while it is young', async () => {
    const t = setUp();
    expect(await t.cache.read('k', t.load)).toBe('v1');
    t.store('v2');
    t.advance(2_000);
    expect(await t.cache.read('k', t.load)).toBe('v1');
    expect(t.reads()).toBe(1);
  });

  it('past half its life serves the cached value and reads again behind it, so the next request sees the new one', async () => {
    const t = setUp();
    await t.cache.read('k', t.load);
    t.store('v2');
    t.advance(3_000);
    expect(await t.cache.read('k', t.load)).toBe('v1');
    expect(t.reads()).toBe(2);
    await settle();
    expect(await t.cache.read('k', t.load)).toBe('v2');
    expect(t.reads()).toBe(2);
  });

  it('never serves a value past its life: the request waits for the read', async () => {
    const t = setUp();
    await t.cache.read('k', t.load);
    t.store('v2');
    t.advance(5_001);
    expect(await t.cache.read('k', t.load)).toBe('v2');
    expect(t.reads()).toBe(2);
  });

  it('shares one read among the requests that ask at once', async () => {
    const t = setUp();
    const values = await Promise.all([t.cache.read('k', t.load), t.cache.read('k', t.load), t.cache.read('k', t.load)]);
    expect(values).toEqual(['v1', 'v1', 'v1']);
    expect(t.reads()).toBe(1);
  });

  it('forgets at once, and a read begun before the forget stores nothing', async () => {
    const t = setUp();
    await t.cache.read('k', t.load);
    t.advance(3_000);
    t.hold();
    // Past half its life: a read behind the request starts and is held, reading v1.
    expect(await t.cache.read('k', t.load)).toBe('v1');
    t.store('revoked');
    t.cache.forget(() => true);
    t.release();
    await settle();
    // The held read finished after the forget: its v1 was not stored, so this reads again.
    expect(await t.cache.read('k', t.load)).toBe('revoked');
    expect(t.reads()).toBe(3);
  });

  it('forgets only what the predicate picks', async () => {
    const t = setUp();
    await t.cache.read('a', t.load);
    await t.cache.read('b', t.load);
    t.cache.forget((_value, key) => key === 'a');
    await t.cache.read('a', t.load);
    await t.cache.read('b', t.load);
    expect(t.reads()).toBe(3);
  });

  it('forgets one key at once (forgetKey), and a read of it begun before stores nothing', async () => {
    const t = setUp();
    await t.cache.read('b', t.load);
    t.hold();
    const reading = t.cache.read('a', t.load);
    t.cache.forgetKey('a');
    t.release();
    expect(await reading).toBe('v1');
    t.store('v2');
    expect(await t.cache.read('a', t.load)).toBe('v2');
    expect(await t.cache.read('b', t.load)).toBe('v1');
    expect(t.reads()).toBe(3);
  });

  it('keeps serving the value when the read behind fails, reports it, and reads again on the next request', async () => {
    const t = setUp();
    await t.cache.read('k', t.load);
    t.advance(3_000);
    t.failNextRead();
    expect(await t.cache.read('k', t.load)).toBe('v1');
    await settle();
    expect(t.failures).toHaveLength(1);
    expect(String(t.failures[0])).toContain('store unavailable');
    expect(await t.cache.read('k', t.load)).toBe('v1');
    expect(t.reads()).toBe(3);
  });

  it('a failed read with nothing cached fails the request', async () => {
    const t = setUp();
    t.failNextRead();
    await expect(t.cache.read('k', t.load)).rejects.toThrow('store unavailable');
    expect(await t.cache.read('k', t.load)).toBe('v1');
  });

  it('holds at most `max` entries, the least recently used dropped first', async () => {
    let reads = 0;
    const cache = new BriefCache<string>(5_000, () => {}, { max: 3 });
    const load = (key: string) => () => {
      reads += 1;
      return Promise.resolve(key);
    };
    for (const key of ['a', 'b', 'c', 'd']) await cache.read(key, load(key));
    expect(reads).toBe(4);
    await cache.read('d', load('d'));
    expect(reads).toBe(4);
    await cache.read('a', load('a'));
    expect(reads).toBe(5);
  });
});
