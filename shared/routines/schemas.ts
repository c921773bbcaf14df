import { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../http/schemas.js';
import { webhookUrlProblem } from '../platform/webhooks.js';
import { isTimeZone, scheduleShape } from './schedule-text.js';

/*
 * Routines of a workspace (CONTRACT.md, "Routines"; docs/routines.md): a prompt the workspace
 * answers on its own, on a schedule or when its webhook is called, delivered to the conversation and
 * optionally to a bound team-chat channel and a webhook URL.
 */

/** Routines an organisation may have: each fires at most once a minute, so this bounds its runs a minute too. */
export const MAX_ROUTINES_PER_ORG = 100;
/** The longest prompt (the webhook's payload comes on top, up to `MAX_HOOK_BODY_BYTES`). */
const MAX_PROMPT = 8_000;

export const RUN_TRIGGERS = ['schedule', 'webhook', 'manual'] as const;
export const RUN_STATUSES = ['queued', 'running', 'waiting_approval', 'done', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const ScheduleTrigger = z
  .object({
    schedule: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200)
      // Its shape here; whether croner reads it, where it is saved (store.ts: croner stays out of the route definitions).
      .superRefine((value, context) => {
        const parsed = scheduleShape(value);
        if (typeof parsed === 'string') context.addIssue({ code: 'custom', message: parsed });
      })
      .openapi({
        description: 'a 5-field cron expression (at most once a minute) or rate(<n> minutes|hours|days)',
        example: '0 8 * * 1-5',
      }),
    timezone: z
      .string()
      .max(64)
      .refine(isTimeZone, 'must be an IANA time zone (e.g. Europe/Paris)')
      .default('UTC')
      .openapi({ description: 'the IANA time zone the cron expression is read in (default UTC)' }),
  })
  .strict();
const WebhookTrigger = z.object({ webhook: z.literal(true) }).strict();
const Trigger = z.union([ScheduleTrigger, WebhookTrigger], { error: 'must be { schedule, timezone? } or { webhook: true }' });

const webhookUrl = z
  .string()
  .max(2_000)
  .superRefine((value, context) => {
    const problem = webhookUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

const DeliverTo = z
  .object({
    channel: z.boolean().optional().openapi({ description: "also post the answer in the workspace's bound team-chat channels" }),
    webhook_url: webhookUrl
      .nullable()
      .optional()
      .openapi({ description: 'also POST the answer here (checked by the address policy when used)' }),
  })
  .strict();

const name = z.string().trim().min(1, 'must not be empty').max(100);
const prompt = z.string().trim().min(1, 'must not be empty').max(MAX_PROMPT);
const runAs = z
  .string()
  .min(1)
  .max(200)
  .nullable()
  .openapi({ description: "a user id of the organisation (their permissions and grants), or null: the workspace's own consumer" });

export const CreateRoutineBody = z
  .object({ name, prompt, trigger: Trigger, deliver_to: DeliverTo.optional(), run_as: runAs.optional(), enabled: z.boolean().optional() })
  .strict()
  .openapi('CreateRoutine');
export type CreateRoutineInput = z.infer<typeof CreateRoutineBody>;

export const UpdateRoutineBody = z
  .object({
    name: name.optional(),
    prompt: prompt.optional(),
    trigger: Trigger.optional(),
    deliver_to: DeliverTo.optional(),
    run_as: runAs.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .openapi('UpdateRoutine');
export type UpdateRoutineInput = z.infer<typeof UpdateRoutineBody>;

/** How long a rotated secret may keep verifying: a day, time enough to deploy the new one everywhere. */
export const MAX_KEEP_OLD_SECRET_MINUTES = 1_440;

export const RotateSecretBody = z
  .object({
    keep_old_for_minutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_KEEP_OLD_SECRET_MINUTES)
      .optional()
      .openapi({ description: 'how long the old secret still verifies, in minutes (default 0: it stops at once)', example: 60 }),
  })
  .strict()
  .openapi('RotateRoutineSecret');

export const RoutineRunSchema = z
  .object({
    id: z.string(),
    trigger: z.enum(RUN_TRIGGERS),
    status: z.enum(RUN_STATUSES),
    conversation_id: z.string(),
    /** The scheduled time of a scheduled run, the delivery id of a webhook's, the user id of a manual one. */
    scheduled_at: isoTimestamp.nullable(),
    delivery_id: z.string().nullable(),
    started_by: z.string().nullable(),
    created_at: isoTimestamp,
    started_at: isoTimestamp.nullable(),
    finished_at: isoTimestamp.nullable(),
    duration_ms: z.number().int().nullable(),
    cost_usd: z.number(),
    approval_id: z.string().nullable(),
    error: z.string().nullable(),
  })
  .openapi('RoutineRun');
export type RoutineRunView = z.infer<typeof RoutineRunSchema>;

export const RoutineSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    prompt: z.string(),
    trigger: z.union([z.object({ schedule: z.string(), timezone: z.string() }), z.object({ webhook: z.literal(true) })]),
    deliver_to: z.object({
      channel: z.boolean(),
      webhook_url: z.string().nullable().openapi({ description: 'its origin, the rest masked: the whole URL is sealed at rest' }),
    }),
    run_as: z.string().nullable(),
    enabled: z.boolean(),
    next_run_at: isoTimestamp.nullable(),
    hook_path: z.string().nullable().openapi({ description: 'where the webhook of a webhook routine is POSTed' }),
    last_run: RoutineRunSchema.pick({ id: true, status: true, trigger: true, created_at: true }).nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .openapi('Routine');
export type RoutineView = z.infer<typeof RoutineSchema>;

const pathId = (param: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: param, in: 'path' } });

export const RoutineParams = z.object({ id: pathId('id').openapi({ example: 'ws-support' }), routine_id: pathId('routine_id') });
