import type { Deps } from '../deps.js';
import { PaymentRequiredError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { counterNames, counterOf, roundUsd } from '../workspaces/index.js';
import { budgetAlertMessages } from './alerts.js';
import { budgetSpendKey, refusedUpdate, reservationUpdate, settlementUpdate } from './entities.js';
import { periodOf, resetText, resetsAt, spendTtl, usdText, type SpendItem, type StoredBudget } from './store.js';

/*
 * Admission of a query against the budgets that cover it (CONTRACT.md, "Budgets"): before it starts,
 * each covering budget gives up an estimate of the query's cost from its `room` by one conditional
 * write, so parallel queries cannot all pass a nearly spent budget; before each model round the
 * hold is raised to a bound on what the query can have cost by the round's end (it stops when a
 * budget has no room for that); when the query ends (answered, failed or paused) each reservation
 * is settled to the real cost, and a threshold crossed sends its alert (once per period and
 * threshold: the alert job's id).
 */

/** Who a query is, for its budgets. */
export interface BudgetSubject {
  orgId: string;
  workspaceId: string;
  /** The consumer whose key or channel asks (`cons_…`, `tc-<workspace>`). */
  consumerId?: string;
  /** The user of the service who asks (signed in, or the user a chat account is linked to). */
  userId?: string;
  /** The routine whose run asks (its conversation's owner `routine:<id>` names it: no lookup). */
  routineId?: string;
}

/** A query's hold on its budgets: raised before each model round, settled once, to what it cost. */
export interface BudgetHold {
  /** False when no budget covers the query: nothing is held, and no round need be bounded. */
  readonly covers: boolean;
  /**
   * Holds at least `totalUsd` in every covering budget (what the query has spent so far plus a bound
   * on what its next model round can cost), taking the difference from their room; the 402 of the
   * first budget without room for it (nothing more is held then), or undefined. `spentUsd`: what the
   * query has spent so far, which the refusal counts as the budget's.
   */
  holdAtLeast(totalUsd: number, spentUsd: number): Promise<PaymentRequiredError | undefined>;
  settle(actualUsd: number): Promise<void>;
}

/** The hold of a query no budget covers. */
export const NO_HOLD: BudgetHold = { covers: false, holdAtLeast: async () => undefined, settle: async () => {} };
/** What a query is expected to cost when its workspace has no history yet. */
const FIRST_ESTIMATE_USD = 0.01;
/** Never reserve less than this (a free query still takes a place). */
const MIN_ESTIMATE_USD = 0.0001;

/** The budgets that cover a query: its organisation's, its workspace's, its consumer's, its user's, its routine's. */
export function coveringBudgets(budgets: StoredBudget[], subject: BudgetSubject): StoredBudget[] {
  return budgets.filter(
    (budget) =>
      budget.scope === 'org' ||
      (budget.scope === 'workspace' && budget.scope_id === subject.workspaceId) ||
      (budget.scope === 'consumer' && subject.consumerId !== undefined && budget.scope_id === subject.consumerId) ||
      (budget.scope === 'user' && subject.userId !== undefined && budget.scope_id === subject.userId) ||
      (budget.scope === 'routine' && subject.routineId !== undefined && budget.scope_id === subject.routineId),
  );
}

/** The reservation of a query: its workspace's average cost per query this month (else all-time), or a first guess. */
export function estimateOf(workspace: object, at: Date): number {
  const month = at.toISOString().slice(0, 7);
  const average = (cost: number, queries: number) => (queries > 0 ? cost / queries : undefined);
  const estimate =
    average(counterOf(workspace, counterNames.month(month, 'cost_usd')), counterOf(workspace, counterNames.month(month, 'queries'))) ??
    average(counterOf(workspace, counterNames.total('cost_usd')), counterOf(workspace, counterNames.total('queries'))) ??
    FIRST_ESTIMATE_USD;
  return Math.max(MIN_ESTIMATE_USD, roundUsd(estimate));
}

/** Takes `amount` from a budget's room this period (`total`: what the query then holds); false when the room is smaller. */
async function take(deps: Deps, budget: StoredBudget, amount: number, at: Date, total = amount): Promise<boolean> {
  // A new period starts with the whole limit: a reservation larger than it cannot fit.
  if (total > budget.limit_usd) return false;
  const { key, input } = reservationUpdate(
    budgetSpendKey(budget.id, periodOf(budget.period, at)),
    budget.limit_usd,
    amount,
    spendTtl(budget.period, at),
  );
  const taken = await unlessConditionFailed(deps.table.update(key, input), false);
  return taken !== false;
}

/** Gives a reservation back, less what was spent (`spent` 0: the query did not run). */
async function settleOne(deps: Deps, budget: StoredBudget, reserved: number, spent: number, at: Date): Promise<SpendItem> {
  const { key, input } = settlementUpdate(
    budgetSpendKey(budget.id, periodOf(budget.period, at)),
    roundUsd(reserved - spent),
    reserved,
    spent,
  );
  return deps.table.update<SpendItem>(key, input);
}

/** The 402 of a budget with no room left for the query. */
async function refusal(deps: Deps, budget: StoredBudget, at: Date, spentSoFar = 0): Promise<PaymentRequiredError> {
  // Marked as refusing (what it spent comes back with it): the budget shows as exceeded from now on,
  // even with a little room left, since queries are refused.
  const refused = refusedUpdate(budgetSpendKey(budget.id, periodOf(budget.period, at)), at.toISOString(), spendTtl(budget.period, at));
  const spend = await deps.table.update<SpendItem>(refused.key, refused.input);
  const spent = roundUsd((spend?.spent ?? 0) + spentSoFar);
  const resets = resetsAt(budget.period, at);
  return new PaymentRequiredError(
    `budget exceeded: ${budget.scope} "${budget.name}" spent ${usdText(spent)} of ${usdText(budget.limit_usd)} this ${budget.period}; resets at ${resetText(resets)}`,
    { budget: { id: budget.id, scope: budget.scope, scope_id: budget.scope_id, resets_at: resets.toISOString() } },
  );
}

/**
 * Takes `amount` more from every budget (in parallel), `total` being what the query then holds; the
 * 402 naming a budget without room, once what the others took is given back.
 */
async function takeAll(
  deps: Deps,
  budgets: StoredBudget[],
  amount: number,
  total: number,
  at: Date,
  /** What the query has spent so far (not yet settled): the refusal shows it as spent. */
  spentSoFar = 0,
): Promise<PaymentRequiredError | undefined> {
  const taken = await Promise.all(budgets.map((budget) => take(deps, budget, amount, at, total)));
  const full = budgets.find((_, index) => !taken[index]);
  if (!full) return undefined;
  await Promise.all(budgets.filter((_, index) => taken[index]).map((budget) => settleOne(deps, budget, amount, 0, at)));
  return refusal(deps, full, at, spentSoFar);
}

/**
 * Reserves `estimate` in every budget that covers the query (in parallel), or refuses it with 402
 * naming a budget without room (what the others took is given back). None covering: nothing is
 * written. Before each model round the loop raises the hold to what the query has spent plus a
 * bound on the round's cost (`holdAtLeast`, query/budget.ts); the hold settles what it holds to the
 * real cost, at the query's own time.
 */
export async function reserveBudgets(deps: Deps, orgId: string, budgets: StoredBudget[], estimate: number, at: Date): Promise<BudgetHold> {
  if (!budgets.length) return NO_HOLD;
  const refused = await takeAll(deps, budgets, estimate, estimate, at);
  if (refused) throw refused;
  let held = estimate;
  let settled = false;
  return {
    covers: true,
    async holdAtLeast(totalUsd, spentUsd) {
      const more = roundUsd(totalUsd - held);
      if (settled || more <= 0) return undefined;
      const refusedNow = await takeAll(deps, budgets, more, roundUsd(held + more), at, spentUsd);
      if (!refusedNow) held = roundUsd(held + more);
      return refusedNow;
    },
    async settle(actualUsd) {
      if (settled) return;
      settled = true;
      const spent = roundUsd(actualUsd);
      const after = await Promise.all(budgets.map((budget) => settleOne(deps, budget, held, spent, at)));
      await Promise.all(
        budgets.map(async (budget, index) => {
          const now = after[index]?.spent ?? 0;
          for (const message of budgetAlertMessages(orgId, budget, now - spent, now, at)) await deps.jobs.enqueue(message);
        }),
      );
    },
  };
}
