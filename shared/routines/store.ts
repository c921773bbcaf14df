import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import { isActive, MASK, userKey, type UserItem } from '../org/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { conditionHeld, onConditionFailed, type Key } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import {
  newRoutineItem,
  routineAbsent,
  routineChange,
  routineCounted,
  routineExists,
  routineKey,
  routinesOfWorkspace,
  routineUncounted,
  secretRotated,
  type RoutineFields,
} from './entities.js';
import { syncSchedule, unschedule } from './fire-message.js';
import { nextRunAfter, scheduleProblem } from './schedule.js';
import { MAX_ROUTINES_PER_ORG, type CreateRoutineInput, type RoutineView, type UpdateRoutineInput } from './schemas.js';

/*
 * Routines as their admins make them (entities.ts has their items). The webhook URL and the
 * webhook's secret are sealed (platform/secrets.ts) bound to the routine, so neither is in the table
 * in plaintext; the secret is answered once, when it is made or rotated. A routine's schedule is kept with the
 * scheduler port as it changes (fire-message.ts): a recurring EventBridge schedule on AWS, the due
 * index and a timer locally.
 */

export interface RoutineItem extends Key, RoutineFields {
  last_run?: RoutineView['last_run'];
}

const secretContext = (orgId: string, routineId: string) => `routine:${orgId}:${routineId}:secret`;
const urlContext = (orgId: string, routineId: string) => `routine:${orgId}:${routineId}:webhook_url`;

/** A routine by its id alone (its webhook's and its jobs' read), or undefined. */
export function findRoutine(deps: Pick<Deps, 'table'>, routineId: string): Promise<RoutineItem | undefined> {
  return deps.table.get<RoutineItem>(routineKey(routineId), true);
}

/** A routine of the workspace; another organisation's or workspace's is 404, as a missing one. */
export async function getRoutine(deps: Deps, orgId: string, workspaceId: string, routineId: string): Promise<RoutineItem> {
  const item = await findRoutine(deps, routineId);
  if (!item || item.org_id !== orgId || item.workspace_id !== workspaceId) throw new NotFoundError(`routine ${routineId} not found`);
  return item;
}

export async function listRoutines(deps: Deps, orgId: string, workspaceId: string): Promise<RoutineItem[]> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  return deps.table.queryAll<RoutineItem>(routinesOfWorkspace(orgId, workspaceId));
}

/** The delivery URL in plaintext, for the delivery job. */
export function openWebhookUrl(deps: Pick<Deps, 'secrets'>, routine: RoutineItem): Promise<string | undefined> {
  return routine.webhook_url ? deps.secrets.open(routine.webhook_url, urlContext(routine.org_id, routine.id)) : Promise.resolve(undefined);
}

/** `run_as` must name a user of the organisation who is active now. */
async function checkRunAs(deps: Deps, orgId: string, runAs: string | null | undefined): Promise<void> {
  if (!runAs) return;
  const user = await deps.table.get<UserItem>(userKey(orgId, runAs));
  if (!user) throw new ValidationError('invalid request body', [{ path: 'run_as', message: 'must be a user of this organisation' }]);
  if (!isActive(user)) throw new ValidationError('invalid request body', [{ path: 'run_as', message: 'this user is deactivated' }]);
}

/** The next scheduled run of a routine's fields after `after` (none: a webhook routine, or paused). */
function nextRunOf(fields: Pick<RoutineFields, 'schedule' | 'timezone' | 'anchor_at' | 'enabled'>, after: Date): string | null {
  if (!fields.schedule || !fields.enabled) return null;
  const next = nextRunAfter({ schedule: fields.schedule, timezone: fields.timezone ?? 'UTC' }, new Date(fields.anchor_at), after);
  return next ? next.toISOString() : null;
}

/** A 400 for a schedule croner cannot read or that never fires (the request schema checked its shape). */
function assertScheduleReads(trigger: CreateRoutineInput['trigger'] | undefined, now: Date): void {
  if (!trigger || 'webhook' in trigger) return;
  const problem = scheduleProblem({ schedule: trigger.schedule, timezone: trigger.timezone }, now);
  if (problem) throw new ValidationError('invalid request body', [{ path: 'trigger.schedule', message: problem }]);
}

/** The trigger's fields: a schedule and its zone, or the webhook (a rate counts from `anchor`, its minute). */
function triggerFields(trigger: CreateRoutineInput['trigger'], anchor: Date) {
  const minute = new Date(Math.floor(anchor.getTime() / 60_000) * 60_000).toISOString();
  if ('webhook' in trigger) return { webhook: true, schedule: undefined, timezone: undefined, anchor_at: minute };
  return { webhook: false, schedule: trigger.schedule, timezone: trigger.timezone, anchor_at: minute };
}

