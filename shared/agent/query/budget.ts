import { coveringBudgets, estimateOf, reserveBudgets, type BudgetHold, type BudgetSubject } from '../../budgets/admission.js';
import { budgetsKey } from '../../budgets/entities.js';
import { budgetsOf, type StoredBudget } from '../../budgets/store.js';
import type { Deps } from '../../deps.js';
import { monthOf } from '../../platform/clock.js';
import { countersOf } from '../../workspaces/counters.js';
import { isWorkspaceItem, workspaceKey } from '../../workspaces/entities.js';
import { isCounterItem, monthCounterKeys } from '../../workspaces/usage-entities.js';
import { assertServing, ownedWorkspace, type WorkspaceItem } from '../../workspaces/workspaces.js';
import { MAX_TOKENS, type Caller } from './types.js';
import { modelTierOrDefault, type ModelTier } from '../../models/catalogue.js';
import { roundUsd } from '../../workspaces/stats.js';
import type { LoopInput } from '../loop.js';
import { costOf, type TokenUsage } from '../model.js';

/*
 * A query's budgets (budgets/admission.ts): who it is for them, and its hold, taken before the
 * model is called and settled when it ends.
 */

/** The id after `user:` in an owner or grant subject. */
const userOf = (subject: string | undefined) => (subject?.startsWith('user:') ? subject.slice('user:'.length) : undefined);

/** Who asks, for the budgets: the user (signed in, or linked in chat), the consumer (its key, or the workspace's team chat). */
export function budgetSubjectOf(caller: Caller, workspaceId: string): BudgetSubject {
  const consumerId = caller.owner.startsWith('consumer:')
    ? caller.owner.slice('consumer:'.length)
    : caller.owner.startsWith('team-chat:')
      ? `tc-${workspaceId}`
      : undefined;
  return { orgId: caller.orgId, workspaceId, consumerId, userId: userOf(caller.owner) ?? userOf(caller.grantSubject) };
}

/**
 * Reserves the query's expected cost in each budget that covers it (its workspace's average, and at
 * least a bound on a first model round for its question: the rest of the prompt is added before the
 * round, `budgetGate`); 402 when one has no room.
 */
export function holdBudgets(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  budgets: StoredBudget[],
  /** The workspace's counters the estimate comes from (`countersOf`); those its item held before they moved when not read. */
  counters: object = workspace,
  /** UTF-8 bytes of the question and the history it comes with. */
  questionBytes = 0,
): Promise<BudgetHold> {
  const covering = coveringBudgets(budgets, budgetSubjectOf(caller, workspace.id));
  const now = deps.clock.now();
  const tier = modelTierOrDefault(workspace.model);
  const firstRound = roundCostBound(tier, { promptBytes: questionBytes, maxTokens: MAX_TOKENS });
  return reserveBudgets(deps, caller.orgId, covering, Math.max(estimateOf(counters, now), roundUsd(firstRound)), now);
}

/** The same for a paused query about to go on (a decision): the workspace, the budgets and this month's counters in one BatchGet. */
export async function holdBudgetsToResume(deps: Deps, caller: Caller, workspaceId: string): Promise<BudgetHold> {
  const now = deps.clock.now();
  const items = await deps.table.batchGet([
    workspaceKey(caller.orgId, workspaceId),
    budgetsKey(caller.orgId),
    ...monthCounterKeys(caller.orgId, workspaceId, monthOf(now)),
  ]);
  const workspace = ownedWorkspace(items.find(isWorkspaceItem), caller.orgId, workspaceId);
  assertServing(workspace);
  const counters = countersOf(items.filter(isCounterItem));
  return holdBudgets(deps, caller, workspace, budgetsOf(items.find((item) => item.sk === budgetsKey(caller.orgId).sk)), counters);
}

/** Tokens a provider adds to a round's prompt beyond what is sent (its tool-use instructions, the messages' framing). */
const ROUND_OVERHEAD_TOKENS = 1_000;

/**
 * A bound on what one model round can cost: every byte of its prompt a token (a token is at least
 * a byte) at the dearest input price (a cache write: 1.25× the input price, 2× for an hour), and the
 * whole output limit at the output price.
 */
function roundCostBound(tier: ModelTier, round: { promptBytes: number; maxTokens: number }, prefixCacheTtl?: '5m' | '1h'): number {
  const inputPerMtok = Math.max(tier.inputCostPerMtok, tier.cacheWriteCostPerMtok, prefixCacheTtl === '1h' ? 2 * tier.inputCostPerMtok : 0);
  return ((round.promptBytes + ROUND_OVERHEAD_TOKENS) * inputPerMtok + round.maxTokens * tier.outputCostPerMtok) / 1_000_000;
}

/**
 * The loop's check before each model round: the hold raised to what the query has spent since the
 * hold was taken plus the round's bound, so no query spends past the room it holds. Without room, the
 * loop stops saying so; before its first round a query (`refuseFirst`) is refused with the 402 instead.
 * None when no budget covers the query: the loop then sizes no prompt.
 */
export function budgetGate(
  hold: BudgetHold,
  tier: ModelTier,
  options: { prefixCacheTtl?: '5m' | '1h'; refuseFirst: boolean },
): LoopInput['beforeModelCall'] {
  if (!hold.covers) return undefined;
  let since: TokenUsage | undefined;
  let rounds = 0;
  return async (round) => {
    // A resumed query's hold covers what it spends from here on (what it spent before was settled).
    since ??= round.usage;
    rounds += 1;
    const spent = costOf(round.usage, tier) - costOf(since, tier);
    const refused = await hold.holdAtLeast(spent + roundCostBound(tier, round, options.prefixCacheTtl), spent);
    if (!refused) return undefined;
    if (rounds === 1 && options.refuseFirst) throw refused;
    return `${refused.message} (the answer stopped before the model's next round)`;
  };
}
