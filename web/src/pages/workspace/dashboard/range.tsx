import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Schemas } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { Field, formValues } from '../../../ui/form';

/** The dashboard's query, as the API takes it. */
type RangeQuery = NonNullable<paths['/api/workspaces/{id}/dashboard']['get']['parameters']['query']>;
type Range = Schemas['Dashboard']['range'];

/** The presets: the last 7, 30 (the API's default, no params) and 90 days. */
const PRESETS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;

/** Today as a UTC date (`YYYY-MM-DD`): the dashboard's days are UTC days. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) - count * 86_400_000).toISOString().slice(0, 10);

/**
 * The days charted, from the address (`?from=2026-05-01&to=2026-05-07`, either one alone as the
 * API takes it): without either, the query has none, as the route's loader asks it (one key).
 */
export function useDayRange() {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const query: RangeQuery | undefined = from || to ? { ...(from ? { from } : {}), ...(to ? { to } : {}) } : undefined;
  const show = (next: { from?: string; to?: string }) =>
    setParams((previous) => {
      const edited = new URLSearchParams(previous);
      for (const name of ['from', 'to'] as const) {
        const value = next[name];
        if (value) edited.set(name, value);
        else edited.delete(name);
      }
      return edited;
    });
  return { query, from, to, show };
}

interface RangeControlProps {
  /** The days the last answer charted (undefined while the first one loads). */
  range: Range | undefined;
  /** The address's days, shown in the inputs until an answer says which days they were. */
  asked: { from: string; to: string };
  /** The last answer's error: a day the API refuses shows its message under its input. */
  error: unknown;
  onShow: (next: { from?: string; to?: string }) => void;
}

/** Presets of the last 7, 30 and 90 days, and any days from one date to another (90 at most). */
export function RangeControl({ range, asked, error, onShow }: RangeControlProps) {
  const today = todayUtc();
  const from = range?.from ?? asked.from;
  const to = range?.to ?? asked.to;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    const values = formValues(event);
    onShow({ from: values.from ?? '', to: values.to ?? '' });
  };
  return (
    // Keyed by the days shown, so the inputs take them once an answer (or a preset) changes them.
    <form key={`${from}/${to}`} className="card range-control" aria-label="Days charted" noValidate onSubmit={submit}>
      <fieldset className="range-presets">
        <legend>Days charted</legend>
        {PRESETS.map((days) => {
          const pressed = range !== undefined && range.days === days && range.to === today;
          return (
            <button
              key={days}
              type="button"
              className="button secondary"
              aria-pressed={pressed}
              onClick={() => onShow(days === DEFAULT_DAYS ? {} : { from: daysBefore(today, days - 1), to: today })}
            >
              Last {days} days
            </button>
          );
        })}
      </fieldset>
      <Field label="From" name="from" error={error}>
        <input type="date" defaultValue={from} max={today} />
      </Field>
      <Field label="To" name="to" error={error} hint="UTC days, both included; 90 at most.">
        <input type="date" defaultValue={to} />
      </Field>
      <div className="actions">
        <button type="submit" className="button secondary">
          Show these days
        </button>
      </div>
    </form>
  );
}
