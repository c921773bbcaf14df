import { LRUCache } from 'lru-cache';

/**
 * What a process read of the store, trusted for `ttlMs` after the read and never longer. Past half
 * that life an entry is still served, and read again behind the request that used it (one read at
 * a time per key), so a key in steady use never waits for its read: the authentication of a
 * request costs no round of its own (docs/performance.md). Bounded: the least recently used go
 * first, so a flood of unknown keys cannot grow it.
 *
 * `forget` drops entries at once, and no read begun before it stores its result: a change this
 * process makes (a revoked key or session) holds here on the next request; other processes see it
 * within `ttlMs`.
 */
export class BriefCache<V> {
  private readonly entries: LRUCache<string, { value: V }>;
  private readonly reading = new Map<string, Promise<V>>();
  /** Moves on at each `forget`: a read begun under an older one stores nothing. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    /** What a read behind a request that fails does (the next request reads again). */
    private readonly onRefreshFailed: (error: unknown) => void,
    /** `max` entries (10 000); `now`: the clock of their ages, in ms (`performance.now`; tests pass their own). */
    { max = 10_000, now }: { max?: number; now?: () => number } = {},
  ) {
    this.entries = new LRUCache({ max, ttl: ttlMs, ...(now ? { perf: { now } } : {}) });
  }

  /** The value of `key`: cached if read less than `ttlMs` ago (then read again behind, past half of it), else read now. */
  async read(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (!entry) return this.load(key, load);
    if (this.entries.getRemainingTTL(key) < this.ttlMs / 2) this.load(key, load).catch(this.onRefreshFailed);
    return entry.value;
  }

  /** Drops the entries `matches` picks, and makes every read under way store nothing. */
  forget(matches: (value: V, key: string) => boolean): void {
    this.generation += 1;
    this.reading.clear();
    for (const [key, entry] of this.entries.entries()) {
      if (matches(entry.value, key)) this.entries.delete(key);
    }
  }

  /** Drops the entry of `key`, and makes every read under way store nothing. */
  forgetKey(key: string): void {
    this.generation += 1;
    this.reading.clear();
    this.entries.delete(key);
  }

  private load(key: string, load: () => Promise<V>): Promise<V> {
    const under = this.reading.get(key);
    if (under) return under;
    const generation = this.generation;
    const reading = load()
      .then((value) => {
        if (generation === this.generation) this.entries.set(key, { value });
        return value;
      })
      .finally(() => {
        if (this.reading.get(key) === reading) this.reading.delete(key);
      });
    this.reading.set(key, reading);
    return reading;
  }
}
