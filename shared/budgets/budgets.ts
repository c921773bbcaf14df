import type { Deps } from '../deps.js';
import { getOrganisationItem, userKey } from '../org/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { consumersById } from '../consumers/index.js';
import { onConditionFailed, unlessConditionFailed } from '../platform/table.js';
import { getWorkspaceItem, roundUsd } from '../workspaces/index.js';
import { MAX_BUDGETS, type Budget, type CreateBudgetInput, type UpdateBudgetInput } from './schemas.js';
import {
  budgetAdded,
  budgetChanged,
  budgetRemoved,
  budgetSpendKey,
  budgetsKey,
  budgetsOpened,
  mayNameBudget,
  roomMovedUpdate,
} from './entities.js';
import { budgetView, budgetsOf, currentSpend, periodOf, spendTtl, type StoredBudget } from './store.js';
import { spentThisPeriod } from './spent-before.js';

/*
 * `GET/POST /api/org/budgets`, `PUT/DELETE /api/org/budgets/:id`: the organisation's budgets with
 * what each has spent this period. Definitions are entries of one map item; changing a limit moves
 * the current period's room by the difference, so a reservation under way still counts.
 */

/** The name of what a budget covers, or a 400 naming `scope_id` when it is not the organisation's. */
async function scopeName(deps: Deps, orgId: string, input: CreateBudgetInput): Promise<string> {
  const missing = (what: string) =>
    new ValidationError(`no ${what} ${input.scope_id} in this organisation`, [
      { path: 'scope_id', message: `must be a ${what} of this organisation` },
    ]);
  if (input.scope === 'org') return (await getOrganisationItem(deps, orgId)).name;
  const id = input.scope_id ?? '';
  if (input.scope === 'workspace') {
    const workspace = await getWorkspaceItem(deps, orgId, id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? missing('workspace') : error;
    });
    return workspace.name;
  }
  if (input.scope === 'user') {
    const user = await deps.table.get<{ name?: string }>(userKey(orgId, id));
    if (!user) throw missing('user');
    return String(user.name ?? id);
  }
  if (input.scope === 'routine') {
    // Through the port (routine-port.ts): another organisation's routine is missing here, as an unknown one.
    const name = await deps.routineDirectory.routineName(orgId, id);
    if (name === undefined) throw missing('routine');
    return name;
  }
  const consumers = await deps.table.queryAll<{ org_id?: string; type?: string }>(consumersById(id));
  const consumer = consumers.find((item) => item.org_id === orgId);
  if (!consumer) throw missing('consumer');
  return `${consumer.type ?? 'api'} consumer ${id}`;
}

/** The organisation's budgets with their spend this period: two reads. */
export async function listBudgets(deps: Deps, orgId: string): Promise<{ budgets: Budget[] }> {
  const now = deps.clock.now();
  const budgets = budgetsOf(await deps.table.get(budgetsKey(orgId), true));
  const spend = await currentSpend(deps, budgets, now);
  return { budgets: budgets.map((budget) => budgetView(budget, spend.get(budget.id), now)) };
}

async function getStoredBudget(deps: Deps, orgId: string, id: string): Promise<StoredBudget> {
  const budget = budgetsOf(await deps.table.get(budgetsKey(orgId), true)).find((candidate) => candidate.id === id);
  if (!budget) throw new NotFoundError(`budget ${id} not found`);
  return budget;
}

async function viewOf(deps: Deps, budget: StoredBudget): Promise<Budget> {
  const now = deps.clock.now();
  return budgetView(budget, (await currentSpend(deps, [budget], now)).get(budget.id), now);
}

/** Adds a budget; one per scope, scope id and period (409 for a second). */
export async function createBudget(deps: Deps, orgId: string, input: CreateBudgetInput): Promise<Budget> {
  const name = await scopeName(deps, orgId, input);
  const existing = budgetsOf(await deps.table.get(budgetsKey(orgId), true));
  const scopeId = input.scope_id ?? null;
  if (existing.some((budget) => budget.scope === input.scope && budget.scope_id === scopeId && budget.period === input.period)) {
    throw new ConflictError(`this ${input.scope} already has a ${input.period} budget: change its limit instead`);
  }
  const now = deps.clock.now();
  const budget: StoredBudget = {
    id: newId('bud', now),
    scope: input.scope,
    scope_id: scopeId,
    name,
    period: input.period,
    limit_usd: input.limit_usd,
    alert_percent: input.alert_percent,
    created_at: now.toISOString(),
  };
  // What the scope spent this period before the budget was made counts (spent-before.ts). Written
  // before the definition: no query holds this budget until the definition is there.
  const spent = await spentThisPeriod(deps, orgId, budget, now);
  await deps.table.put({
    ...budgetSpendKey(budget.id, periodOf(budget.period, now)),
    spent,
    reserved: 0,
    room: roundUsd(budget.limit_usd - spent),
    ttl: spendTtl(budget.period, now),
  });
  // The map must exist before an entry of it can be set.
  const opened = budgetsOpened(orgId);
  await deps.table.update(opened.key, opened.input);
  const added = budgetAdded(orgId, budget);
  await onConditionFailed(
    deps.table.update(added.key, added.input),
    () => new ConflictError(`an organisation may have at most ${MAX_BUDGETS} budgets`),
  );
  return viewOf(deps, budget);
}

/** Changes a budget's limit or alerts; a new limit moves this period's room by the difference. */
export async function updateBudget(deps: Deps, orgId: string, id: string, input: UpdateBudgetInput): Promise<Budget> {
  const current = await getStoredBudget(deps, orgId, id);
  const changed: StoredBudget = {
    ...current,
    limit_usd: input.limit_usd ?? current.limit_usd,
    alert_percent: input.alert_percent ?? current.alert_percent,
  };
  const write = budgetChanged(orgId, changed);
  await onConditionFailed(deps.table.update(write.key, write.input), () => new NotFoundError(`budget ${id} not found`));
  const delta = changed.limit_usd - current.limit_usd;
  if (delta !== 0) {
    // A new limit is a new chance: the mark of a refused query goes with the old one.
    const { key, input } = roomMovedUpdate(budgetSpendKey(id, periodOf(current.period, deps.clock.now())), delta);
    await unlessConditionFailed(deps.table.update(key, input), undefined);
  }
  return viewOf(deps, changed);
}

export async function deleteBudget(deps: Deps, orgId: string, id: string): Promise<void> {
  const notFound = () => new NotFoundError(`budget ${id} not found`);
  if (!mayNameBudget(id)) throw notFound();
  const { key, input } = budgetRemoved(orgId, id);
  await onConditionFailed(deps.table.update(key, input), notFound);
}
