import { useState } from 'react';
import { $api } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { Field } from '../../../ui/form';
import { RowError } from '../../../ui/states';
import type { Saved } from './routine-form';
import { type Routine, useRefreshRoutines } from './shared';

/** How long the old secret may keep working, as the dialog offers it (`keep_old_for_minutes`). */
const KEEP_OLD = [
  { minutes: 0, label: 'Stops working at once' },
  { minutes: 60, label: 'Keeps working for 1 hour' },
  { minutes: 1440, label: 'Keeps working for 24 hours' },
] as const;

interface RotateSecretProps {
  workspaceId: string;
  routine: Routine;
  /** The new secret, to be shown once as at creation; `keptMinutes` how long the old one still works. */
  onRotated: (saved: Required<Saved>, keptMinutes: number) => void;
}

/**
 * Rotate secret (`POST …/routines/:routine_id/secret`), after a confirmation that also asks how
 * long the old secret keeps working, so the senders can be moved to the new one in that time.
 */
export function RotateSecret({ workspaceId, routine, onRotated }: RotateSecretProps) {
  const refresh = useRefreshRoutines();
  const [keep, setKeep] = useState(0);
  const rotate = $api.useMutation('post', '/api/workspaces/{id}/routines/{routine_id}/secret', {
    onSuccess: async (data, variables) => {
      await refresh();
      onRotated(data, variables.body?.keep_old_for_minutes ?? 0);
    },
  });
  return (
    <>
      <ConfirmButton
        title={`Rotate the secret of ${routine.name}?`}
        description={
          <>
            <p>A new signing secret is made and shown once. Requests signed with the old one are refused once it stops working.</p>
            <Field label="The old secret" name="keep_old_for_minutes">
              <select value={keep} onChange={(event) => setKeep(Number(event.target.value))}>
                {KEEP_OLD.map((option) => (
                  <option key={option.minutes} value={option.minutes}>
                    {option.label}
                  </option>
                ))}
              </select>
            </Field>
          </>
        }
        confirmLabel="Rotate secret"
        danger={false}
        disabled={rotate.isPending}
        onConfirm={() =>
          rotate.mutate({ params: { path: { id: workspaceId, routine_id: routine.id } }, body: { keep_old_for_minutes: keep } })
        }
      >
        {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
        <span className="visually-hidden"> of {routine.name}</span>
      </ConfirmButton>
      <RowError error={rotate.error} />
    </>
  );
}
