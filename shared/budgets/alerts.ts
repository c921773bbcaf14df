import { z } from 'zod';
import { postInWorkspaceChannels } from '../chat/index.js';
import { postNotice } from '../platform/webhooks.js';
import type { JobMessage, JobHandler } from '../jobs/index.js';
import { readSetting } from '../org/index.js';
import { budgetSpendKey, budgetsKey } from './entities.js';
import { budgetView, budgetsOf, periodOf, resetText, usdText, type SpendItem, type StoredBudget } from './store.js';

/*
 * A budget's alerts (CONTRACT.md, "Budgets"): crossing one of its `alert_percent` thresholds sends,
 * once per period and threshold (the job's id), `{ type: "budget_alert", budget, percent }` to the
 * organisation's `alerts_webhook_url` when set, and a message to the team-chat channels bound to
 * the workspace of a workspace budget. Sent by a job (the `cold-messages` queue: messages that
 * leave the service), so a webhook that is down is retried and the query that crossed it waits for
 * nothing.
 */

export const BudgetAlertSchema = z.object({
  kind: z.literal('budget-alert'),
  budgetId: z.string().min(1),
  period: z.string().min(1),
  percent: z.number().int().min(1).max(100),
});
export type BudgetAlertJob = z.infer<typeof BudgetAlertSchema>;

/** The alert jobs of the thresholds a settlement crossed (spend went from `before` to `after`). */
export function budgetAlertMessages(orgId: string, budget: StoredBudget, before: number, after: number, at: Date): JobMessage[] {
  const period = periodOf(budget.period, at);
  return budget.alert_percent
    .filter((percent) => {
      const line = (budget.limit_usd * percent) / 100;
      return before < line && after >= line;
    })
    .map((percent) => ({
      jobId: `budget-alert-${budget.id}-${period}-${percent}`,
      queue: 'cold-messages' as const,
      orgId,
      data: { kind: 'budget-alert', budgetId: budget.id, period, percent },
    }));
}

/** The `cold-messages` queue's handler of a budget alert. */
export const budgetAlertHandler: JobHandler<BudgetAlertJob> = {
  schema: BudgetAlertSchema,
  async run(deps, data, job) {
    const orgId = job.org_id;
    const budget = budgetsOf(await deps.table.get(budgetsKey(orgId), true)).find((candidate) => candidate.id === data.budgetId);
    if (!budget || periodOf(budget.period, deps.clock.now()) !== data.period) return; // deleted, or its period is over
    const spend = await deps.table.get<SpendItem>(budgetSpendKey(budget.id, data.period), true);
    const view = budgetView(budget, spend, deps.clock.now());
    const url = await readSetting(deps, orgId, 'alerts_webhook_url');
    if (url) {
      const body = { type: 'budget_alert', budget: view, percent: data.percent };
      await postNotice(url, body, { allowPrivate: deps.config.mcpAllowPrivateUrls, receiver: 'the alerts webhook' });
    }
    if (budget.scope !== 'workspace' || !budget.scope_id) return;
    const text = `Budget alert: ${budget.period} budget of workspace "${budget.name}" has reached ${data.percent}% (${usdText(view.spent_usd)} of ${usdText(view.limit_usd)}); it resets at ${resetText(new Date(view.resets_at))}.`;
    await postInWorkspaceChannels(deps, orgId, budget.scope_id, text);
  },
};
