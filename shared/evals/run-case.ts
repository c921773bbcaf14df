import { addUsage, costOf, tokenCountsOf, type TokenUsage } from '../agent/model.js';
import { holdBudgetsOrRefusal } from '../agent/query/budget.js';
import { loadQueryContext } from '../agent/query/context.js';
import { answerQuery } from '../agent/query/run.js';
import { screenInput } from '../agent/query/screening.js';
import type { OfferedTool } from '../agent/query/tools.js';
import type { Caller } from '../agent/query/types.js';
import { modelsOf, type Deps } from '../deps.js';
import { DEFAULT_MODEL_TIER, modelTier, type ModelTier } from '../models/catalogue.js';
import { PaymentRequiredError } from '../platform/errors.js';
import { recordUsage } from '../workspaces/counters.js';
import type { CaseResult, EvalCase } from './schemas.js';
import { checkExpectations, judge } from './scoring.js';
import type { RunItem } from './store.js';

/*
 * One case of an evaluation run: a real query through the same loop as any other (the workspace's
 * tools, knowledge, guardrails, and the permissions of the role that started the run), with the
 * run's overrides applied to this query only; write tools are not run and nothing waits for an
 * approval (`Caller.evaluation`). It is not a conversation: nothing of it is stored but its
 * result, and it is not counted as a query. Its cost is, and the budgets apply.
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
  const tier: ModelTier = modelTier(workspace.model) ?? (modelTier(DEFAULT_MODEL_TIER) as ModelTier);
  const hold = await holdBudgetsOrRefusal(deps, caller, workspace, loaded.budgets);
  if (hold instanceof PaymentRequiredError) return failed(evalCase, hold.message, Math.round(performance.now() - started));
  const screened = screenInput(loaded.guardrails, evalCase.question, evalCase.history ?? []);
  const context = { ...loaded, workspace, state: undefined, messages: [] };
  const outcome = await answerQuery(deps, caller, context, screened, tier, {}, { hold, refuseFirst: false }).catch(
    async (error: unknown) => {
      await hold.settle(0);
      throw error;
    },
  );
  const { loop } = outcome;
  // Every name each called tool goes by, so an expectation may name any of them.
  const names = new Map(outcome.tools.map((tool) => [tool.spec.name, (tool as Partial<OfferedTool>).names ?? [tool.spec.name]]));
  const calledNames = new Set(loop.toolsCalled.flatMap((name) => names.get(name) ?? [name]));
  const failures = checkExpectations(evalCase.expect, { answer: loop.answer, calledNames, error: loop.error });
  let usage: TokenUsage = loop.usage;
  if (evalCase.expect.judge && !loop.error) {
    const client = modelsOf(deps).clientFor({ provider: loaded.provider, apiKey: loaded.apiKey });
    const verdict = await judge(client, client.modelFor(tier), {
      question: evalCase.question,
      answer: loop.answer,
      rubric: evalCase.expect.judge,
    });
    usage = addUsage(usage, verdict.usage);
    if (verdict.failure) failures.push(verdict.failure);
  }
  const costUsd = costOf(usage, tier);
  const durationMs = Math.round(performance.now() - started);
  await Promise.all([
    hold.settle(costUsd),
    // What it cost counts in the workspace's usage; it is not a query (queries_today stays).
    recordUsage(
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
    ),
  ]);
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
