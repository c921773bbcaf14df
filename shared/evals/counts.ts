import type { Deps } from '../deps.js';
import { ConflictError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { unlessConditionFailed } from '../platform/table.js';

/*
 * What bounds an organisation's evaluations, in one item of its partition (`ORG#<org>` /
 * `EVALCOUNTS`), each count held by conditional ADDs (no read, then a write, that parallel
 * requests could all pass):
 * - `evals#<workspace>`: the workspace's evaluations, at most `MAX_EVALS_PER_WORKSPACE`;
 * - `cases`: the cases of the organisation's runs under way, at most `MAX_CASES_UNDER_WAY`, so one
 *   tenant cannot fill the evaluations queue; each such run is `run#<id>` (what it holds), taken
 *   with its cases and given back once: the release's condition is that the entry is still there.
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

/** A run's entry in the counts item. */
interface RunEntry {
  eval_id: string;
  workspace_id: string;
  cases: number;
  at: string;
}

type CountsItem = Record<string, unknown> & { cases?: number };

function isRunEntry(value: unknown): value is RunEntry {
  if (typeof value !== 'object' || value === null) return false;
  return 'cases' in value && typeof value.cases === 'number' && 'eval_id' in value && typeof value.eval_id === 'string';
}

const evalsOf = (workspaceId: string) => `evals#${workspaceId}`;
const RUN_PREFIX = 'run#';

/**
 * Takes a place for a new evaluation of the workspace, or 409 when it has its 50. The count of a
 * workspace whose evaluations were made before it existed starts at the number stored (one Query,
 * once: the seed is a conditional write, so two first claims at once seed it once).
 */
export async function claimEvalPlace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  const key = keys.evaluationCounts(orgId);
  const names = { '#evals': evalsOf(workspaceId) };
  const claim = () =>
    unlessConditionFailed(
      deps.table
        .update(key, {
          update: 'ADD #evals :one',
          condition: '#evals < :max',
          names,
          values: { ':one': 1, ':max': MAX_EVALS_PER_WORKSPACE },
        })
        .then(() => true),
      false,
    );
  if (await claim()) return;
  const count = (await deps.table.get<CountsItem>(key, true))?.[names['#evals']];
  if (typeof count !== 'number') {
    const stored = await deps.table.count({ pk: keys.evaluationsPartition(orgId, workspaceId) });
    await unlessConditionFailed(
      deps.table.update(key, {
        update: 'SET #evals = :stored',
        condition: 'attribute_not_exists(#evals)',
        names,
        values: { ':stored': stored },
      }),
      undefined,
    );
  }
  // Seeded now (here or by a claim at the same moment): claimed if there is room.
  if ((typeof count !== 'number' || count < MAX_EVALS_PER_WORKSPACE) && (await claim())) return;
  throw new ConflictError(`a workspace may have at most ${MAX_EVALS_PER_WORKSPACE} evaluations; delete one first`);
}

/** Gives back a place of the workspace's evaluations (one was deleted, or not made after all). */
export async function releaseEvalPlace(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  await unlessConditionFailed(
    deps.table.update(keys.evaluationCounts(orgId), {
      update: 'ADD #evals :minus',
      condition: '#evals > :zero',
      names: { '#evals': evalsOf(workspaceId) },
      values: { ':minus': -1, ':zero': 0 },
    }),
    undefined,
  );
}

/** Counts a run's cases as under way in its organisation, if they fit under the bound; false when they do not. */
export async function reserveCases(deps: Deps, run: CountedRun): Promise<boolean> {
  const entry: RunEntry = { eval_id: run.eval_id, workspace_id: run.workspace_id, cases: run.total, at: deps.clock.now().toISOString() };
  return unlessConditionFailed(
    deps.table
      .update(keys.evaluationCounts(run.org_id), {
        update: 'ADD cases :cases SET #run = :entry',
        condition: '(attribute_not_exists(cases) OR cases <= :room) AND attribute_not_exists(#run)',
        names: { '#run': `${RUN_PREFIX}${run.id}` },
        values: { ':cases': run.total, ':room': MAX_CASES_UNDER_WAY - run.total, ':entry': entry },
      })
      .then(() => true),
    false,
  );
}

/** Gives back what a run holds of its organisation's cases under way: once, however often it is called. */
export async function releaseCases(deps: Deps, run: CountedRun): Promise<void> {
  await unlessConditionFailed(
    deps.table.update(keys.evaluationCounts(run.org_id), {
      update: 'ADD cases :minus REMOVE #run',
      condition: 'attribute_exists(#run)',
      names: { '#run': `${RUN_PREFIX}${run.id}` },
      values: { ':minus': -run.total },
    }),
    undefined,
  );
}

/** The organisation's cases under way and the runs that hold them, with when each was counted. */
export async function casesUnderWay(deps: Deps, orgId: string): Promise<{ cases: number; runs: (CountedRun & { at: string })[] }> {
  const counts = await deps.table.get<CountsItem>(keys.evaluationCounts(orgId), true);
  const runs = Object.entries(counts ?? {}).flatMap(([name, value]) => {
    if (!name.startsWith(RUN_PREFIX) || !isRunEntry(value)) return [];
    const { eval_id, workspace_id, cases, at } = value;
    return [{ id: name.slice(RUN_PREFIX.length), eval_id, org_id: orgId, workspace_id, total: cases, at }];
  });
  return { cases: typeof counts?.cases === 'number' ? counts.cases : 0, runs };
}
