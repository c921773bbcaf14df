import { createHash } from 'node:crypto';
import { PutItemCommand } from 'dynamodb-toolbox/entity/actions/put';
import { $add, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { any } from 'dynamodb-toolbox/schema/any';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../org/index.js';
import { indexEntry, indexSchema, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, outOf, tableEntity, updateOf } from '../platform/updates.js';
import { MAX_ROUTINES_PER_ORG, RUN_STATUSES, RUN_TRIGGERS, type RunStatus } from './schemas.js';

/*
 * The routines' items (docs/data-model.md, docs/routines.md): a routine by its id alone (its webhook
 * names nothing else), listed under its workspace (`listings`) and, while it has a next scheduled
 * run, in the due index (`approvalExpiries`, the index of timed moves the lifecycle sweep reads:
 * sweep/due-sweep.ts). Its runs and the webhook deliveries it has seen share a partition of their
 * own; the organisation's count of routines is an item of the organisation's partition.
 */

/** Shards of the routines' entries in the due index. */
export const ROUTINE_DUE_SHARDS = 8;
const ROUTINE_DUE_STATUS = 'routine';
/** A webhook's delivery id is remembered this long: a redelivery within it starts nothing new. */
const DELIVERY_TTL_SECONDS = 24 * 3600;

const routinesListing = (orgId: string, workspaceId: string) => `WSROUTINE#${orgId}#${workspaceId}`;
const runsPartition = (routineId: string) => `ROUTINERUN#${routineId}`;

/** A routine (`ROUTINE#<id>` / `ROUTINE`). */
export const routineKey = (routineId: string): Key => ({ pk: `ROUTINE#${routineId}`, sk: 'ROUTINE' });

/** A run of a routine (`ROUTINERUN#<routine>` / `RUN#<id>`); run ids are time-ordered, so the partition lists newest first. */
export const runKey = (routineId: string, runId: string): Key => ({ pk: runsPartition(routineId), sk: `RUN#${runId}` });

/** A webhook delivery a routine has seen (`ROUTINERUN#<routine>` / `HOOK#<delivery id>`): the run it started. */
const deliveryKey = (routineId: string, deliveryId: string): Key => ({
  pk: runsPartition(routineId),
  sk: `HOOK#${createHash('sha256').update(deliveryId).digest('base64url')}`,
});

/** The organisation's count of routines (`ORG#<org>` / `ROUTINECOUNT`). */
const countKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'ROUTINECOUNT' });

/** A routine, as created and changed by its admin; `last_run` and `next_run_at` move with its runs. */
const routineEntity = tableEntity('routine', {
  id: string(),
  org_id: string(),
  workspace_id: string(),
  name: string(),
  prompt: string(),
  /** The schedule (cron or rate) and its time zone; absent for a webhook routine. */
  schedule: string().optional(),
  timezone: string().optional(),
  webhook: boolean(),
  /** Where a rate counts from (EventBridge's start date). */
  anchor_at: string(),
  deliver_channel: boolean(),
  /** The delivery URL sealed (platform/secrets.ts), and its origin, which the view shows. */
  webhook_url: nullableString,
  webhook_origin: nullableString,
  /** The webhook's signing secret, sealed: it is needed in full to check a signature, so it cannot be a hash. */
  secret: nullableString,
  /** The secret a rotation replaced, sealed, still checked until `previous_secret_until` (absent or null: none). */
  previous_secret: nullableString.optional(),
  previous_secret_until: nullableString.optional(),
  run_as: nullableString,
  enabled: boolean(),
  next_run_at: nullableString,
  last_run: any().optional(),
  created_at: string(),
  updated_at: string(),
  ...indexSchema('listings', string().optional()),
  ...indexSchema('approvalExpiries', string().optional()),
  due_at: string().optional(),
});

