import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobMessage } from '../../shared/jobs/ledger.js';
import { DueIndexScheduler } from '../../shared/jobs/scheduler.js';
import { wallClock } from '../support/clock.js';

// Fake timers drive both setTimeout and the clock the scheduler reads (Date.now).
const clock = { now: () => wallClock.now() };
const message: JobMessage = { jobId: 'j', queue: 'lifecycle', orgId: 'o', data: {} };
const START = new Date('2026-11-22T10:00:00.000Z').getTime();
const at = (seconds: number) => new Date(START + seconds * 1000);

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A scheduler whose wake-ups are recorded, answering the next due times given in order. */
function scheduler(nextTimes: (Date | undefined | Error)[] = []) {
  const wakes: number[] = [];
  const errors: unknown[] = [];
  const due = new DueIndexScheduler(
    clock,
    async (now) => {
      wakes.push((now.getTime() - START) / 1000);
      const next = nextTimes.shift();
      if (next instanceof Error) throw next;
      return next;
    },
    (error) => errors.push(error),
  );
  return { due, wakes, errors };
}

describe('DueIndexScheduler', () => {
  it('holds one timer, for the earliest time it was given, however many schedules it gets', async () => {
    const { due, wakes } = scheduler();
    await due.schedule('early', at(30), message);
    for (let index = 0; index < 1000; index += 1) await due.schedule(`cold-${index}`, at(60 + index), message);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(wakes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(wakes).toEqual([30]);
    await due.stop();
  });

  it('arms again for the next due time the wake-up answers, and sleeps when none is pending', async () => {
    const { due, wakes } = scheduler([at(45), at(90), undefined]);
    await due.schedule('a', at(10), message);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.advanceTimersByTimeAsync(35_000);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(wakes).toEqual([10, 45, 90]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(wakes).toEqual([10, 45, 90]);
  });

  it('sends moves falling due milliseconds apart together: at most one wake-up a second', async () => {
    // Under load, conversations go cold a few milliseconds apart: each wake-up answers a next due time 5 ms on.
    const wakes: number[] = [];
    const due = new DueIndexScheduler(
      clock,
      async (now) => {
        wakes.push(now.getTime() - START);
        return new Date(now.getTime() + 5);
      },
      () => {},
    );
    await due.schedule('a', at(1), message);
    await vi.advanceTimersByTimeAsync(1_000 + 10_000);
    expect(wakes).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000, 11_000]);
    await due.stop();
  });

  it('keeps an earlier schedule made while a wake-up is running', async () => {
    let release: (next: Date) => void = () => {};
    const wakes: number[] = [];
    const due = new DueIndexScheduler(
      clock,
      (now) => {
        wakes.push((now.getTime() - START) / 1000);
        return wakes.length === 1 ? new Promise<Date>((resolve) => (release = resolve)) : Promise.resolve(undefined);
      },
      () => {},
    );
    await due.schedule('a', at(5), message);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(wakes).toEqual([5]);
    // While the first wake-up is still reading the index, a conversation due at 20 s is scheduled;
    // the wake-up then answers a later time (600 s), which must not replace the 20 s timer.
    await due.schedule('b', at(20), message);
    release(at(600));
    await vi.advanceTimersByTimeAsync(15_000);
    expect(wakes).toEqual([5, 20]);
    await due.stop();
  });

  it('tries again after a failed wake-up and reports the error', async () => {
    const { due, wakes, errors } = scheduler([new Error('store unreachable'), undefined]);
    await due.schedule('a', at(1), message);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('store unreachable');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(wakes).toEqual([1, 6]);
    await due.stop();
  });

  it('wakes at once on wakeNow (start, the backstop sweep), ahead of any later timer', async () => {
    const { due, wakes } = scheduler();
    await due.schedule('a', at(3600), message);
    due.wakeNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(wakes).toEqual([0]);
    await due.stop();
  });

  it('sleeps past the longest setTimeout (about 24.8 days) without waking early', async () => {
    const { due, wakes } = scheduler();
    const days40 = 40 * 86_400;
    await due.schedule('a', at(days40), message);
    await vi.advanceTimersByTimeAsync(30 * 86_400_000);
    expect(wakes).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * 86_400_000);
    expect(wakes).toEqual([days40]);
    await due.stop();
  });

  it('waits, when stopped, for a wake-up under way (it still reads the store)', async () => {
    let release: () => void = () => {};
    let finished = false;
    const due = new DueIndexScheduler(
      clock,
      () =>
        new Promise<undefined>((resolve) => {
          release = () => {
            finished = true;
            resolve(undefined);
          };
        }),
      () => {},
    );
    due.wakeNow();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = due.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
  });

  it('does nothing once stopped', async () => {
    const { due, wakes } = scheduler();
    await due.schedule('a', at(1), message);
    await due.stop();
    await due.schedule('b', at(2), message);
    due.wakeNow();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(wakes).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
