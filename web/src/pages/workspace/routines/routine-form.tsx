import { useState } from 'react';
import { $api } from '../../../api/client';
import { ActionForm } from '../../../ui/form';
import { RoutineFields } from './routine-fields';
import { createBodyOf, type Routine, type TriggerKind, triggerKindOf, updateBodyOf, useRefreshRoutines } from './shared';

/** What a save answered: the routine, and a webhook's secret the one time it is made. */
export interface Saved {
  routine: Routine;
  secret?: string;
}

/** An admin adds a routine; a webhook routine's URL and secret are shown once it is made. */
export function NewRoutine({
  workspaceId,
  onSaved,
  onCancel,
}: {
  workspaceId: string;
  onSaved: (saved: Saved) => void;
  onCancel: () => void;
}) {
  const refresh = useRefreshRoutines();
  const [kind, setKind] = useState<TriggerKind>('schedule');
  const create = $api.useMutation('post', '/api/workspaces/{id}/routines', {
    onSuccess: async (data) => {
      await refresh();
      onSaved(data);
    },
  });
  return (
    <ActionForm
      className="card form rt-form"
      label="New routine"
      heading={2}
      error={create.error}
      onSubmit={(values) => create.mutate({ params: { path: { id: workspaceId } }, body: createBodyOf(values, kind) })}
      submit="Create routine"
      busy="Creating"
      pending={create.isPending}
      onCancel={onCancel}
    >
      <RoutineFields error={create.error} kind={kind} onKind={setKind} />
    </ActionForm>
  );
}

interface EditRoutineProps {
  workspaceId: string;
  routine: Routine;
  onSaved: (saved: Saved) => void;
  onCancel: () => void;
}

/** An admin changes a routine; switched to a webhook, its new secret is shown once. */
export function EditRoutine({ workspaceId, routine, onSaved, onCancel }: EditRoutineProps) {
  const refresh = useRefreshRoutines();
  const [kind, setKind] = useState<TriggerKind>(triggerKindOf(routine));
  const update = $api.useMutation('put', '/api/workspaces/{id}/routines/{routine_id}', {
    onSuccess: async (data) => {
      await refresh();
      onSaved(data);
    },
  });
  return (
    <ActionForm
      className="card form rt-form"
      label={`Edit ${routine.name}`}
      heading={3}
      title="Edit the routine"
      error={update.error}
      onSubmit={(values) =>
        update.mutate({
          params: { path: { id: workspaceId, routine_id: routine.id } },
          body: updateBodyOf(values, kind, routine),
        })
      }
      submit="Save routine"
      pending={update.isPending}
      onCancel={onCancel}
    >
      <RoutineFields error={update.error} kind={kind} onKind={setKind} routine={routine} />
    </ActionForm>
  );
}
