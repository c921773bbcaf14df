import { type Schemas, useRefresh } from '../../../api/client';

export type Routine = Schemas['Routine'];
export type RoutineRun = Schemas['RoutineRun'];
type CreateRoutine = Schemas['CreateRoutine'];
type UpdateRoutine = Schemas['UpdateRoutine'];
export type TriggerKind = 'schedule' | 'webhook';

/** How often the list and a history are asked again while a run is queued or running. */
export const POLL_EVERY_MS = 1_500;

/** A routine's changes show in the list (next run, last outcome) and in its history. */
export const useRefreshRoutines = () => useRefresh('/api/workspaces/{id}/routines', '/api/workspaces/{id}/routines/{routine_id}/runs');

/** Whether a run is over (done or failed): it is asked about no more. A run waiting for an approval waits on a person. */
export const isSettled = (run: Pick<RoutineRun, 'status'>) => run.status !== 'queued' && run.status !== 'running';

export const triggerKindOf = (routine: Routine): TriggerKind => ('webhook' in routine.trigger ? 'webhook' : 'schedule');

/** A routine's page address: the list with its history and settings open under it. */
export const routinePath = (workspaceId: string, routineId: string) => `/workspaces/${workspaceId}/routines?routine=${routineId}`;

/** The URL a webhook routine is called at, on this origin. */
export const hookUrlOf = (hookPath: string) => `${window.location.origin}${hookPath}`;

/** The trigger a form's values describe. */
function triggerOf(values: Record<string, string>, kind: TriggerKind): CreateRoutine['trigger'] {
  if (kind === 'webhook') return { webhook: true };
  return { schedule: values['trigger.schedule'] ?? '', timezone: values['trigger.timezone'] || 'UTC' };
}

/** A new routine from the form's values. */
export function createBodyOf(values: Record<string, string>, kind: TriggerKind): CreateRoutine {
  const webhookUrl = values['deliver_to.webhook_url']?.trim();
  return {
    name: values.name ?? '',
    prompt: values.prompt ?? '',
    trigger: triggerOf(values, kind),
    deliver_to: { channel: values['deliver_to.channel'] === 'on', ...(webhookUrl ? { webhook_url: webhookUrl } : {}) },
    run_as: values.run_as || null,
  };
}

const sameTrigger = (a: CreateRoutine['trigger'], b: Routine['trigger']) =>
  'webhook' in a ? 'webhook' in b : !('webhook' in b) && a.schedule.trim() === b.schedule && a.timezone === b.timezone;

/**
 * A routine's changes from the edit form's values. The trigger is sent only when it changed: a
 * trigger sent again would restart a rate's count. The webhook URL is read back masked, so the
 * field starts empty: empty keeps the one saved, a URL replaces it, "remove" takes it away.
 */
export function updateBodyOf(values: Record<string, string>, kind: TriggerKind, routine: Routine): UpdateRoutine {
  const trigger = triggerOf(values, kind);
  const webhookUrl = values['deliver_to.webhook_url']?.trim();
  const removeUrl = values.remove_webhook_url === 'on';
  return {
    name: values.name ?? '',
    prompt: values.prompt ?? '',
    ...(sameTrigger(trigger, routine.trigger) ? {} : { trigger }),
    deliver_to: {
      channel: values['deliver_to.channel'] === 'on',
      ...(webhookUrl ? { webhook_url: webhookUrl } : removeUrl ? { webhook_url: null } : {}),
    },
    run_as: values.run_as || null,
  };
}

/** The curl command that signs a delivery with openssl, as docs/routines.md shows it. */
export function curlExample(hookUrl: string, secret: string): string {
  return [
    `SECRET='${secret}'`,
    `BODY='{"event":"test","text":"Hello from curl"}'`,
    'TS=$(date +%s)',
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')`,
    `curl -s -X POST '${hookUrl}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -H "X-Timestamp: $TS" -H "X-Delivery-Id: test-$TS" \\`,
    `  -H "X-Signature-256: sha256=$SIG" \\`,
    `  --data-binary "$BODY"`,
  ].join('\n');
}
