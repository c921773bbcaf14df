import { z } from '@hono/zod-openapi';
import { TokensSchema, MODEL_TIER_IDS } from '../models/index.js';
import { isoTimestamp } from '../http/schemas.js';

/*
 * Evaluations of a workspace (CONTRACT.md, "Evaluations"): sets of cases, each a question and what
 * a good answer does, run through the job queue against the workspace as it is (or with
 * `overrides`, to try a change before it is saved).
 */

/** Cases of one evaluation, and how long their texts may be (the definition is one item). */
const MAX_CASES = 200;
const MAX_QUESTION = 8_000;
const MAX_TEXTS = 20;

const toolNames = z.array(z.string().min(1).max(200), { error: 'must be a list of tool names' }).max(MAX_TEXTS);
const texts = z.array(z.string().min(1, 'must not be empty').max(500), { error: 'must be a list of texts' }).max(MAX_TEXTS);

const ExpectSchema = z
  .object({
    tools: toolNames.optional().openapi({ description: 'tools that must be called (any of a tool’s names)' }),
    tools_not: toolNames.optional().openapi({ description: 'tools that must not be called' }),
    contains: texts.optional().openapi({ description: 'texts the answer must contain, case-insensitive' }),
    not_contains: texts.optional().openapi({ description: 'texts the answer must not contain, case-insensitive' }),
    judge: z.string().min(1).max(4_000).optional().openapi({ description: 'a rubric the model grades the answer by' }),
  })
  .strict()
  .openapi('EvalExpect');

const CaseInput = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, '1–64 letters, digits, _ . and -')
      .optional(),
    question: z.string().trim().min(1, 'must not be empty').max(MAX_QUESTION),
    history: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(MAX_QUESTION) }).strict())
      .max(40)
      .optional(),
    expect: ExpectSchema,
  })
  .strict()
  .openapi('EvalCaseInput');

const EvalCaseSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    history: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })).optional(),
    expect: ExpectSchema,
  })
  .openapi('EvalCase');
export type EvalCase = z.infer<typeof EvalCaseSchema>;

const cases = z
  .array(CaseInput, { error: 'must be a list of cases' })
  .min(1, 'at least one case')
  .max(MAX_CASES, `at most ${MAX_CASES} cases`)
  .superRefine((list, context) => {
    const seen = new Set<string>();
    list.forEach((item, index) => {
      if (item.id === undefined) return;
      if (seen.has(item.id)) context.addIssue({ code: 'custom', path: [index, 'id'], message: `case id ${item.id} is used twice` });
      seen.add(item.id);
    });
  });
const name = z.string().trim().min(1, 'must not be empty').max(100);

export const CreateEvalBody = z.object({ name, cases }).strict().openapi('CreateEval');
export const UpdateEvalBody = z.object({ name: name.optional(), cases: cases.optional() }).strict().openapi('UpdateEval');
export type EvalInput = z.infer<typeof CreateEvalBody>;

export const EvalSchema = z.object({ id: z.string(), name: z.string(), cases: z.array(EvalCaseSchema) }).openapi('Eval');

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
const RunStatus = z.enum(RUN_STATUSES);

const OverridesSchema = z
  .object({
    system_prompt: z.string().max(60_000).optional(),
    model: z.enum(MODEL_TIER_IDS, { error: `must be one of ${MODEL_TIER_IDS.join(', ')}` }).optional(),
  })
  .strict()
  .openapi('EvalOverrides', { description: 'settings tried in this run only; the workspace is not changed' });
export type Overrides = z.infer<typeof OverridesSchema>;

export const StartRunBody = z.object({ overrides: OverridesSchema.optional() }).strict().openapi('StartEvalRun');

const CaseResultSchema = z
  .object({
    case_id: z.string(),
    passed: z.boolean(),
    answer: z.string(),
    tools_called: z.array(z.string()),
    failures: z.array(z.string()),
    tokens: TokensSchema,
    cost_usd: z.number(),
    duration_ms: z.number().int(),
  })
  .openapi('EvalCaseResult');
export type CaseResult = z.infer<typeof CaseResultSchema>;

export const RunSummarySchema = z
  .object({
    id: z.string(),
    status: RunStatus,
    overrides: OverridesSchema,
    started_at: isoTimestamp.nullable(),
    finished_at: isoTimestamp.nullable(),
    passed: z.number().int(),
    failed: z.number().int(),
    score: z.number().nullable(),
    tokens: TokensSchema,
    cost_usd: z.number(),
    duration_ms: z.number().int(),
    compared_to: z.string().nullable(),
    regressions: z.array(z.string()),
  })
  .openapi('EvalRunSummary');
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const RunSchema = RunSummarySchema.extend({ results: z.array(CaseResultSchema) }).openapi('EvalRun');

export const EvalListItemSchema = z
  .object({ id: z.string(), name: z.string(), case_count: z.number().int(), last_run: RunSummarySchema.nullable() })
  .openapi('EvalListItem');

export const EvalParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'ws-support' }),
  eval_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'eval_id', in: 'path' } }),
});
export const RunParams = EvalParams.extend({
  run_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'run_id', in: 'path' } }),
});
