import { $add, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Deps } from '../deps.js';
import { ConflictError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { type CountsItem, countsEntity, countsKey, countsOpened, evalCountStarted } from './entities.js';

/*
 * What bounds an organisation's evaluations, in one item of its partition (`ORG#<org>` /
 * `EVALCOUNTS`), each count held by conditional ADDs (no read, then a write, that parallel
 * requests could all pass):
 * - `evals.<workspace>`: the workspace's evaluations, at most `MAX_EVALS_PER_WORKSPACE`;
 * - `cases`: the cases of the organisation's runs under way, at most `MAX_CASES_UNDER_WAY`, so one
 *   tenant cannot fill the evaluations queue; each such run is `runs.<id>` (what it holds), taken
 *   with its cases and given back once: the release's condition is that the entry is still there.
 * A path in `evals` or `runs` needs its map: `countsOpened` makes them, with the organisation's first
 * evaluation. Every evaluation is counted (those made before the counts were, by migration 007).
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

/** Adds one to the workspace's count of evaluations (under 50) or takes one off (above 0); false when the condition does not hold. */
function changeEvalCount(deps: Deps, orgId: string, workspaceId: string, delta: 1 | -1): Promise<boolean> {
  const count = entry('evals', workspaceId);
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...countsKey(orgId), evals: { [workspaceId]: $add(delta) } })
      .options({ condition: delta > 0 ? { attr: count, lt: MAX_EVALS_PER_WORKSPACE } : { attr: count, gt: 0 } }),
  );
  return unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
}

/**
 * Takes a place for a new evaluation of the workspace, or 409 when it has its 50. A workspace
 * without a count has no evaluation: its count starts at 0 (a conditional write, so two first
 * claims at once start it once), and the organisation's maps are made first when it has none.
 */
export async function claimEvalPlace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  if (await changeEvalCount(deps, orgId, workspaceId, 1)) return;
  const counts = await deps.table.get<CountsItem>(countsKey(orgId), true);
  const count = counts?.evals?.[workspaceId];
  if (count === undefined) {
    if (!counts?.evals) {
      const opened = countsOpened(orgId);
      await deps.table.update(opened.key, opened.input);
    }
    const seed = evalCountStarted(orgId, workspaceId, 0);
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

/** Counts a run's cases as under way in its organisation, if they fit under the bound; false when they do not. */
export async function reserveCases(deps: Deps, run: CountedRun): Promise<boolean> {
  const held = { eval_id: run.eval_id, workspace_id: run.workspace_id, cases: run.total, at: deps.clock.now().toISOString() };
  const { key, input } = updateOf(
    countsEntity
      .build(UpdateItemCommand)
      .item({ ...countsKey(run.org_id), cases: $add(run.total), runs: { [run.id]: $set(held) } })
      .options({
        // `cases` is there once `runs` is (countsOpened makes both).
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
      .item({ ...countsKey(run.org_id), cases: $add(-run.total), runs: { [run.id]: $remove() } })
      .options({ condition: { attr: entry('runs', run.id), exists: true } }),
  );
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/** The organisation's cases under way and the runs that hold them, with when each was counted. */
export async function casesUnderWay(deps: Deps, orgId: string): Promise<{ cases: number; runs: (CountedRun & { at: string })[] }> {
  const counts = await deps.table.get<CountsItem>(countsKey(orgId), true);
  const runs = Object.entries(counts?.runs ?? {}).map(([id, held]) => ({
    id,
    eval_id: held.eval_id,
    org_id: orgId,
    workspace_id: held.workspace_id,
    total: held.cases,
    at: held.at,
  }));
  return { cases: counts?.cases ?? 0, runs };
}
