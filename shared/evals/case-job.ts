import { $get, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { admitQuery } from '../agent/index.js';
import { RunLaterError, type JobHandler } from '../jobs/index.js';
import type { Deps } from '../deps.js';
import { errorMessage, TooManyRequestsError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { runEntity, runKey, UNDER_WAY } from './entities.js';
import { runEvalCase } from './run-case.js';
import { releaseRun } from './run-holds.js';
import { recordResult, type EvalCaseJob, EvalCaseJobSchema } from './runs.js';
import type { EvalCase } from './schemas.js';
import { findRun, storedResult, type RunItem } from './store.js';

/*
 * The job of one case of an evaluation's run (the `evals` queue), apart from `runs.ts` so that the
 * API function, which only queues runs, does not carry the agent loop.
 */

/**
 * The run of a job and its case, or undefined when it is gone, another organisation's or already
 * over (what an over run holds is given back again: its own give-back may have failed). A failed
 * read throws, so the job fails and is tried again: taken for "no run", it once ended the job as
 * done and left the run running for ever.
 */
async function caseOfJob(deps: Deps, data: EvalCaseJob, orgId: string): Promise<{ run: RunItem; evalCase: EvalCase } | undefined> {
  const run = await findRun(deps, data.evalId, data.runId);
  if (!run || run.org_id !== orgId) return undefined;
  if (run.status === 'done' || run.status === 'failed') {
    await releaseRun(deps, run);
    return undefined;
  }
  const evalCase = run.cases[data.index];
  return evalCase ? { run, evalCase } : undefined;
}

/**
 * A case is one of its organisation's queries of the minute (`QUERY_RATE_LIMIT_PER_MINUTE`, counted
 * as the query route counts them). Over the rate it waits for the next minute: its job is sent back
 * for later, and the case is not failed for it.
 */
async function answerCase(deps: Deps, run: RunItem, evalCase: EvalCase) {
  let counting: Promise<void> | undefined;
  try {
    counting = admitQuery(deps, run.org_id);
  } catch (error) {
    if (error instanceof TooManyRequestsError) throw new RunLaterError(error.message, error.retryAfterSeconds * 1000, { cause: error });
    throw error;
  }
  const [result] = await Promise.all([runEvalCase(deps, run, evalCase), counting]);
  return result;
}

/** The `evals` queue's handler: one case of a run. */
export const evalCaseHandler: JobHandler<EvalCaseJob> = {
  schema: EvalCaseJobSchema,
  async run(deps, data, job) {
    const found = await caseOfJob(deps, data, job.org_id);
    if (!found) return;
    const { run, evalCase } = found;
    const { key, input } = updateOf(
      runEntity
        .build(UpdateItemCommand)
        .item({
          ...runKey(run.eval_id, run.id),
          status: 'running',
          started_at: $get('started_at', deps.clock.now().toISOString()),
        })
        .options({ condition: { attr: 'status', in: [...UNDER_WAY] } }),
    );
    await unlessConditionFailed(deps.table.update(key, input), undefined);
    // A delivery after one that wrote the result but could not count it counts that result, without asking again.
    const result = (await storedResult(deps, run, data.index)) ?? (await answerCase(deps, run, evalCase));
    await recordResult(deps, run, data.index, result);
  },
  // A case whose job failed for good is a failed case, so its run still ends.
  async onFailed(deps, data, job, error) {
    const found = await caseOfJob(deps, data, job.org_id);
    if (!found) return;
    const { run, evalCase } = found;
    await recordResult(deps, run, data.index, {
      case_id: evalCase.id,
      passed: false,
      answer: '',
      tools_called: [],
      failures: [`the case could not run: ${errorMessage(error)}`],
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      cost_usd: 0,
      duration_ms: 0,
    });
  },
};
