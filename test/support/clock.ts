import type { Clock } from '../../shared/platform/clock.js';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-11-22T10:00:00.000Z') {
    this.current = new Date(start).getTime();
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
