import type { Clock } from './clock.js';
import { errorMessage, TooManyRequestsError } from './errors.js';
import { requestRateKey } from './entities.js';
import type { AppLogger } from './logger.js';
import type { Table } from './table.js';
import { addToWindow } from './windows.js';

/*
 * Requests per minute of one organisation, or of one consumer key, on every authenticated route,
 * and an organisation's queries per minute:
 * a tenant that floods the API meets its own limit (429 with Retry-After), not the stage's throttle
 * that every tenant shares, nor the API function's reserved concurrency.
 *
 * Counted in the store, so that every process (every Lambda instance) sees the same minute, but not
 * with a write per request: each process counts its requests of the minute locally and adds them to
 * the store's count (`REQRATE#<scope>` / `M#<minute>`, one ADD) at most once a second per scope,
 * alongside the request that triggers it; the ADD answers the count of every process so far. A
 * request is refused when that count plus what this process admitted since passes the limit. So a
 * process may admit up to a second's worth of another's requests past the limit before it knows of
 * them: the limit is exact within one process, and close across many.
 */

/** The least time between two adds of one scope's count by one process. */
const FLUSH_MS = 1000;
/** Past this many scopes in memory, windows of past minutes are dropped. */
const PRUNE_AT = 10_000;

interface Window {
  minute: number;
  /** The store's count at the last add (every process's requests so far). */
  counted: number;
  /** Requests admitted by this process since the last add. */
  pending: number;
  addedAt: number;
  adding?: Promise<void>;
}

export class RequestRate {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
    private readonly logger: Pick<AppLogger, 'warn'>,
  ) {}

  /**
   * Admits one request of `scope` (`org:<id>`, `key:<id>`, `queries:<org>`) within `limit` a
   * minute, or throws 429 with `refusal`.
   * Answers the add of the count to the store when this request made one (to be awaited once the
   * request is answered, so that it is not left behind a frozen Lambda), else undefined. The add
   * never rejects: a count that could not be added is logged and added with the next, so a caller
   * that stops on another refusal leaves nothing unhandled behind.
   */
  admit(scope: string, limit: number, refusal: string): Promise<void> | undefined {
    const now = this.clock.now().getTime();
    const minute = Math.floor(now / 60_000);
    const window = this.windowOf(scope, minute);
    if (window.counted + window.pending + 1 > limit) {
      throw new TooManyRequestsError(refusal, Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)));
    }
    window.pending += 1;
    if (window.adding || now - window.addedAt < FLUSH_MS) return undefined;
    window.addedAt = now;
    const adding = this.add(scope, window).finally(() => {
      if (window.adding === adding) window.adding = undefined;
    });
    window.adding = adding;
    return adding;
  }

  private async add(scope: string, window: Window): Promise<void> {
    const added = window.pending;
    window.pending = 0;
    try {
      window.counted = await addToWindow(this.table, requestRateKey(scope, window.minute), added, (window.minute + 2) * 60);
    } catch (error) {
      // Not counted: counted at the next add.
      window.pending += added;
      this.logger.warn('a request count could not be added', { scope, error: errorMessage(error) });
    }
  }

  private windowOf(scope: string, minute: number): Window {
    const current = this.windows.get(scope);
    if (current && current.minute === minute) return current;
    if (this.windows.size >= PRUNE_AT) {
      for (const [name, window] of this.windows) if (window.minute < minute) this.windows.delete(name);
    }
    const fresh: Window = { minute, counted: 0, pending: 0, addedAt: 0 };
    this.windows.set(scope, fresh);
    return fresh;
  }
}
