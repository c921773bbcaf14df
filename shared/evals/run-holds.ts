import { $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Deps } from '../deps.js';
import { jobKey, type JobItem } from '../jobs/index.js';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { casesUnderWay, MAX_CASES_UNDER_WAY, releaseCases, reserveCases, type CountedRun } from './counts.js';
import { evaluationEntity, evaluationKey, runEntity, runKey, UNDER_WAY } from './entities.js';
import type { EvalItem, RunItem } from './store.js';

/*
 * What a run holds while it is under way, and what gives it back. A run holds its evaluation (the
 * `active_run` marker on the evaluation's item, set by a conditional write: one run at a time,
 * however many starts race) and its cases' place in the organisation's count (counts.ts). The job
 * that counts its last case gives both back (runs.ts), and so does a start that fails after taking
 * them. A run that died, its cases gone from the queue without all being counted (drained, or the
 * store failed as the last failure was recorded), is found when what it holds is in the way: at
 * the next start of its evaluation, or at a start refused for the organisation's bound. It is
 * failed then and gives back what it held. Each give-back is conditional on its holder, so any
 * number of them does it once.
 */

/** How long a start may take from its hold to its last case queued: until then its run is not taken for dead. */
const START_GRACE_MS = 60_000;
/** When a start refused for the organisation's bound may try again. */
const RETRY_AFTER_SECONDS = 60;

/** The job of a run's case: its id is the idempotency key, so a case is run once however often it is sent. */
export const caseJobId = (runId: string, index: number) => `eval-${runId}-${index}`;

const ageOf = (deps: Deps, at: string | undefined) => deps.clock.now().getTime() - new Date(at ?? 0).getTime();

/** Gives back the run's hold of its evaluation, if it still has it. */
export async function releaseEvaluation(deps: Deps, run: CountedRun): Promise<void> {
  const { key, input } = updateOf(
    evaluationEntity
      .build(UpdateItemCommand)
      .item({ ...evaluationKey(run.org_id, run.workspace_id, run.eval_id), active_run: $remove(), active_run_at: $remove() })
      .options({ condition: { attr: 'active_run', eq: run.id } }),
  );
  await unlessConditionFailed(deps.table.update(key, input), undefined);
}

/** Gives back all a run holds: its evaluation and its cases' place. */
export async function releaseRun(deps: Deps, run: CountedRun): Promise<void> {
  await Promise.all([releaseEvaluation(deps, run), releaseCases(deps, run)]);
}

/** Fails a run that is still queued or running (its item may be missing: a start that failed), and gives back what it holds. */
export async function failRun(deps: Deps, run: CountedRun): Promise<void> {
  const { key, input } = updateOf(
    runEntity
      .build(UpdateItemCommand)
      .item({ ...runKey(run.eval_id, run.id), status: 'failed', finished_at: deps.clock.now().toISOString() })
      .options({ condition: { attr: 'status', in: [...UNDER_WAY] } }),
  );
  await unlessConditionFailed(deps.table.update(key, input), undefined);
  await releaseRun(deps, run);
}

/** Whether any case of the run is still in the queue (waiting, delayed or running), by the job ledger. */
async function hasCasesQueued(deps: Deps, run: RunItem): Promise<boolean> {
  const jobs = await deps.table.batchGet<JobItem>(Array.from({ length: run.total }, (_, index) => jobKey(caseJobId(run.id, index))));
  return jobs.some((job) => job.state === 'waiting' || job.state === 'delayed' || job.state === 'active');
}

/**
 * Whether a run is over: done or failed (what it holds is given back again, in case its own
 * give-back failed), or dead (failed now). A run younger than a start is taken to be under way.
 */
async function isOver(deps: Deps, run: RunItem): Promise<boolean> {
  if (run.status === 'done' || run.status === 'failed') {
    await releaseRun(deps, run);
    return true;
  }
  if (ageOf(deps, run.created_at) < START_GRACE_MS || (await hasCasesQueued(deps, run))) return false;
  deps.logger.warn('an evaluation run died: failed', { org: run.org_id, run: run.id, done: run.done, total: run.total });
  await failRun(deps, run);
  return true;
}

/**
 * Takes the evaluation for a new run (`runId`): one conditional write on the evaluation's item,
 * so of starts at once one wins and the others are 409. A run that holds it already is 409 while
 * it is under way; one that is over is replaced.
 */
export async function claimEvaluation(deps: Deps, evaluation: EvalItem, runId: string): Promise<void> {
  const held = evaluation.active_run;
  if (held) {
    const run = await deps.table.get<RunItem>(runKey(evaluation.id, held), true);
    // No run item: its start is still writing it, or died before (then the hold lapses with the grace).
    const over = run ? await isOver(deps, run) : ageOf(deps, evaluation.active_run_at) >= START_GRACE_MS;
    if (!over) throw new ConflictError(`run ${held} of this evaluation is still ${run?.status ?? 'queued'}`);
  }
  const free = { attr: 'active_run', exists: false } as const;
  const { key, input } = updateOf(
    evaluationEntity
      .build(UpdateItemCommand)
      .item({
        ...evaluationKey(evaluation.org_id, evaluation.workspace_id, evaluation.id),
        active_run: runId,
        active_run_at: deps.clock.now().toISOString(),
      })
      .options({
        condition: { and: [{ attr: 'pk', exists: true }, held ? { or: [free, { attr: 'active_run', eq: held }] } : free] },
      }),
  );
  const taken = await unlessConditionFailed(
    deps.table.update(key, input).then(() => true),
    false,
  );
  if (taken) return;
  // Another start took it first (or the evaluation was deleted).
  const current = await deps.table.get<EvalItem>(key, true);
  if (!current) throw new NotFoundError(`evaluation ${evaluation.id} not found`);
  throw new ConflictError(`run ${current.active_run ?? 'another'} of this evaluation is already under way`);
}

/**
 * Counts the run's cases as under way in its organisation, or 429 when they would pass
 * `MAX_CASES_UNDER_WAY`. Before refusing, the runs counted there are looked at, and those that
 * are over or dead give their place back.
 */
export async function reserveCasesOrRefuse(deps: Deps, run: CountedRun): Promise<void> {
  if (await reserveCases(deps, run)) return;
  const counted = await casesUnderWay(deps, run.org_id);
  const items = await deps.table.batchGet<RunItem>(counted.runs.map((held) => runKey(held.eval_id, held.id)));
  const byId = new Map(items.map((item) => [item.id, item]));
  const freed = await Promise.all(
    counted.runs.map(async (held) => {
      const item = byId.get(held.id);
      if (item) return isOver(deps, item);
      // Counted, but never stored: a start that died (or is still under way, within the grace).
      if (ageOf(deps, held.at) < START_GRACE_MS) return false;
      await failRun(deps, held);
      return true;
    }),
  );
  let cases = counted.cases;
  if (freed.some(Boolean)) {
    if (await reserveCases(deps, run)) return;
    cases = (await casesUnderWay(deps, run.org_id)).cases;
  }
  throw new TooManyRequestsError(
    `too many evaluation cases under way in this organisation: ${cases} of at most ${MAX_CASES_UNDER_WAY}, and this run has ${run.total}; try again when a run has finished`,
    RETRY_AFTER_SECONDS,
  );
}
