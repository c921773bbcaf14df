import { useRefresh } from '../../../api/client';

/** The budgets' read: the budgets page, the workspace overview and the banner share it. */
export const useRefreshBudgets = () => useRefresh('/api/org/budgets');

/**
 * A limit as typed, for the API to judge: blank or not a number is sent as `null`, so the answer
 * names `limit_usd` with its own message (more than 0, cents) under the field.
 */
export function limitOf(text: string | undefined): number {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** "80, 100" → [80, 100]; blank → none. Anything not a number goes as `null`, and the API says which. */
export function percentsOf(text: string | undefined): number[] {
  return (text ?? '')
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((part) => Number(part.replace(/%$/, '')));
}

/** The thresholds as the form shows them. */
export const percentsText = (values: number[]) => values.join(', ');
