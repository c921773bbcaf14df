import type { Schemas } from '../api/client';
import { dateTime, money, percent } from './format';

type Budget = Schemas['Budget'];

/**
 * What a budget covers, in words: "workspace Customer Support", "routine Nightly check" (a
 * consumer's name already says "api consumer cons_…"). The name is the one it had when the budget
 * was made, so a routine deleted since is still named; a budget without one is named by its id.
 */
export function coverOf(budget: Budget): string {
  if (budget.scope === 'org') return `the organisation ${budget.name}`;
  if (budget.scope === 'consumer') return budget.name;
  return `${budget.scope} ${nameOf(budget)}`;
}

/** A budget's name, or the id of what it covers when it has none. */
export const nameOf = (budget: Budget) => budget.name || budget.scope_id || budget.scope;

/** "per day" or "per month": budgets count UTC days and months. */
export const periodOf = (budget: Budget) => `per ${budget.period}`;

/** Spent against the limit in words, the same text the meter gives assistive technology. */
function spentText(budget: Budget): string {
  return `${money(budget.spent_usd)} of ${money(budget.limit_usd)} spent (${percent(budget.spent_usd / budget.limit_usd)})`;
}

/** When a budget's period ends: local time, the exact instant in `datetime` and as a tooltip. */
export function ResetTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={at}>
      {dateTime(at)}
    </time>
  );
}

/**
 * Spent against the limit as a `<meter>` (its colour follows the status, which is also said in
 * words beside it), with the numbers as text under it and what running queries hold, if anything.
 */
export function BudgetMeter({ budget, label }: { budget: Budget; label: string }) {
  const text = spentText(budget);
  return (
    <div className="budget-usage">
      <meter
        className={`budget-meter budget-${budget.status}`}
        aria-label={label}
        aria-valuetext={text}
        min={0}
        max={budget.limit_usd}
        value={Math.min(budget.spent_usd, budget.limit_usd)}
      />
      <p className="budget-figures">
        {text}
        {budget.reserved_usd > 0 && ` · ${money(budget.reserved_usd)} held for queries running now`}
      </p>
    </div>
  );
}
