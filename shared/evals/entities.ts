import { Entity, type FormattedItem } from 'dynamodb-toolbox/entity';
import { any } from 'dynamodb-toolbox/schema/any';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { list } from 'dynamodb-toolbox/schema/list';
import { map } from 'dynamodb-toolbox/schema/map';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { record } from 'dynamodb-toolbox/schema/record';
import { set } from 'dynamodb-toolbox/schema/set';
import { string } from 'dynamodb-toolbox/schema/string';
import { plainItems, singleTable } from '../platform/updates.js';
import { RUN_STATUSES } from './schemas.js';

/*
 * The evaluations' items as typed entities (shared/platform/updates.ts): the attributes their
 * writes touch, so that each write's expressions are built from them by dynamodb-toolbox (names
 * and value types checked by the compiler) and sent by `Table`. A whole map or list is written with
 * `$set`: toolbox takes a bare one for a change of its parts.
 */

/** An evaluation's definition (`WSEVAL#<org>#<ws>` / `EVAL#<id>`: store.ts), as its updates and run-holds.ts write it. */
export const evaluationEntity = new Entity({
  name: 'evaluation',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    name: string(),
    cases: list(any()),
    updated_at: string(),
    /** The summary of its last finished run (`RunSummary`), null before. */
    last_run: any().optional(),
    active_run: string().optional(),
    active_run_at: string().optional(),
  }),
});

/** A run (`EVALRUN#<eval>` / `RUN#<id>`: store.ts), as its cases and its end write it. */
export const runEntity = new Entity({
  name: 'evaluation-run',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    status: string().enum(...RUN_STATUSES),
    started_at: string().optional(),
    finished_at: anyOf(nul(), string()),
    compared_to: anyOf(nul(), string()),
    regressions: list(string()),
    done: number(),
    passed: number(),
    failed: number(),
    tokens_input: number(),
    tokens_output: number(),
    tokens_cache_read: number(),
    tokens_cache_write: number(),
    cost_usd: number(),
    duration_ms: number(),
    counted: set(number()).optional(),
  }),
});

/** The states of a run under way. */
export const UNDER_WAY = ['queued', 'running'] as const;

/**
 * The organisation's evaluation counts (`ORG#<org>` / `EVALCOUNTS`: counts.ts). A count or entry
 * in `evals` or `runs` is a path in its map, which must be there first: `openCounts` makes them.
 */
export const countsEntity = new Entity({
  name: 'evaluation-counts',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    /** Per workspace id: its evaluations. */
    evals: record(string(), number()).optional(),
    /** The cases of the organisation's runs under way. */
    cases: number().optional(),
    /** Per run id: the run counted in `cases`. */
    runs: record(string(), map({ eval_id: string(), workspace_id: string(), cases: number(), at: string() })).optional(),
  }),
});

export type CountsItem = FormattedItem<typeof countsEntity>;
