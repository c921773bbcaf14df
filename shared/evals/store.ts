import { $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Deps } from '../deps.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { onConditionFailed, type Item } from '../platform/table.js';
import { conditionOf, updateOf } from '../platform/updates.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { claimEvalPlace, releaseEvalPlace } from './counts.js';
import { evaluationEntity, evaluationKey, evaluationsOfWorkspace, resultKey, resultsOfRun, runKey, runsOfEvaluation } from './entities.js';
import type { CaseResult, EvalCase, EvalInput, Overrides, RunSummary } from './schemas.js';

/*
 * Evaluations, their runs and results (their items and keys: entities.ts). The run under way is
 * marked on its definition (`active_run`: run-holds.ts); the organisation's counts (evaluations
 * per workspace, cases under way) are one item of its partition (counts.ts).
 */

/** A definition is one item: its cases' JSON may be at most this long (DynamoDB items hold 400 KB). */
const MAX_DEFINITION_BYTES = 300_000;

export interface EvalItem extends Item {
  id: string;
  org_id: string;
  workspace_id: string;
  name: string;
  cases: EvalCase[];
  created_at: string;
  updated_at: string;
  last_run?: RunSummary | null;
  /** The run under way (queued or running), if any: set by a conditional write, so one at a time (`run-holds.ts`). */
  active_run?: string;
  /** When `active_run` was set. */
  active_run_at?: string;
}

export interface RunItem extends Item {
  id: string;
  eval_id: string;
  org_id: string;
  workspace_id: string;
  status: RunSummary['status'];
  overrides: Overrides;
  /** The role the cases run with (the admin who started the run): its tool permissions apply. */
  role: string;
  /** The cases as they were when the run started (an edit of the evaluation does not change a run). */
  cases: EvalCase[];
  total: number;
  done: number;
  passed: number;
  failed: number;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  cost_usd: number;
  duration_ms: number;
  created_at: string;
  started_at?: string | null;
  finished_at: string | null;
  compared_to: string | null;
  regressions: string[];
  /** The indexes of the cases counted in `done`: each is counted once, by a conditional ADD. */
  counted?: Set<number>;
}

/** Cases with their ids: the given one, else `case-<n>`. */
function withIds(cases: EvalInput['cases']): EvalCase[] {
  const taken = new Set(cases.map((item) => item.id).filter((id): id is string => id !== undefined));
  let next = 1;
  return cases.map((item) => {
    if (item.id) return item as EvalCase;
    while (taken.has(`case-${next}`)) next += 1;
    taken.add(`case-${next}`);
    return { ...item, id: `case-${next}` } as EvalCase;
  });
}

function checkSize(cases: EvalCase[]): void {
  if (JSON.stringify(cases).length > MAX_DEFINITION_BYTES) {
    throw new ValidationError('the cases are too long', [
      { path: 'cases', message: `at most ${MAX_DEFINITION_BYTES} characters of JSON in all` },
    ]);
  }
}

export async function getEval(deps: Deps, orgId: string, workspaceId: string, evalId: string): Promise<EvalItem> {
  const item = await deps.table.get<EvalItem>(evaluationKey(orgId, workspaceId, evalId), true);
  if (!item || item.org_id !== orgId) throw new NotFoundError(`evaluation ${evalId} not found`);
  return item;
}

export async function createEval(deps: Deps, orgId: string, workspaceId: string, input: EvalInput): Promise<EvalItem> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const cases = withIds(input.cases);
  checkSize(cases);
  const now = deps.clock.now();
  const id = newId('eval', now);
  const item: EvalItem = {
    ...evaluationKey(orgId, workspaceId, id),
    id,
    org_id: orgId,
    workspace_id: workspaceId,
    name: input.name,
    cases,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    last_run: null,
  };
  await claimEvalPlace(deps, orgId, workspaceId);
  try {
    await deps.table.put(item);
  } catch (error) {
    await releaseEvalPlace(deps, orgId, workspaceId).catch(() => undefined);
    throw error;
  }
  return item;
}

