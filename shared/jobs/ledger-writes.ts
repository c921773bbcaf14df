import { Entity } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, $sum, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import { any } from 'dynamodb-toolbox/schema/any';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { keys } from '../platform/keys.js';
import type { ConditionalWrite } from '../platform/table.js';
import { conditionOf, plainItems, singleTable, updateOf } from '../platform/updates.js';
import { queueCountersToChange } from './shards.js';
import {
  COUNTER_NAMES,
  type CounterName,
  FINISHED_TTL_SECONDS,
  type indexAttributes,
  JOB_STATES,
  type JobItem,
  QUEUE_NAMES,
  type TransitionOptions,
} from './ledger-types.js';

/*
 * The ledger's writes, built with dynamodb-toolbox (shared/platform/updates.ts). Loaded on first
 * use (ledger.ts imports it dynamically): the API function writes a job only now and then, and its
 * cold start need not evaluate the builder.
 */

/** The attributes of the ledger item (`JOB#<id>` / `JOB`) its writes touch. */
const jobEntity = new Entity({
  name: 'job',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    id: string(),
    queue: string().enum(...QUEUE_NAMES),
    org_id: string(),
    state: string().enum(...JOB_STATES),
    attempts: number(),
    data: any(),
    // null first: a completed job clears its error, and each alternative that fails to parse costs a thrown error.
    last_error: anyOf(nul(), string()),
    run_at: string(),
    lease_until: string().optional(),
    created_at: string(),
    updated_at: string(),
    gsi1pk: string().optional(),
    gsi1sk: string().optional(),
    gsi2pk: string().optional(),
    gsi2sk: string().optional(),
    gsi5pk: string().optional(),
    gsi5sk: string().optional(),
    ttl: number().optional(),
  }),
});

const counter = number().optional();
/** Every `<queue>#<state>` counter attribute (the list holds each name the type allows). */
const counterAttributes = Object.fromEntries(COUNTER_NAMES.map((name) => [name, counter])) as Record<CounterName, typeof counter>;

/** One shard of an organisation's queue counters (`QSTAT#<org>#<shard>` / `QUEUES`: jobs/shards.ts). */
const queueCountersEntity = new Entity({
  name: 'queue-counters',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), ...counterAttributes }),
});

/** The ADDs of a change of queue counters, or undefined when nothing changes. */
export function countersUpdate(orgId: string, deltas: Partial<Record<CounterName, number>>) {
  const counted = COUNTER_NAMES.filter((name) => deltas[name]);
  if (!counted.length) return undefined;
  const changes: UpdateItemInput<typeof queueCountersEntity> = { ...queueCountersToChange(orgId) };
  for (const name of counted) changes[name] = $add(deltas[name] ?? 0);
  return updateOf(queueCountersEntity.build(UpdateItemCommand).item(changes));
}

/** The condition under which a new send replaces a drained (removed) job. */
export function replacesRemoved(): ConditionalWrite {
  return conditionOf(jobEntity, { attr: 'state', eq: 'removed' });
}

/** What a move adds to a job's attempts. */
const ATTEMPT_STEPS = { increment: 1, decrement: -1 } as const;

/**
 * The write of a move: the new state with its index keys (GSI5 only while pending), attempts,
 * error, lease and TTL (finished jobs only), on condition the job is in one of the expected states.
 */
export function transitionUpdate(job: JobItem, options: TransitionOptions, now: Date, index: ReturnType<typeof indexAttributes>) {
  const finished = options.to === 'completed' || options.to === 'removed';
  const expected = { attr: 'state', in: options.from } as const;
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({
      ...keys.job(job.id),
      state: options.to,
      updated_at: now.toISOString(),
      run_at: options.runAt ?? job.run_at,
      gsi1pk: index.gsi1pk ?? $remove(),
      gsi1sk: index.gsi1sk ?? $remove(),
      gsi5pk: index.gsi5pk ?? $remove(),
      gsi5sk: index.gsi5sk ?? $remove(),
      // Out of the pending list of before (GSI2), if it was there.
      gsi2pk: $remove(),
      gsi2sk: $remove(),
      attempts: options.attempts === 'reset' ? 0 : options.attempts ? $sum($get('attempts'), ATTEMPT_STEPS[options.attempts]) : undefined,
      last_error: options.lastError,
      lease_until: options.leaseUntil || $remove(),
      ttl: finished ? Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS : $remove(),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          options.lapsedLeaseBefore
            ? {
                or: [
                  expected,
                  {
                    and: [
                      { attr: 'state', eq: 'active' },
                      { attr: 'lease_until', lt: options.lapsedLeaseBefore },
                    ],
                  },
                ],
              }
            : expected,
        ],
      },
    });
  return updateOf(command);
}