async function sealedUrl(deps: Deps, orgId: string, routineId: string, url: string | null | undefined) {
  if (!url) return { webhook_url: null, webhook_origin: null };
  return { webhook_url: await deps.secrets.seal(url, urlContext(orgId, routineId)), webhook_origin: new URL(url).origin };
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * What a change writes of the webhook's secrets: nothing while it stays a webhook routine with its
 * secret (a rotation since it was read keeps its own), a new one sealed, or none for a schedule.
 */
async function secretChange(deps: Deps, routine: RoutineItem, webhook: boolean, made: string | undefined) {
  if (webhook && !made) return {};
  const secret = made ? await deps.secrets.seal(made, secretContext(routine.org_id, routine.id)) : null;
  return { secret, previous_secret: null, previous_secret_until: null };
}

/**
 * `POST …/routines`: a routine, counted in its organisation (409 past `MAX_ROUTINES_PER_ORG`), and
 * its schedule made. Answers its webhook's secret once, for a webhook routine.
 */
export async function createRoutine(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  input: CreateRoutineInput,
): Promise<{ routine: RoutineItem; secret?: string }> {
  const now = deps.clock.now();
  assertScheduleReads(input.trigger, now);
  await Promise.all([getWorkspaceItem(deps, orgId, workspaceId), checkRunAs(deps, orgId, input.run_as)]);
  const id = newId('rtn', now);
  const trigger = triggerFields(input.trigger, now);
  const secret = trigger.webhook ? newSecret() : undefined;
  const enabled = input.enabled ?? true;
  const fields: RoutineFields = {
    id,
    org_id: orgId,
    workspace_id: workspaceId,
    name: input.name,
    prompt: input.prompt,
    ...trigger,
    deliver_channel: input.deliver_to?.channel ?? false,
    ...(await sealedUrl(deps, orgId, id, input.deliver_to?.webhook_url)),
    secret: secret ? await deps.secrets.seal(secret, secretContext(orgId, id)) : null,
    run_as: input.run_as ?? null,
    enabled,
    next_run_at: nextRunOf({ ...trigger, enabled }, now),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const counted = routineCounted(orgId);
  const placed = await conditionHeld(deps.table.update(counted.key, counted.input));
  if (!placed) throw new ConflictError(`an organisation may have at most ${MAX_ROUTINES_PER_ORG} routines: delete one first`);
  const item: RoutineItem = newRoutineItem(fields);
  try {
    await deps.table.put(item, routineAbsent());
    await syncSchedule(deps, item);
  } catch (error) {
    // Nothing half made: the routine and its place go (a schedule that was made fires into a missing routine, which does nothing).
    await deps.table.delete(routineKey(id)).catch(() => undefined);
    const uncounted = routineUncounted(orgId);
    await deps.table.update(uncounted.key, uncounted.input).catch(() => undefined);
    throw error;
  }
  return { routine: item, ...(secret ? { secret } : {}) };
}

/** `PUT …/routines/:routine_id`: replaces what is given; a new trigger moves its schedule (and a new webhook routine gets a secret). */
export async function updateRoutine(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  routineId: string,
  input: UpdateRoutineInput,
): Promise<{ routine: RoutineItem; secret?: string }> {
  const now = deps.clock.now();
  assertScheduleReads(input.trigger, now);
  const current = await getRoutine(deps, orgId, workspaceId, routineId);
  if (input.run_as !== undefined) await checkRunAs(deps, orgId, input.run_as);
  const trigger = input.trigger
    ? triggerFields(input.trigger, now)
    : { webhook: current.webhook, schedule: current.schedule, timezone: current.timezone, anchor_at: current.anchor_at };
  const secret = trigger.webhook && !current.secret ? newSecret() : undefined;
  const enabled = input.enabled ?? current.enabled;
  const url =
    input.deliver_to?.webhook_url !== undefined
      ? await sealedUrl(deps, orgId, routineId, input.deliver_to.webhook_url)
      : { webhook_url: current.webhook_url, webhook_origin: current.webhook_origin };
  const { secret: _kept, previous_secret: _previous, previous_secret_until: _until, ...rest } = current;
  const fields = {
    ...rest,
    name: input.name ?? current.name,
    prompt: input.prompt ?? current.prompt,
    ...trigger,
    deliver_channel: input.deliver_to?.channel ?? current.deliver_channel,
    ...url,
    ...(await secretChange(deps, current, trigger.webhook, secret)),
    run_as: input.run_as !== undefined ? input.run_as : current.run_as,
    enabled,
    next_run_at: nextRunOf({ ...trigger, enabled }, now),
    updated_at: now.toISOString(),
  };
  const { key, input: update } = routineChange(fields);
  const updated = await onConditionFailed(
    deps.table.update<RoutineItem>(key, update),
    () => new NotFoundError(`routine ${routineId} not found`),
  );
  await syncSchedule(deps, updated);
  return { routine: updated, ...(secret ? { secret } : {}) };
}

/**
 * `POST …/routines/:routine_id/secret`: a webhook routine's new secret, answered once and sealed as
 * the first was. The one it replaces stops verifying at once, or keeps verifying for
 * `keepOldForMinutes` (a rotation while an old one is still kept ends that one at once).
 * @throws ValidationError (400, `details` on `trigger`) for a routine without a webhook
 * @throws ConflictError (409) when another rotation or a change of trigger changed its secret meanwhile
 */
export async function rotateSecret(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  routineId: string,
  keepOldForMinutes: number,
): Promise<{ routine: RoutineItem; secret: string }> {
  const current = await getRoutine(deps, orgId, workspaceId, routineId);
  if (!current.webhook || !current.secret) {
    throw new ValidationError('this routine has no webhook: only a webhook routine has a secret', [
      { path: 'trigger', message: 'is a schedule: a routine gets a secret when its trigger is { webhook: true }' },
    ]);
  }
  const now = deps.clock.now();
  const secret = newSecret();
  const kept = keepOldForMinutes > 0;
  const { key, input } = secretRotated(routineId, current.secret, {
    secret: await deps.secrets.seal(secret, secretContext(orgId, routineId)),
    previous: kept ? current.secret : null,
    until: kept ? new Date(now.getTime() + keepOldForMinutes * 60_000).toISOString() : null,
    updatedAt: now.toISOString(),
  });
  const routine = await onConditionFailed(
    deps.table.update<RoutineItem>(key, input),
    () => new ConflictError('the secret was changed meanwhile (another rotation, or the trigger): read the routine and try again'),
  );
  return { routine, secret };
}

/**
 * The webhook's signing secrets in plaintext that verify now, for checking a signature (never for a
 * response but the one that made it): its own, and the one a rotation replaced while it is kept.
 */
export async function openSecrets(deps: Pick<Deps, 'secrets' | 'clock'>, routine: RoutineItem): Promise<string[]> {
  const context = secretContext(routine.org_id, routine.id);
  const kept = routine.previous_secret && routine.previous_secret_until && deps.clock.now().toISOString() < routine.previous_secret_until;
  const sealed = [routine.secret, kept ? routine.previous_secret : null].filter((value): value is string => Boolean(value));
  return Promise.all(sealed.map((value) => deps.secrets.open(value, context)));
}

/** `DELETE …/routines/:routine_id`: the routine, its schedule and its place in the count (its runs stay, with their conversations). */
export async function deleteRoutine(deps: Deps, orgId: string, workspaceId: string, routineId: string): Promise<void> {
  await getRoutine(deps, orgId, workspaceId, routineId);
  await onConditionFailed(
    deps.table.delete(routineKey(routineId), routineExists()),
    () => new NotFoundError(`routine ${routineId} not found`),
  );
  const uncounted = routineUncounted(orgId);
  await conditionHeld(deps.table.update(uncounted.key, uncounted.input));
  await unschedule(deps, routineId);
}

/** The path a webhook routine is called at. */
const hookPathOf = (routineId: string) => `/hooks/routines/${routineId}`;

/** A routine as the API shows it: its URL's origin only, never its secret. */
export function routineView(item: RoutineItem): RoutineView {
  return {
    id: item.id,
    workspace_id: item.workspace_id,
    name: item.name,
    prompt: item.prompt,
    trigger: item.webhook ? { webhook: true } : { schedule: item.schedule ?? '', timezone: item.timezone ?? 'UTC' },
    deliver_to: { channel: item.deliver_channel, webhook_url: item.webhook_origin ? `${item.webhook_origin}/${MASK}` : null },
    run_as: item.run_as,
    enabled: item.enabled,
    next_run_at: item.next_run_at,
    hook_path: item.webhook ? hookPathOf(item.id) : null,
    last_run: item.last_run ?? null,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}
