import type { JobHandler } from '../jobs/worker.js';
import type { Deps } from '../deps.js';
import { errorMessage } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { unlessConditionFailed } from '../platform/table.js';
import { runEvalCase } from './run-case.js';
import { recordResult, type EvalCaseJob, EvalCaseJobSchema } from './runs.js';
import { getRun, type RunItem } from './store.js';

/*
 * The job of one case of an evaluation's run (the conversation-stats queue: work that calls the
 * model), apart from `runs.ts` so that the API function, which only queues runs, does not carry
 * the agent loop.
 */

/** The run of a job, or undefined when it is gone, another organisation's or already over. */
async function runOfJob(deps: Deps, data: EvalCaseJob, orgId: string): Promise<RunItem | undefined> {
  const run = await getRun(deps, data.evalId, data.runId).catch(() => undefined);
  if (!run || run.org_id !== orgId || run.status === 'done' || run.status === 'failed') return undefined;
  return run;
}

/** The `conversation-stats` queue's handler of an evaluation's case. */
export const evalCaseHandler: JobHandler<EvalCaseJob> = {
  schema: EvalCaseJobSchema,
  async run(deps, data, job) {
    const run = await runOfJob(deps, data, job.org_id);
    const evalCase = run?.cases[data.index];
    if (!run || !evalCase) return;
    await unlessConditionFailed(
      deps.table.update(keys.evaluationRun(run.eval_id, run.id), {
        update: 'SET #status = :running, started_at = if_not_exists(started_at, :at)',
        condition: '#status = :queued OR #status = :running',
        names: { '#status': 'status' },
        values: { ':running': 'running', ':queued': 'queued', ':at': deps.clock.now().toISOString() },
      }),
      undefined,
    );
    await recordResult(deps, run, data.index, await runEvalCase(deps, run, evalCase));
  },
  // A case whose job failed for good is a failed case, so its run still ends.
  async onFailed(deps, data, job, error) {
    const run = await runOfJob(deps, data, job.org_id);
    const evalCase = run?.cases[data.index];
    if (!run || !evalCase) return;
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
