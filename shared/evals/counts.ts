import { $add, $get, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Deps } from '../deps.js';
import { ConflictError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { type CountsItem, countsEntity } from './entities.js';

/*
 * What bounds an organisation's evaluations, in one item of its partition (`ORG#<org>` /
 * `EVALCOUNTS`), each count held by conditional ADDs (no read, then a write, that parallel
 * requests could all pass):
 * - `evals.<workspace>`: the workspace's evaluations, at most `MAX_EVALS_PER_WORKSPACE`;
 * - `cases`: the cases of the organisation's runs under way, at most `MAX_CASES_UNDER_WAY`, so one
 *   tenant cannot fill the evaluations queue; each such run is `runs.<id>` (what it holds), taken
 *   with its cases and given back once: the release's condition is that the entry is still there.
 * A path in `evals` or `runs` needs its map: `openCounts` makes them, when a read finds them missing.
 */

const MAX_EVALS_PER_WORKSPACE = 50;
/** Two runs of the largest evaluation (200 cases). */
export const MAX_CASES_UNDER_WAY = 400;

/** A run as the organisation's count holds it. */
export interface CountedRun {
  id: string;
  eval_id: string;
  org_id: string;
  workspace_id: string;
  /** Its cases: what it adds to `cases`. */
  total: number;
}

/** A path to a key of one of the item's maps (escaped: the key is an id). */
const entry = <MAP extends 'evals' | 'runs'>(mapName: MAP, id: string) => `${mapName}['${id}']` as const;

/**
 * Makes the counts item's maps, and its count of cases, where they are not there yet (a write to
 * one of their keys needs them): once per organisation, whatever else is in the item.
 */
async function openCounts(deps: Deps, orgId: string): Promise<void> {
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...keys.evaluationCounts(orgId), evals: $get('evals', {}), cases: $get('cases', 0), runs: $get('runs', {}) }),
  );
  await deps.table.update(key, input);
}

/** Adds one to the workspace's count of evaluations (under 50) or takes one off (above 0); false when the condition does not hold. */
function changeEvalCount(deps: Deps, orgId: string, workspaceId: string, delta: 1 | -1): Promise<boolean> {
  const count = entry('evals', workspaceId);
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...keys.evaluationCounts(orgId), evals: { [workspaceId]: $add(delta) } })
      .options({ condition: delta > 0 ? { attr: count, lt: MAX_EVALS_PER_WORKSPACE } : { attr: count, gt: 0 } }),
  );
  return unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
}

/**
 * Takes a place for a new evaluation of the workspace, or 409 when it has its 50. The count of a
 * workspace whose evaluations were made before it existed starts at the number stored (one Query,
 * once: the seed is a conditional write, so two first claims at once seed it once).
 */
export async function claimEvalPlace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  if (await changeEvalCount(deps, orgId, workspaceId, 1)) return;
  const key = keys.evaluationCounts(orgId);
  const counts = await deps.table.get<CountsItem>(key, true);
  const count = counts?.evals?.[workspaceId];
  if (count === undefined) {
    const stored = await deps.table.count({ pk: keys.evaluationsPartition(orgId, workspaceId) });
    if (!counts?.evals) await openCounts(deps, orgId);
    const seed = updateOf(
      countsEntity
        .build(UpdateItemCommand)
        .item({ ...key, evals: { [workspaceId]: stored } })
        .options({ condition: { attr: entry('evals', workspaceId), exists: false } }),
    );
    await unlessConditionFailed(deps.table.update(seed.key, seed.input), undefined);
  }
  // Seeded now (here or by a claim at the same moment): claimed if there is room.
  if ((count === undefined || count < MAX_EVALS_PER_WORKSPACE) && (await changeEvalCount(deps, orgId, workspaceId, 1))) return;
  throw new ConflictError(`a workspace may have at most ${MAX_EVALS_PER_WORKSPACE} evaluations; delete one first`);
}

/** Gives back a place of the workspace's evaluations (one was deleted, or not made after all). */
export async function releaseEvalPlace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  await changeEvalCount(deps, orgId, workspaceId, -1);
}

/**
 * Counts a run's cases as under way in its organisation, if they fit under the bound; false when
 * they do not, or when the organisation's counts are not open yet (`casesUnderWay` opens them).
 */
export async function reserveCases(deps: Deps, run: CountedRun): Promise<boolean> {
  const held = { eval_id: run.eval_id, workspace_id: run.workspace_id, cases: run.total, at: deps.clock.now().toISOString() };
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...keys.evaluationCounts(run.org_id), cases: $add(run.total), runs: { [run.id]: $set(held) } })
      .options({
        // `cases` is there once `runs` is (openCounts makes both).
        condition: {
          and: [
            { attr: 'cases', lte: MAX_CASES_UNDER_WAY - run.total },
            { attr: entry('runs', run.id), exists: false },
          ],
        },
      }),
  );
  return unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
}

/** Gives back what a run holds of its organisation's cases under way: once, however often it is called. */
export async function releaseCases(deps: Deps, run: CountedRun): Promise<void> {
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...keys.evaluationCounts(run.org_id), cases: $add(-run.total), runs: { [run.id]: $remove() } })
      .options({ condition: { attr: entry('runs', run.id), exists: true } }),
  );
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/**
 * The organisation's cases under way and the runs that hold them, with when each was counted.
 * Counts not open yet (the organisation's first run, of evaluations older than its counts) are
 * opened: then `opened`, and a run refused for want of them may be counted now.
 */
export async function casesUnderWay(
  deps: Deps,
  orgId: string,
): Promise<{ cases: number; runs: (CountedRun & { at: string })[]; opened: boolean }> {
  const counts = await deps.table.get<CountsItem>(keys.evaluationCounts(orgId), true);
  if (!counts?.runs) {
    await openCounts(deps, orgId);
    return { cases: 0, runs: [], opened: true };
  }
  const runs = Object.entries(counts.runs).map(([id, held]) => ({
    id,
    eval_id: held.eval_id,
    org_id: orgId,
    workspace_id: held.workspace_id,
    total: held.cases,
    at: held.at,
  }));
  return { cases: counts.cases ?? 0, runs, opened: false };
}