export async function listEvals(deps: Deps, orgId: string, workspaceId: string): Promise<EvalItem[]> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  return deps.table.queryAll<EvalItem>(evaluationsOfWorkspace(orgId, workspaceId));
}

export async function updateEval(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  evalId: string,
  input: Partial<EvalInput>,
): Promise<EvalItem> {
  const current = await getEval(deps, orgId, workspaceId, evalId);
  const cases = input.cases ? withIds(input.cases) : current.cases;
  checkSize(cases);
  // An update of these attributes only: what a run holds (`active_run`) and shows (`last_run`) is not the request's to write.
  const { key, input: update } = updateOf(
    evaluationEntity
      .build(UpdateItemCommand)
      .item({
        ...evaluationKey(orgId, workspaceId, evalId),
        name: input.name ?? current.name,
        cases: $set(cases),
        updated_at: deps.clock.now().toISOString(),
      })
      .options({ condition: { attr: 'pk', exists: true } }),
  );
  return onConditionFailed(deps.table.update<EvalItem>(key, update), () => new NotFoundError(`evaluation ${evalId} not found`));
}

export async function deleteEval(deps: Deps, orgId: string, workspaceId: string, evalId: string): Promise<void> {
  await getEval(deps, orgId, workspaceId, evalId);
  // Deleted once (the condition), so its place in the workspace's count is given back once.
  const exists = conditionOf(evaluationEntity, { attr: 'pk', exists: true });
  await onConditionFailed(
    deps.table.delete(evaluationKey(orgId, workspaceId, evalId), exists),
    () => new NotFoundError(`evaluation ${evalId} not found`),
  );
  await releaseEvalPlace(deps, orgId, workspaceId);
}

/** A new run of an evaluation, queued, not stored yet (runs.ts `startRun`). */
export function newRun(deps: Deps, evaluation: EvalItem, overrides: Overrides, role: string): RunItem {
  const now = deps.clock.now();
  const id = newId('run', now);
  return {
    ...runKey(evaluation.id, id),
    id,
    eval_id: evaluation.id,
    org_id: evaluation.org_id,
    workspace_id: evaluation.workspace_id,
    status: 'queued',
    overrides,
    role,
    cases: evaluation.cases,
    total: evaluation.cases.length,
    done: 0,
    passed: 0,
    failed: 0,
    tokens_input: 0,
    tokens_output: 0,
    tokens_cache_read: 0,
    tokens_cache_write: 0,
    cost_usd: 0,
    duration_ms: 0,
    created_at: now.toISOString(),
    // Set by the first case that runs (`if_not_exists`: a stored null would count as set).
    started_at: undefined,
    finished_at: null,
    compared_to: null,
    regressions: [],
  };
}

/** A run, or undefined when there is none (a failed read throws: it is not "none"). */
export function findRun(deps: Deps, evalId: string, runId: string): Promise<RunItem | undefined> {
  return deps.table.get<RunItem>(runKey(evalId, runId), true);
}

export async function getRun(deps: Deps, evalId: string, runId: string): Promise<RunItem> {
  const run = await findRun(deps, evalId, runId);
  if (!run) throw new NotFoundError(`run ${runId} not found`);
  return run;
}

/** The runs of an evaluation, newest first. */
export async function listRuns(deps: Deps, evalId: string): Promise<RunItem[]> {
  return deps.table.queryAll<RunItem>({ ...runsOfEvaluation(evalId), newestFirst: true, consistent: true });
}

export interface ResultItem extends Item, CaseResult {
  index: number;
}

/** The stored result of one case of a run, if any. */
export function storedResult(deps: Deps, run: RunItem, index: number): Promise<ResultItem | undefined> {
  return deps.table.get<ResultItem>(resultKey(run.eval_id, run.id, index), true);
}

/** A run's results, in case order. */
export async function runResults(deps: Deps, evalId: string, runId: string): Promise<ResultItem[]> {
  const items = await deps.table.queryAll<ResultItem>({ ...resultsOfRun(evalId, runId), consistent: true });
  return items.sort((a, b) => a.index - b.index);
}
