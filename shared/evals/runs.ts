import { $add, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { errorMessage } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { updateOf, putNew } from '../platform/updates.js';
import { roundUsd } from '../workspaces/index.js';
import { evaluationEntity, evaluationKey, resultKey, runEntity, runKey } from './entities.js';
import { caseJobId, claimEvaluation, failRun, releaseEvaluation, releaseRun, reserveCasesOrRefuse } from './run-holds.js';
import type { CaseResult, Overrides, RunSummary } from './schemas.js';
import { getRun, listRuns, newRun, runResults, storedResult, type EvalItem, type RunItem } from './store.js';

/*
 * An evaluation's run through the job queue: one job per case on the `evals` queue (a queue of its
 * own, so a long run holds no other kind of job; id `eval-<run>-<index>`, so a case is run once
 * however often its job is delivered), a few at a time as the queue's consumers take them. Before
 * its cases are queued the run holds its evaluation and its place in the organisation's cases
 * under way (run-holds.ts). Each result is written once (a conditional put), then counted on the
 * run once (a conditional ADD on the set of counted cases); the job that counts the last case
 * finishes the run: its score, its regressions against the previous finished run, and what it
 * held given back. Queued cases survive a restart of the local runtime (the job ledger sends them
 * again).
 */

export const EvalCaseJobSchema = z.object({
  kind: z.literal('eval-case'),
  evalId: z.string().min(1),
  runId: z.string().min(1),
  index: z.number().int().min(0),
});
export type EvalCaseJob = z.infer<typeof EvalCaseJobSchema>;

/** Enqueues of a run's cases going out at once. */
const ENQUEUE_BATCH = 25;

/** `POST …/evals/:eval_id/runs`: a run queued, one job per case (409 while one is under way, 429 past the organisation's bound). */
export async function startRun(deps: Deps, evaluation: EvalItem, overrides: Overrides, role: string): Promise<RunItem> {
  const run = newRun(deps, evaluation, overrides, role);
  await claimEvaluation(deps, evaluation, run.id);
  try {
    await reserveCasesOrRefuse(deps, run);
  } catch (error) {
    // A hold that cannot be given back now is found over when it is in the way (run-holds.ts).
    await releaseEvaluation(deps, run).catch(() => undefined);
    throw error;
  }
  try {
    await deps.table.put(run);
    await queueCases(deps, run);
  } catch (error) {
    // The cases queued already find their run failed and do nothing.
    await failRun(deps, run).catch((failure: unknown) =>
      deps.logger.warn('a run that could not start was not failed', { run: run.id, error: errorMessage(failure) }),
    );
    throw error;
  }
  return run;
}

async function queueCases(deps: Deps, run: RunItem): Promise<void> {
  const jobs = run.cases.map((_, index) => ({
    jobId: caseJobId(run.id, index),
    queue: 'evals' as const,
    orgId: run.org_id,
    data: { kind: 'eval-case', evalId: run.eval_id, runId: run.id, index } satisfies EvalCaseJob,
  }));
  for (let at = 0; at < jobs.length; at += ENQUEUE_BATCH) {
    await Promise.all(jobs.slice(at, at + ENQUEUE_BATCH).map((job) => deps.jobs.enqueue(job)));
  }
}

/** A run as the API shows it (without its results). */
export function runSummary(run: RunItem): RunSummary {
  const finished = run.status === 'done';
  return {
    id: run.id,
    status: run.status,
    overrides: run.overrides ?? {},
    started_at: run.started_at ?? null,
    finished_at: run.finished_at,
    passed: run.passed,
    failed: run.failed,
    score: finished && run.total ? Math.round((run.passed / run.total) * 1000) / 1000 : null,
    tokens: {
      input: run.tokens_input,
      output: run.tokens_output,
      cache_read: run.tokens_cache_read,
      cache_write: run.tokens_cache_write,
    },
    cost_usd: roundUsd(run.cost_usd),
    duration_ms: run.duration_ms,
    compared_to: run.compared_to,
    regressions: run.regressions ?? [],
  };
}

/**
 * Records one case's result: written once (a later delivery keeps the first), counted on the run
 * once (the case's index joins `counted` in the same conditional write). Whichever delivery finds
 * every case counted finishes the run, also one that comes after a delivery that counted the last
 * case and then failed.
 */
export async function recordResult(deps: Deps, run: RunItem, index: number, result: CaseResult): Promise<void> {
  const written = await putNew(deps.table, { ...resultKey(run.eval_id, run.id, index), index, ...result });
  const kept = written ? result : ((await storedResult(deps, run, index)) ?? result);
  const { key, input } = updateOf(
    runEntity
      .build(UpdateItemCommand)
      .item({
        ...runKey(run.eval_id, run.id),
        done: $add(1),
        passed: $add(kept.passed ? 1 : 0),
        failed: $add(kept.passed ? 0 : 1),
        tokens_input: $add(kept.tokens.input),
        tokens_output: $add(kept.tokens.output),
        tokens_cache_read: $add(kept.tokens.cache_read),
        tokens_cache_write: $add(kept.tokens.cache_write),
        cost_usd: $add(kept.cost_usd),
        duration_ms: $add(kept.duration_ms),
        counted: $add(new Set([index])),
      })
      .options({ condition: { not: { attr: 'counted', contains: index } } }),
  );
  const counted = await unlessConditionFailed(deps.table.update<RunItem>(key, input), undefined);
  const current = counted ?? (await getRun(deps, run.eval_id, run.id));
  if (current.done >= current.total && current.status !== 'done') await finishRun(deps, current);
}

/** The run is done: compared with the previous finished run (its regressions), and shown as the evaluation's last run. */
async function finishRun(deps: Deps, run: RunItem): Promise<void> {
  const previous = (await listRuns(deps, run.eval_id)).find((candidate) => candidate.id < run.id && candidate.status === 'done');
  let regressions: string[] = [];
  if (previous) {
    const [before, now] = await Promise.all([runResults(deps, run.eval_id, previous.id), runResults(deps, run.eval_id, run.id)]);
    const passedBefore = new Set(before.filter((result) => result.passed).map((result) => result.case_id));
    regressions = now.filter((result) => !result.passed && passedBefore.has(result.case_id)).map((result) => result.case_id);
  }
  const done = updateOf(
    runEntity.build(UpdateItemCommand).item({
      ...runKey(run.eval_id, run.id),
      status: 'done',
      finished_at: deps.clock.now().toISOString(),
      compared_to: previous?.id ?? null,
      regressions: $set(regressions),
    }),
  );
  const finished = await deps.table.update<RunItem>(done.key, done.input);
  const shown = updateOf(
    evaluationEntity
      .build(UpdateItemCommand)
      .item({ ...evaluationKey(run.org_id, run.workspace_id, run.eval_id), last_run: $set(runSummary(finished)) })
      .options({ condition: { attr: 'pk', exists: true } }),
  );
  await unlessConditionFailed(deps.table.update(shown.key, shown.input), undefined);
  await releaseRun(deps, run);
}
