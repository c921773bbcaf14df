import { roundUsd } from '../workspaces/index.js';
import type { Store } from '../platform/store.js';
import type { Item } from '../platform/table.js';
import { budgetSpendKey, type SpendItem, type StoredBudget } from './entities.js';
import type { Budget, BudgetPeriod } from './schemas.js';

export type { SpendItem, StoredBudget } from './entities.js';

/*
 * Reading budgets: their definitions, and what each has spent and holds in its current period
 * (their items: entities.ts).
 */

/** An amount as budgets say it: cents, or up to 4 decimals under a dollar ($0.0066 of $0.01). */
export function usdText(usd: number): string {
  return `$${usd >= 1 ? usd.toFixed(2) : Number(usd.toFixed(4))}`;
}

/** The budgets of the organisation, from its `BUDGETS` item (none when absent). */
export function budgetsOf(item: Item | undefined): StoredBudget[] {
  const map = item?.budgets;
  if (!map || typeof map !== 'object') return [];
  return Object.values(map as Record<string, StoredBudget>).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** The period an instant falls in: `YYYY-MM-DD` for a day budget, `YYYY-MM` for a month budget. */
export function periodOf(period: BudgetPeriod, at: Date): string {
  return period === 'day' ? at.toISOString().slice(0, 10) : at.toISOString().slice(0, 7);
}

/** When the period of `at` ends: the next UTC midnight, or the first of next month. */
export function resetsAt(period: BudgetPeriod, at: Date): Date {
  return period === 'day'
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

const RESET_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * When a budget resets, as people read it in a refusal or an alert: `00:00 UTC on 7 December 2026`
 * (a period always ends at a UTC midnight; the machine-readable instant is `resets_at`).
 */
export function resetText(resets: Date): string {
  return `00:00 UTC on ${RESET_DAY.format(resets)}`;
}

/** A spend item is kept a month past its period (TTL), then goes. */
export function spendTtl(period: BudgetPeriod, at: Date): number {
  return Math.floor(resetsAt(period, at).getTime() / 1000) + 31 * 86_400;
}

/** The budget as the API shows it, with its spend this period. */
export function budgetView(budget: StoredBudget, spend: SpendItem | undefined, at: Date): Budget {
  const spent = roundUsd(spend?.spent ?? 0);
  const reserved = roundUsd(Math.max(0, spend?.reserved ?? 0));
  const percent = (spent / budget.limit_usd) * 100;
  const firstAlert = budget.alert_percent[0];
  // Exceeded once it has spent its limit, or refused a query this period (too little room left for one).
  const exceeded = spent >= budget.limit_usd || spend?.refused_at !== undefined;
  const status = exceeded ? 'exceeded' : firstAlert !== undefined && percent >= firstAlert ? 'alerted' : 'ok';
  return {
    id: budget.id,
    scope: budget.scope,
    scope_id: budget.scope_id,
    name: budget.name,
    period: budget.period,
    limit_usd: budget.limit_usd,
    spent_usd: spent,
    reserved_usd: reserved,
    resets_at: resetsAt(budget.period, at).toISOString(),
    alert_percent: budget.alert_percent,
    status,
  };
}

/** The current spend items of these budgets (one BatchGet). */
export async function currentSpend(deps: Store, budgets: StoredBudget[], at: Date): Promise<Map<string, SpendItem>> {
  if (!budgets.length) return new Map();
  const keyed = budgets.map((budget) => ({ id: budget.id, key: budgetSpendKey(budget.id, periodOf(budget.period, at)) }));
  const items = new Map((await deps.table.batchGet<SpendItem>(keyed.map(({ key }) => key))).map((item) => [item.pk, item]));
  return new Map(
    keyed.flatMap(({ id, key }) => {
      const item = items.get(key.pk);
      return item ? [[id, item] as const] : [];
    }),
  );
}
