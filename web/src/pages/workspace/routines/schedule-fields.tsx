import { useEffect, useId, useMemo, useState } from 'react';
import { Field } from '../../../ui/form';
import { type NextTimes, nextTimes, timeIn, timeZones } from './next-times';

/** The next five times of `schedule` in `timezone`, worked out again as either changes. */
function useNextTimes(schedule: string, timezone: string): NextTimes | undefined {
  const [result, setResult] = useState<NextTimes>();
  useEffect(() => {
    let current = true;
    nextTimes(schedule, timezone, new Date()).then(
      (next) => current && setResult(next),
      // croner's chunk could not be loaded (the network): the service still checks on saving.
      () => current && setResult({ problem: 'the next times could not be worked out here; saving checks the schedule' }),
    );
    return () => {
      current = false;
    };
  }, [schedule, timezone]);
  return result;
}

/** The next five times, in the routine's zone: a list the reader hears as it changes. */
function NextRuns({ schedule, timezone }: { schedule: string; timezone: string }) {
  const headingId = useId();
  const next = useNextTimes(schedule, timezone);
  return (
    <div className="rt-next" aria-live="polite">
      <p className="rt-next-title" id={headingId}>
        Next five runs in {timezone}
      </p>
      {next === undefined ? (
        <p className="hint">Working them out…</p>
      ) : 'problem' in next ? (
        <p className="hint">Not a schedule yet: {next.problem}.</p>
      ) : (
        <ol aria-labelledby={headingId}>
          {next.times.map((time) => (
            <li key={time.getTime()}>
              <time dateTime={time.toISOString()}>{timeIn(time, timezone)}</time>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

interface ScheduleFieldsProps {
  error: unknown;
  schedule: string;
  timezone: string;
}

/** A schedule's expression and time zone, with the next five times it gives as they are typed. */
export function ScheduleFields({ error, schedule: initialSchedule, timezone: initialZone }: ScheduleFieldsProps) {
  const [schedule, setSchedule] = useState(initialSchedule);
  const [timezone, setTimezone] = useState(initialZone);
  const zones = useMemo(() => timeZones(initialZone), [initialZone]);
  return (
    <div className="rt-schedule">
      <div className="rt-schedule-fields">
        <Field
          label="Schedule"
          name="trigger.schedule"
          error={error}
          hint={
            <>
              Cron (<code>minute hour day-of-month month day-of-week</code>, e.g. <code>0 8 * * MON-FRI</code>) or{' '}
              <code>rate(15 minutes)</code>; at most once a minute.
            </>
          }
        >
          <input
            value={schedule}
            onChange={(event) => setSchedule(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            className="rt-mono"
          />
        </Field>
        <Field label="Time zone" name="trigger.timezone" error={error} hint="The zone the cron expression is read in.">
          <select value={timezone} onChange={(event) => setTimezone(event.target.value)}>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <NextRuns schedule={schedule} timezone={timezone} />
    </div>
  );
}
