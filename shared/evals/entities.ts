import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { $get, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { any } from 'dynamodb-toolbox/schema/any';
import { list } from 'dynamodb-toolbox/schema/list';
import { map } from 'dynamodb-toolbox/schema/map';
import { number } from 'dynamodb-toolbox/schema/number';
import { record } from 'dynamodb-toolbox/schema/record';
import { set } from 'dynamodb-toolbox/schema/set';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../org/index.js';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../platform/updates.js';
import { RUN_STATUSES } from './schemas.js';

/*
 * The evaluations' items (docs/data-model.md): their keys, the Queries that read them, and typed
 * entities (shared/platform/updates.ts) of the attributes their writes touch, so that each write's
 * expressions are built from them by dynamodb-toolbox (names and value types checked by the
 * compiler) and sent by `Table`. A whole map or list is written with `$set`: toolbox takes a bare
 * one for a change of its parts. Definitions live apart from the workspace's partition, which every
 * query reads; a run and its results share the evaluation's runs partition.
 */

const evaluationsPartition = (orgId: string, workspaceId: string) => `WSEVAL#${orgId}#${workspaceId}`;

/** An evaluation's definition, its cases inline (`WSEVAL#<org>#<ws>` / `EVAL#<id>`). */
export const evaluationKey = (orgId: string, workspaceId: string, evalId: string): Key => ({
  pk: evaluationsPartition(orgId, workspaceId),
  sk: `EVAL#${evalId}`,
});

const runsPartition = (evalId: string) => `EVALRUN#${evalId}`;

/** A run of an evaluation (`EVALRUN#<eval>` / `RUN#<id>`); run ids are time-ordered, so the partition lists newest first. */
export const runKey = (evalId: string, runId: string): Key => ({ pk: runsPartition(evalId), sk: `RUN#${runId}` });

/** Whether a key is a run's (not a result's). */
export const isRunKey = (key: Key) => key.sk.startsWith('RUN#');

const resultsPrefix = (runId: string) => `RES#${runId}#`;

/** The result of one case of a run (`EVALRUN#<eval>` / `RES#<run>#<case index, 4 digits>`), written once. */
export const resultKey = (evalId: string, runId: string, index: number): Key => ({
  pk: runsPartition(evalId),
  sk: `${resultsPrefix(runId)}${String(index).padStart(4, '0')}`,
});

/** The organisation's evaluation counts (`ORG#<org>` / `EVALCOUNTS`: counts.ts). */
export const countsKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'EVALCOUNTS' });

/** An evaluation's definition (`WSEVAL#<org>#<ws>` / `EVAL#<id>`: store.ts), as its updates and run-holds.ts write it. */
export const evaluationEntity = tableEntity('evaluation', {
  name: string(),
  cases: list(any()),
  updated_at: string(),
  /** The summary of its last finished run (`RunSummary`), null before. */
  last_run: any().optional(),
  active_run: string().optional(),
  active_run_at: string().optional(),
});

/** A run (`EVALRUN#<eval>` / `RUN#<id>`: store.ts), as its cases and its end write it. */
export const runEntity = tableEntity('evaluation-run', {
  status: string().enum(...RUN_STATUSES),
  started_at: string().optional(),
  finished_at: nullableString,
  compared_to: nullableString,
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
});

/** The states of a run under way. */
export const UNDER_WAY = ['queued', 'running'] as const;

/**
 * The organisation's evaluation counts (`ORG#<org>` / `EVALCOUNTS`: counts.ts). A count or entry
 * in `evals` or `runs` is a path in its map, which must be there first: `countsOpened` makes them.
 */
export const countsEntity = tableEntity('evaluation-counts', {
  /** Per workspace id: its evaluations. */
  evals: record(string(), number()).optional(),
  /** The cases of the organisation's runs under way. */
  cases: number().optional(),
  /** Per run id: the run counted in `cases`. */
  runs: record(string(), map({ eval_id: string(), workspace_id: string(), cases: number(), at: string() })).optional(),
});

export type CountsItem = FormattedItem<typeof countsEntity>;

/**
 * The counts item's maps, and its count of cases, made where they are not there yet (a write to
 * one of their keys needs them), whatever else is in the item.
 */
export const countsOpened = (orgId: string) =>
  updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...countsKey(orgId), evals: $get('evals', {}), cases: $get('cases', 0), runs: $get('runs', {}) }),
  );

/** A workspace's count of evaluations started at `count`, where it has none yet (the maps made first). */
export const evalCountStarted = (orgId: string, workspaceId: string, count: number) =>
  updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...countsKey(orgId), evals: { [workspaceId]: count } })
      .options({ condition: { attr: `evals['${workspaceId}']`, exists: false } }),
  );

// --- Access patterns ---

/** Every evaluation of every workspace (migration 007). */
export const everyEvaluation = () =>
  conditionOf(evaluationEntity, {
    and: [
      { attr: 'pk', beginsWith: 'WSEVAL#' },
      { attr: 'sk', beginsWith: 'EVAL#' },
    ],
  });

/** The evaluations of a workspace. */
export const evaluationsOfWorkspace = (orgId: string, workspaceId: string): QueryInput => ({
  pk: evaluationsPartition(orgId, workspaceId),
});

/** The runs of an evaluation (its results do not match `RUN#`). */
export const runsOfEvaluation = (evalId: string): QueryInput => ({ pk: runsPartition(evalId), sk: { beginsWith: 'RUN#' } });

/** Every item of an evaluation's runs partition: its runs and their results. */
export const runItemsOfEvaluation = (evalId: string): QueryInput => ({ pk: runsPartition(evalId) });

/** The results of a run, in case order. */
export const resultsOfRun = (evalId: string, runId: string): QueryInput => ({
  pk: runsPartition(evalId),
  sk: { beginsWith: resultsPrefix(runId) },
});
