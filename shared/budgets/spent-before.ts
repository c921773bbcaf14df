import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import { roundUsd, costsBetween, activityOfDays } from '../workspaces/index.js';
import { spentBy } from './entities.js';
import type { BudgetPeriod, BudgetScope } from './schemas.js';

/*
 * A budget counts what its scope spent in the whole period, also before the budget was made
 * (CONTRACT.md, fourth round, "Budgets"). Made mid-period, its spend starts from what is stored:
 * the organisation's day items for an organisation or a workspace (what every query, evaluation
 * case and judge adds to), and the audit log for a user, a consumer or a routine (its entries name
 * the user and the consumer; a routine's run is consumer `routine:<id>`), read only in the
 * workspaces that spent anything this period. Audit entries written before they named their
 * consumer (`consumer_id`) do not count toward a consumer's or a routine's budget.
 */

/** Who spent, as the audit log names them: a user by `user_id`, a consumer or a routine's runs by `consumer_id`. */
function spenderOf(budget: { scope: BudgetScope; scope_id: string | null }): { attribute: 'user_id' | 'consumer_id'; id: string } {
  const id = budget.scope_id ?? '';
  if (budget.scope === 'user') return { attribute: 'user_id', id };
  return { attribute: 'consumer_id', id: budget.scope === 'routine' ? `routine:${id}` : id };
}

/** What the scope spent in the period of `at` so far, in US dollars. */
export async function spentThisPeriod(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  budget: { scope: BudgetScope; scope_id: string | null; period: BudgetPeriod },
  at: Date,
): Promise<number> {
  const today = dayOf(at);
  const firstDay = budget.period === 'day' ? today : `${today.slice(0, 8)}01`;
  const costs = await costsBetween(deps, orgId, firstDay, today);
  if (budget.scope === 'org') return roundUsd([...costs.values()].reduce((sum, cost) => sum + cost, 0));
  if (budget.scope === 'workspace') return roundUsd(costs.get(budget.scope_id ?? '') ?? 0);
  const spender = spenderOf(budget);
  const perWorkspace = await Promise.all(
    [...costs.keys()].map((workspaceId) => auditedCost(deps, orgId, workspaceId, spender, firstDay, today)),
  );
  return roundUsd(perWorkspace.reduce((sum, cost) => sum + cost, 0));
}

/** The cost of a workspace's audit entries from `firstDay` to `lastDay` whose `attribute` is `id`: a Query per shard, in parallel. */
async function auditedCost(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  workspaceId: string,
  who: { attribute: 'user_id' | 'consumer_id'; id: string },
  firstDay: string,
  lastDay: string,
): Promise<number> {
  const shards = await Promise.all(
    activityOfDays(orgId, workspaceId, firstDay, lastDay).map((shard) =>
      deps.table.queryAll<{ cost_usd?: unknown }>({ ...shard, ...spentBy(who) }),
    ),
  );
  return shards.flat().reduce((sum, item) => sum + (typeof item.cost_usd === 'number' ? item.cost_usd : 0), 0);
}
