import { Link } from 'react-router';
import { $api } from '../api/client';
import { coverOf, periodOf, ResetTime } from '../ui/budget';
import { money } from '../ui/format';

/**
 * Across every page while a budget of the organisation is exceeded: which, how far, until when
 * the queries it covers are refused. The same cached read as the budgets page and the overview
 * (`GET /api/org/budgets`); nothing while it loads, fails or finds none exceeded.
 */
export function BudgetBanner() {
  const budgets = $api.useQuery('get', '/api/org/budgets');
  const exceeded = budgets.data?.budgets.filter((budget) => budget.status === 'exceeded') ?? [];
  if (exceeded.length === 0) return null;
  return (
    <section className="budget-banner" aria-label={exceeded.length === 1 ? 'Budget exceeded' : 'Budgets exceeded'}>
      <ul>
        {exceeded.map((budget) => (
          <li key={budget.id}>
            <strong>Budget exceeded:</strong> {coverOf(budget)} has spent {money(budget.spent_usd)} of its {money(budget.limit_usd)}{' '}
            {periodOf(budget)}. Queries it covers are refused until it resets on <ResetTime at={budget.resets_at} />.
          </li>
        ))}
      </ul>
      <Link to="/org/budgets">See the budgets</Link>
    </section>
  );
}
