import { coveringBudgets, estimateOf, reserveBudgets, type BudgetHold, type BudgetSubject } from '../../budgets/admission.js';
import { budgetsOf, type StoredBudget } from '../../budgets/store.js';
import type { Deps } from '../../deps.js';
import { PaymentRequiredError } from '../../platform/errors.js';
import { keys } from '../../platform/keys.js';
import { monthOf } from '../../platform/clock.js';
import { countersOf, isCounterItem, monthCounterKeys } from '../../workspaces/counters.js';
import { assertServing, ownedWorkspace, type WorkspaceItem } from '../../workspaces/workspaces.js';
import type { Caller } from './types.js';

/*
 * A query's budgets (budgets/admission.ts): who it is for them, and its hold, taken before the
 * model is called and settled when it ends.
 */

/** The id after `user:` in an owner or grant subject. */
const userOf = (subject: string | undefined) => (subject?.startsWith('user:') ? subject.slice('user:'.length) : undefined);

/** Who asks, for the budgets: the user (signed in, or linked in chat), the consumer (its key, or the workspace's team chat). */
function budgetSubjectOf(caller: Caller, workspaceId: string): BudgetSubject {
  const consumerId = caller.owner.startsWith('consumer:')
    ? caller.owner.slice('consumer:'.length)
    : caller.owner.startsWith('team-chat:')
      ? `tc-${workspaceId}`
      : undefined;
  return { orgId: caller.orgId, workspaceId, consumerId, userId: userOf(caller.owner) ?? userOf(caller.grantSubject) };
}

/** Reserves the query's estimated cost in each budget that covers it; 402 when one has no room. */
export function holdBudgets(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  budgets: StoredBudget[],
  /** The workspace's counters the estimate comes from (`countersOf`); those its item held before they moved when not read. */
  counters: object = workspace,
): Promise<BudgetHold> {
  const covering = coveringBudgets(budgets, budgetSubjectOf(caller, workspace.id));
  const now = deps.clock.now();
  return reserveBudgets(deps, caller.orgId, covering, estimateOf(counters, now), now);
}

/**
 * The same, for work that goes on without the model when a budget has no room (an evaluation's case,
 * an approval's expiry): the hold, or the 402 that refused it, answered rather than thrown.
 */
export async function holdBudgetsOrRefusal(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  budgets: StoredBudget[],
): Promise<BudgetHold | PaymentRequiredError> {
  try {
    return await holdBudgets(deps, caller, workspace, budgets);
  } catch (error) {
    if (error instanceof PaymentRequiredError) return error;
    throw error;
  }
}

/** The same for a paused query about to go on (a decision): the workspace, the budgets and this month's counters in one BatchGet. */
export async function holdBudgetsToResume(deps: Deps, caller: Caller, workspaceId: string): Promise<BudgetHold> {
  const now = deps.clock.now();
  const items = await deps.table.batchGet([
    keys.workspace(caller.orgId, workspaceId),
    keys.budgets(caller.orgId),
    ...monthCounterKeys(caller.orgId, workspaceId, monthOf(now)),
  ]);
  const workspace = ownedWorkspace(
    items.find((item) => item.sk === keys.workspaceSortKey),
    caller.orgId,
    workspaceId,
  );
  assertServing(workspace);
  const counters = countersOf(workspace, items.filter(isCounterItem));
  return holdBudgets(deps, caller, workspace, budgetsOf(items.find((item) => item.sk === keys.budgets(caller.orgId).sk)), counters);
}