/** What a routine's writes set (everything but `last_run`, which its runs write). */
export interface RoutineFields {
  id: string;
  org_id: string;
  workspace_id: string;
  name: string;
  prompt: string;
  schedule?: string;
  timezone?: string;
  webhook: boolean;
  anchor_at: string;
  deliver_channel: boolean;
  webhook_url: string | null;
  webhook_origin: string | null;
  secret: string | null;
  /** The secret a rotation replaced (sealed) and until when it still verifies. */
  previous_secret?: string | null;
  previous_secret_until?: string | null;
  run_as: string | null;
  enabled: boolean;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

function dueShardOf(routineId: string): number {
  return (createHash('sha1').update(routineId).digest()[0] ?? 0) % ROUTINE_DUE_SHARDS;
}

/** A routine's entry in the due index at its next run (the lifecycle sweep and the local scheduler read it). */
function dueEntry(routineId: string, nextRunAt: string) {
  return {
    ...indexEntry('approvalExpiries', `DUE#${ROUTINE_DUE_STATUS}#${dueShardOf(routineId)}`, `${nextRunAt}#${routineId}`),
    due_at: nextRunAt,
  };
}

const listingEntry = (fields: Pick<RoutineFields, 'org_id' | 'workspace_id' | 'id'>) =>
  indexEntry('listings', routinesListing(fields.org_id, fields.workspace_id), fields.id);

/** A new routine, as its entity writes it: listed, and in the due index when it has a next run. */
export function newRoutineItem(fields: RoutineFields): Key & RoutineFields {
  const item = {
    ...routineKey(fields.id),
    ...fields,
    ...listingEntry(fields),
    ...(fields.next_run_at && fields.enabled ? dueEntry(fields.id, fields.next_run_at) : {}),
  };
  // Checked against the entity (its attributes and their types) as its put would write it.
  routineEntity.build(PutItemCommand).item(item).params();
  return item;
}

/** The condition of a first write of a routine's key. */
export const routineAbsent = () => conditionOf(routineEntity, { attr: 'pk', exists: false });
/** The condition that a routine is still there. */
export const routineExists = () => conditionOf(routineEntity, { attr: 'pk', exists: true });

/** A routine changed by its admin (but its ids and creation), its due entry moved or taken out; only while it exists. */
export function routineChange(fields: Omit<RoutineFields, 'secret'> & Partial<Pick<RoutineFields, 'secret'>>) {
  // A `secret` left out is kept as it is: a rotation may have replaced it since it was read.
  const { id, org_id: _org, workspace_id: _ws, created_at: _created, ...changes } = fields;
  const due =
    changes.next_run_at && changes.enabled ? dueEntry(id, changes.next_run_at) : { ...outOf('approvalExpiries'), due_at: $remove() };
  const command = routineEntity
    .build(UpdateItemCommand)
    .item({
      ...routineKey(id),
      ...changes,
      schedule: changes.schedule ?? $remove(),
      timezone: changes.timezone ?? $remove(),
      ...due,
    })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/**
 * A webhook routine's secret replaced by `secret` (sealed), the one it replaces kept as `previous` until
 * `until` (or none): only while its secret is still `current`, so of two rotations at once one wins.
 */
export function secretRotated(
  routineId: string,
  current: string,
  change: { secret: string; previous: string | null; until: string | null; updatedAt: string },
) {
  const command = routineEntity
    .build(UpdateItemCommand)
    .item({
      ...routineKey(routineId),
      secret: change.secret,
      previous_secret: change.previous ?? $remove(),
      previous_secret_until: change.until ?? $remove(),
      updated_at: change.updatedAt,
    })
    .options({ condition: { attr: 'secret', eq: current } });
  return updateOf(command);
}

/**
 * A scheduled routine's next run moved on from `fromRunAt` to `nextRunAt` (its due entry with it):
 * only while its next run is still `fromRunAt`, so of the deliveries that fire one time (the sweep
 * twice, the schedule and the sweep), one moves it.
 */
export function nextRunMoved(routineId: string, fromRunAt: string, nextRunAt: string | null) {
  const due = nextRunAt ? dueEntry(routineId, nextRunAt) : { ...outOf('approvalExpiries'), due_at: $remove() };
  const command = routineEntity
    .build(UpdateItemCommand)
    .item({ ...routineKey(routineId), next_run_at: nextRunAt, ...due })
    .options({ condition: { attr: 'next_run_at', eq: fromRunAt } });
  return updateOf(command);
}

/** The routine's last run (its view shows it), if the routine is still there. */
export function lastRunShown(routineId: string, lastRun: { id: string; status: RunStatus; trigger: string; created_at: string }) {
  const command = routineEntity
    .build(UpdateItemCommand)
    .item({ ...routineKey(routineId), last_run: $set(lastRun) })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** A run of a routine: made queued by its trigger, moved by its job. */
const runEntity = tableEntity('routine-run', {
  id: string(),
  routine_id: string(),
  org_id: string(),
  workspace_id: string(),
  trigger: string().enum(...RUN_TRIGGERS),
  status: string().enum(...RUN_STATUSES),
  conversation_id: string(),
  scheduled_at: nullableString,
  delivery_id: nullableString,
  started_by: nullableString,
  /** A webhook's body (untrusted: it reaches the model as data), at most 256 KB. */
  payload: string().optional(),
  created_at: string(),
  started_at: nullableString,
  finished_at: nullableString,
  duration_ms: number().optional(),
  cost_usd: number(),
  approval_id: nullableString,
  error: nullableString,
});

/** What a run's item holds. */
export interface RunFields {
  id: string;
  routine_id: string;
  org_id: string;
  workspace_id: string;
  trigger: (typeof RUN_TRIGGERS)[number];
  status: RunStatus;
  conversation_id: string;
  scheduled_at: string | null;
  delivery_id: string | null;
  started_by: string | null;
  payload?: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms?: number;
  cost_usd: number;
  approval_id: string | null;
  error: string | null;
}

/** A new run, as its entity writes it (put only where none has its key: a scheduled run's id is its scheduled time). */
export function newRunItem(fields: RunFields): Key & RunFields {
  const item = { ...runKey(fields.routine_id, fields.id), ...fields };
  // Checked against the entity (its attributes and their types) as its put would write it.
  runEntity.build(PutItemCommand).item(item).params();
  return item;
}

/** A run moved to `status`, only from one of `from`. */
export function runMoved(
  run: Pick<RunFields, 'routine_id' | 'id'>,
  from: readonly RunStatus[],
  changes: Partial<Pick<RunFields, 'started_at' | 'finished_at' | 'duration_ms' | 'cost_usd' | 'approval_id' | 'error'>> & {
    status: RunStatus;
  },
) {
  const command = runEntity
    .build(UpdateItemCommand)
    .item({ ...runKey(run.routine_id, run.id), ...changes })
    .options({ condition: { attr: 'status', in: [...from] } });
  return updateOf(command);
}

/**
 * A run moved on once the approval it waited on was decided, only while that approval is its own:
 * so whether the run list moved it first (runs.ts) or not, and a run paused again since is not.
 */
export function runResumed(run: Pick<RunFields, 'routine_id' | 'id'>, approvalId: string, changes: Parameters<typeof runMoved>[2]) {
  const command = runEntity
    .build(UpdateItemCommand)
    .item({ ...runKey(run.routine_id, run.id), ...changes })
    .options({ condition: { attr: 'approval_id', eq: approvalId } });
  return updateOf(command);
}

/** A delivery id remembered, with the run it started, for `DELIVERY_TTL_SECONDS`. */
const deliveryEntity = tableEntity('routine-delivery', { run_id: string(), ttl: number() });

/** The item of a delivery seen, and the condition of its put: no delivery of that id, or only one past its time. */
export function deliveryRemembered(routineId: string, deliveryId: string, runId: string, nowSeconds: number) {
  const key = deliveryKey(routineId, deliveryId);
  const { Item } = deliveryEntity
    .build(PutItemCommand)
    .item({ ...key, run_id: runId, ttl: nowSeconds + DELIVERY_TTL_SECONDS })
    .params();
  const write = conditionOf(deliveryEntity, {
    or: [
      { attr: 'pk', exists: false },
      { attr: 'ttl', lte: nowSeconds },
    ],
  });
  return { item: { ...(Item as Record<string, unknown>), ...key }, write };
}

/** The delivery item of a delivery id (read when its put was refused: the run it started). */
export const deliveryOf = (routineId: string, deliveryId: string) => deliveryKey(routineId, deliveryId);

/** The condition that a remembered delivery still names `runId` (it is forgotten only then). */
export const deliveryNames = (runId: string) => conditionOf(deliveryEntity, { attr: 'run_id', eq: runId });

const countEntity = tableEntity('routine-count', { routines: number().optional() });

/** One more routine in the organisation, only below `MAX_ROUTINES_PER_ORG`. */
export function routineCounted(orgId: string) {
  const command = countEntity
    .build(UpdateItemCommand)
    .item({ ...countKey(orgId), routines: $add(1) })
    .options({
      condition: {
        or: [
          { attr: 'routines', exists: false },
          { attr: 'routines', lt: MAX_ROUTINES_PER_ORG },
        ],
      },
    });
  return updateOf(command);
}

/** One routine fewer in the organisation. */
export function routineUncounted(orgId: string) {
  const command = countEntity
    .build(UpdateItemCommand)
    .item({ ...countKey(orgId), routines: $add(-1) })
    .options({ condition: { attr: 'routines', gt: 0 } });
  return updateOf(command);
}

// --- Access patterns ---

/** The routines of a workspace. */
export const routinesOfWorkspace = (orgId: string, workspaceId: string): QueryInput => ({
  index: 'listings',
  pk: routinesListing(orgId, workspaceId),
});

/** The runs of a routine, newest first (its delivery items do not match `RUN#`). */
export const runsOfRoutine = (routineId: string, limit: number): QueryInput => ({
  pk: runsPartition(routineId),
  sk: { beginsWith: 'RUN#' },
  newestFirst: true,
  limit,
});

/** One shard of the routines' next runs in the due index, by time (the lifecycle sweep reads them: sweep/due-sweep.ts). */
export const dueRoutines = (shard: number) => ({ index: 'approvalExpiries' as const, pk: `DUE#${ROUTINE_DUE_STATUS}#${shard}` });
