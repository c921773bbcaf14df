/** The time source. Production uses the system clock; tests inject one they can move. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO date `YYYY-MM-DD` (UTC) of an instant. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** ISO month `YYYY-MM` (UTC) of an instant. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The `count` days ending with `date`'s day, oldest first, as `YYYY-MM-DD`. */
export function daysEndingOn(date: Date, count: number): string[] {
  const days: string[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    days.push(dayOf(new Date(date.getTime() - back * 86_400_000)));
  }
  return days;
}
