import { useId } from 'react';
import { $api, fieldError } from '../../../api/client';
import { Field } from '../../../ui/form';
import { browserTimeZone } from './next-times';
import { ScheduleFields } from './schedule-fields';
import type { Routine, TriggerKind } from './shared';

/** Schedule or webhook: what starts the routine (besides Run now). */
function TriggerChoice({ kind, onKind }: { kind: TriggerKind; onKind: (kind: TriggerKind) => void }) {
  const name = useId();
  return (
    <fieldset className="wc-fieldset rt-trigger">
      <legend>Runs</legend>
      <label className="rt-choice">
        <input type="radio" name={name} checked={kind === 'schedule'} onChange={() => onKind('schedule')} /> On a schedule
      </label>
      <label className="rt-choice">
        <input type="radio" name={name} checked={kind === 'webhook'} onChange={() => onKind('webhook')} /> When its webhook is called
        <span className="hint"> (a signed POST; the URL and its secret are shown once it is saved)</span>
      </label>
    </fieldset>
  );
}

/** Where the answer goes besides the conversation: the workspace's team-chat channels and a webhook URL. */
function DeliveryFields({ error, routine }: { error: unknown; routine?: Routine }) {
  const savedUrl = routine?.deliver_to.webhook_url;
  const channelError = fieldError(error, 'deliver_to.channel');
  return (
    <fieldset className="wc-fieldset">
      <legend>Where the answer goes</legend>
      <p className="hint">It always stays in the run's conversation.</p>
      <label className="rt-choice">
        <input type="checkbox" name="deliver_to.channel" defaultChecked={routine?.deliver_to.channel ?? false} /> Also post it to the
        workspace's team-chat channels
      </label>
      {channelError && <p className="field-error">{channelError}</p>}
      <Field
        label="Also POST it to this webhook URL"
        name="deliver_to.webhook_url"
        error={error}
        hint={
          savedUrl
            ? `Now ${savedUrl} (kept hidden): leave empty to keep it, or type a new one.`
            : 'Optional: http(s), checked by the address policy when it is used.'
        }
      >
        <input type="url" inputMode="url" autoComplete="off" placeholder="https://" />
      </Field>
      {savedUrl && (
        <label className="rt-choice">
          <input type="checkbox" name="remove_webhook_url" /> Stop posting to {savedUrl}
        </label>
      )}
    </fieldset>
  );
}

/** Who the routine runs as: the workspace's own consumer, or a person of the organisation (their permissions and grants). */
function RunAsField({ error, runAs }: { error: unknown; runAs: string | null }) {
  const users = $api.useQuery('get', '/api/org/users');
  const people = (users.data?.users ?? []).filter((user) => user.active || user.id === runAs);
  return (
    <Field
      label="Runs as"
      name="run_as"
      error={error}
      hint="A person's tool permissions, per-user grants and budget apply; a run stops if they are deactivated."
    >
      <select defaultValue={runAs ?? ''} key={users.data ? 'loaded' : 'loading'}>
        <option value="">The workspace (a member's permissions)</option>
        {people.map((user) => (
          <option key={user.id} value={user.id}>
            {user.name} ({user.email})
          </option>
        ))}
      </select>
    </Field>
  );
}

interface RoutineFieldsProps {
  error: unknown;
  kind: TriggerKind;
  onKind: (kind: TriggerKind) => void;
  routine?: Routine;
}

/** A routine's fields: name, prompt, trigger (with the schedule's next times), delivery and who it runs as. */
export function RoutineFields({ error, kind, onKind, routine }: RoutineFieldsProps) {
  const schedule = routine && !('webhook' in routine.trigger) ? routine.trigger : undefined;
  return (
    <>
      <Field label="Name" name="name" error={error} hint="What it does, in a few words (at most 100 characters).">
        <input defaultValue={routine?.name ?? ''} autoComplete="off" />
      </Field>
      <Field
        label="Prompt"
        name="prompt"
        error={error}
        hint="What the workspace is asked each time, with its tools (at most 8 000 characters)."
      >
        <textarea rows={4} defaultValue={routine?.prompt ?? ''} />
      </Field>
      <TriggerChoice kind={kind} onKind={onKind} />
      {kind === 'schedule' && (
        <ScheduleFields
          error={error}
          schedule={schedule?.schedule ?? '0 8 * * MON-FRI'}
          timezone={schedule?.timezone ?? browserTimeZone()}
        />
      )}
      <DeliveryFields error={error} routine={routine} />
      <RunAsField error={error} runAs={routine?.run_as ?? null} />
    </>
  );
}
