const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const whole = new Intl.NumberFormat('en-US');
const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** US dollars, with up to 4 decimals (a query costs fractions of a cent). */
export const money = (value: number | null | undefined) => (value === null || value === undefined ? '—' : usd.format(value));

/** A whole number with separators. */
export const count = (value: number | null | undefined) => (value === null || value === undefined ? '—' : whole.format(value));

/** A date and time in the reader's time zone. */
export const dateTime = (value: string | null | undefined) => (value ? when.format(new Date(value)) : '—');

/** A duration: "850 ms", "2.4 s". */
export const duration = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** A share as a percentage: 0.25 → "25%". */
export const percent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`);
