import { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../http/schemas.js';

/*
 * Budgets of an organisation (CONTRACT.md, "Budgets"): a limit in US dollars per UTC day or month
 * on what the organisation, a workspace, a consumer, a user or a routine spends on the model.
 */

export const BUDGET_SCOPES = ['org', 'workspace', 'consumer', 'user', 'routine'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];
export const BUDGET_PERIODS = ['day', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
const DEFAULT_ALERTS = [80, 100];
/** Budgets one organisation may have (their definitions are one item, read by every query). */
export const MAX_BUDGETS = 100;

const limitUsd = z
  .number({ error: 'must be an amount in US dollars' })
  .positive('must be more than 0')
  .max(10_000_000, 'must be at most 10 000 000')
  // In whole cents: 0.07 * 100 is 7.000000000000001 in floating point, so compare with a tolerance, then store the cents exactly.
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'at most 2 decimals (cents)')
  .transform((value) => Math.round(value * 100) / 100);
const alertPercent = z
  .array(z.number({ error: 'must be a percentage' }).int('must be a whole percentage').min(1, 'at least 1').max(100, 'at most 100'), {
    error: 'must be a list of percentages',
  })
  .max(10, 'at most 10 thresholds')
  .transform((values) => [...new Set(values)].sort((a, b) => a - b));

export const CreateBudgetBody = z
  .object({
    scope: z.enum(BUDGET_SCOPES, { error: 'must be org, workspace, consumer, user or routine' }),
    scope_id: z.string().min(1, 'must name the workspace, consumer, user or routine').max(200).optional(),
    period: z.enum(BUDGET_PERIODS, { error: 'must be day or month' }),
    limit_usd: limitUsd,
    alert_percent: alertPercent.default(DEFAULT_ALERTS),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.scope === 'org' && body.scope_id !== undefined)
      context.addIssue({ code: 'custom', path: ['scope_id'], message: 'an org budget covers the whole organisation: no scope_id' });
    if (body.scope !== 'org' && body.scope_id === undefined)
      context.addIssue({ code: 'custom', path: ['scope_id'], message: `a ${body.scope} budget needs the ${body.scope}'s id` });
  })
  .openapi('CreateBudget');
export type CreateBudgetInput = z.infer<typeof CreateBudgetBody>;

export const UpdateBudgetBody = z
  .object({ limit_usd: limitUsd.optional(), alert_percent: alertPercent.optional() })
  .strict()
  .openapi('UpdateBudget');
export type UpdateBudgetInput = z.infer<typeof UpdateBudgetBody>;

export const BudgetSchema = z
  .object({
    id: z.string(),
    scope: z.enum(BUDGET_SCOPES),
    scope_id: z.string().nullable(),
    name: z.string().openapi({ description: 'the name of what it covers: the organisation, workspace, consumer, user or routine' }),
    period: z.enum(BUDGET_PERIODS),
    limit_usd: z.number(),
    spent_usd: z.number().openapi({ description: 'spent this period' }),
    reserved_usd: z.number().openapi({ description: 'held for queries running now, settled when they end' }),
    resets_at: isoTimestamp.openapi({ description: 'when this period ends (UTC midnight, or the first of next month)' }),
    alert_percent: z.array(z.number().int()),
    status: z.enum(['ok', 'alerted', 'exceeded']),
  })
  .openapi('Budget');
export type Budget = z.infer<typeof BudgetSchema>;

export const BudgetParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'bud_0mwr…' }),
});
