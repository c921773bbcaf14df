import type { Clock } from '../../shared/platform/clock.js';

/*
 * Time in tests. The service under test reads an injected clock (`TestClock`); a test reads the same
 * clock, never the machine's, so a test means the same on any day of any year. `npm run lint`
 * (scripts/test-clock.ts) refuses `new Date()` and `Date.now()` anywhere else in `test/`.
 * `TEST_CLOCK_START` moves the tests' start (e.g. to the last second of a year, or to 29 February).
 */

const DEFAULT_START = '2026-11-22T10:00:00.000Z';

/** Where every test clock starts: `TEST_CLOCK_START` when set, else a fixed Sunday in November. */
const TEST_CLOCK_START = process.env.TEST_CLOCK_START || DEFAULT_START;

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = TEST_CLOCK_START) {
    this.current = new Date(start).getTime();
    if (Number.isNaN(this.current)) throw new Error(`TestClock: not a time: ${String(start)}`);
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(date: Date | string): void {
    this.current = new Date(date).getTime();
  }
}

/**
 * The machine's time, only for what runs in real time and so cannot take a test clock: a runtime in
 * a child process, real timers and deadlines, a fake external server's own clock (an identity
 * provider's token lifetimes, a chat platform's message stamps), and Vitest's fake timers.
 */
export const wallClock = {
  now: (): Date => new Date(),
  ms: (): number => Date.now(),
};
