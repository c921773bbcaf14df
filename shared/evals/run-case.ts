import { tokenCountsOf } from '../models/index.js';
import { loadQueryContext, runAgentQuery, type Caller, type FinishedRun, type OfferedTool } from '../agent/index.js';
import { modelsOf, type Deps } from '../deps.js';
import { recordUsage } from '../workspaces/index.js';
import type { CaseResult, EvalCase } from './schemas.js';
import { checkExpectations, judge } from './scoring.js';
import type { RunItem } from './store.js';

/*
 * One case of an evaluation run: a real query through the same use case as any other
 * (agent/query.ts: the workspace's tools, knowledge, guardrails, and the permissions of the role
 * that started the run), with the run's overrides applied to this query only; write tools are not
 * run and nothing waits for an approval (`Caller.evaluation`). It is not a conversation: nothing of
 * it is stored but its result, and it is not counted as a query. Its cost is, and the budgets apply.
 */

const failed = (evalCase: EvalCase, reason: string, durationMs: number): CaseResult => ({
  case_id: evalCase.id,
  passed: false,
  answer: '',
  tools_called: [],
  failures: [reason],
  tokens: tokenCountsOf({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
  cost_usd: 0,
  duration_ms: durationMs,
});

export async function runEvalCase(deps: Deps, run: RunItem, evalCase: EvalCase): Promise<CaseResult> {
  const started = performance.now();
  const caller: Caller = {
    orgId: run.org_id,
    role: run.role,
    userName: 'Evaluation',
    consumerType: 'api',
    channel: null,
    owner: `eval:${run.id}`,
    evaluation: true,
  };
  const loaded = await loadQueryContext(deps, caller, run.workspace_id, `eval-${run.id}`, true);
  // The run's overrides, for this query only: the stored workspace is not changed.
  const workspace = {
    ...loaded.workspace,
    ...(run.overrides.system_prompt !== undefined ? { system_prompt: run.overrides.system_prompt } : {}),
    ...(run.overrides.model ? { model: run.overrides.model } : {}),
  };
  return runAgentQuery(deps, caller, {
    // A new conversation each time: no history but the case's own.
    context: { ...loaded, workspace, state: undefined, messages: [] },
    start: { question: evalCase.question, history: evalCase.history ?? [] },
    // A budget without room fails the case without asking (its estimate: the workspace's average this month, or a bound on the question's first round).
    budgets: { whenFull: 'end' },
    started,
    // The judge's call counts in the case's cost and budgets.
    review: async ({ loop }, tier, beforeModelCall) => {
      if (!evalCase.expect.judge || loop.error) return undefined;
      const client = modelsOf(deps).clientFor({ provider: loaded.provider, apiKey: loaded.apiKey });
      const judged = { question: evalCase.question, answer: loop.answer, rubric: evalCase.expect.judge };
      return judge(client, client.modelFor(tier), judged, beforeModelCall);
    },
    record: (finished) => recordCase(deps, run, evalCase, finished),
  });
}

/** The case's result, its cost counted in the workspace's usage (it is not a query: queries_today stays). */
async function recordCase(deps: Deps, run: RunItem, evalCase: EvalCase, finished: FinishedRun): Promise<CaseResult> {
  const { usage, costUsd, durationMs } = finished;
  if (finished.refused) return failed(evalCase, finished.refused.message, durationMs);
  const { loop, tools } = finished.run;
  // Every name each called tool goes by, so an expectation may name any of them.
  const names = new Map(tools.map((tool) => [tool.spec.name, (tool as Partial<OfferedTool>).names ?? [tool.spec.name]]));
  const calledNames = new Set(loop.toolsCalled.flatMap((name) => names.get(name) ?? [name]));
  const failures = checkExpectations(evalCase.expect, { answer: loop.answer, calledNames, error: loop.error });
  if (finished.review?.failure) failures.push(finished.review.failure);
  await recordUsage(
    deps,
    run.org_id,
    run.workspace_id,
    {
      queries: 0,
      errors: 0,
      duration_ms: 0,
      cost_usd: costUsd,
      tokens_input: usage.input,
      tokens_output: usage.output,
      tokens_cache_read: usage.cacheRead,
      tokens_cache_write: usage.cacheWrite,
    },
    deps.clock.now(),
  );
  return {
    case_id: evalCase.id,
    passed: failures.length === 0,
    answer: loop.answer,
    tools_called: loop.toolsCalled,
    failures,
    tokens: tokenCountsOf(usage),
    cost_usd: costUsd,
    duration_ms: durationMs,
  };
}
