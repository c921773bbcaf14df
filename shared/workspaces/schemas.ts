import { ApprovalSettingSchema } from './approval-setting.js';
import { z } from '@hono/zod-openapi';
import { TokensSchema, MODEL_TIER_IDS } from '../models/index.js';
import { displayName, isoTimestamp } from '../http/schemas.js';
import { ToolSearchSettingInput, ToolSearchSettingSchema } from './tool-search-setting.js';

export const WORKSPACE_DEFAULTS = {
  model: 'balanced',
  cold_timeout_minutes: 30,
  close_timeout_minutes: 120,
  max_tool_rounds: 10,
  tool_budget_seconds: 120,
} as const;

/** Optional per-workspace limits: absent means no token budget, and the service's MCP timeout. */
const tokenBudget = z
  .number({ error: 'must be a number of tokens' })
  .int('must be an integer')
  .min(1_000, 'must be at least 1000')
  .max(10_000_000, 'must be at most 10000000');
/** The most a query may wait on its tools in all: 15 minutes, the longest a Lambda runs. */
const MAX_TOOL_BUDGET_SECONDS = 900;
const toolBudget = z
  .number({ error: 'must be a number of seconds' })
  .min(1, 'must be at least 1 second')
  .max(MAX_TOOL_BUDGET_SECONDS, `must be at most ${MAX_TOOL_BUDGET_SECONDS} seconds`);
const toolTimeout = z
  .number({ error: 'must be a number of seconds' })
  .min(0.01, 'must be greater than 0 (at least 0.01 seconds)')
  .max(600, 'must be at most 600 seconds');

/** A year: timeouts longer than this are almost certainly a unit mistake. */
const MAX_TIMEOUT_MINUTES = 525_600;

// DynamoDB numbers stop at 1e-130: a timeout is at least a thousandth of a minute (60 ms).
const timeoutMinutes = z
  .number({ error: 'must be a number of minutes' })
  .min(0.001, 'must be greater than 0 (at least 0.001 minutes)')
  .max(MAX_TIMEOUT_MINUTES, `must be at most ${MAX_TIMEOUT_MINUTES} minutes`);

/** Who, besides admins, may read a workspace's conversations (docs/api-decisions.md, "Conversations are private to their starter"). */
const CONVERSATION_VISIBILITIES = ['starter', 'team'] as const;
export type ConversationVisibility = (typeof CONVERSATION_VISIBILITIES)[number];
const ConversationVisibilitySchema = z.enum(CONVERSATION_VISIBILITIES, { error: 'must be starter or team' }).openapi({
  description:
    "starter (the default): a member lists, reads, rates and closes only the conversations they started; team: every member of the workspace's team reads them all. Admins read all either way; an api key its own consumer's.",
});

const systemPrompt = z.string().max(100_000, 'must be at most 100000 characters');

const ModelTierSchema = z.enum(MODEL_TIER_IDS, {
  error: `must be one of ${MODEL_TIER_IDS.join(', ')} (see GET /api/models)`,
});

export const WorkspaceSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    team: z.string(),
    team_id: z.string(),
    model: z.string(),
    system_prompt: z.string(),
    cold_timeout_minutes: z.number(),
    close_timeout_minutes: z.number(),
    max_tool_rounds: z.number().int(),
    max_tokens_per_query: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'token budget of one query (input + output, all model calls); null: none' }),
    tool_timeout_seconds: z
      .number()
      .nullable()
      .openapi({ description: 'timeout of one tool call; null: the service default (MCP_TIMEOUT_MS)' }),
    tool_budget_seconds: z
      .number()
      .openapi({ description: 'how long one query may wait on its tools in all (default 120, at most 900); then it ends with an error' }),
    approval: ApprovalSettingSchema,
    tool_search: ToolSearchSettingSchema,
    conversations_visible_to: ConversationVisibilitySchema,
    created_at: isoTimestamp,
  })
  .openapi('WorkspaceSummary');
export type WorkspaceSummary = z.infer<typeof WorkspaceSummarySchema>;

export const WorkspaceListItemSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    team: z.string(),
    team_id: z.string(),
    status: z.string(),
    model: z.string(),
    connection_count: z.number().int(),
    tool_count: z.number().int(),
    knowledge_count: z.number().int(),
    queries_today: z.number().int(),
    cost_mtd: z.number(),
    created_at: isoTimestamp,
  })
  .openapi('WorkspaceListItem');
export type WorkspaceListItem = z.infer<typeof WorkspaceListItemSchema>;

export const CreateWorkspaceBody = z
  .object({
    name: displayName(),
    team_id: z.string().min(1).max(200).optional(),
    team_name: displayName().optional(),
    system_prompt: systemPrompt.optional(),
  })
  .refine((body) => !(body.team_id && body.team_name), {
    message: 'give team_id or team_name, not both',
    path: ['team_id'],
  })
  .openapi('CreateWorkspaceRequest');
export type CreateWorkspaceInput = z.infer<typeof CreateWorkspaceBody>;

export const CreateWorkspaceResponse = z
  .object({ id: z.string(), name: z.string(), status: z.string() })
  .openapi('CreateWorkspaceResponse');

export const UpdateWorkspaceBody = z
  .object({
    name: displayName().optional(),
    model: ModelTierSchema.optional(),
    system_prompt: systemPrompt.optional(),
    cold_timeout_minutes: timeoutMinutes.optional(),
    close_timeout_minutes: timeoutMinutes.optional(),
    max_tool_rounds: z
      .number({ error: 'must be an integer' })
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(50, 'must be at most 50')
      .optional(),
    max_tokens_per_query: tokenBudget.nullable().optional(),
    tool_timeout_seconds: toolTimeout.nullable().optional(),
    tool_budget_seconds: toolBudget.optional(),
    approval: ApprovalSettingSchema.optional(),
    tool_search: ToolSearchSettingInput.optional(),
    conversations_visible_to: ConversationVisibilitySchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message:
      'give at least one of name, model, system_prompt, cold_timeout_minutes, close_timeout_minutes, max_tool_rounds, max_tokens_per_query, tool_timeout_seconds, tool_budget_seconds, approval, tool_search, conversations_visible_to',
  })
  .openapi('UpdateWorkspaceRequest');
export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceBody>;

const WorkspaceStatsSchema = z
  .object({
    today: z.number().int(),
    week: z.number().int(),
    month: z.number().int(),
    avg_ms: z.number(),
    cost_mtd: z.number(),
    error_rate: z.number(),
  })
  .openapi('WorkspaceStats');
export type WorkspaceStats = z.infer<typeof WorkspaceStatsSchema>;

export const ConnectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    status: z.string().openapi({ description: 'connected, needs_authorization, or error (see last_error)' }),
    transport: z.enum(['http', 'stdio']),
    url: z.string().nullable(),
    command: z.string().nullable(),
    args: z.array(z.string()),
    headers: z.record(z.string(), z.string()).openapi({ description: 'header names with a mask (admins; {} for members)' }),
    env: z.record(z.string(), z.string()).openapi({ description: 'environment variable names with a mask (admins; {} for members)' }),
    last_error: z.string().nullable().openapi({ description: 'why the last attempt to reach it failed (status error)' }),
    auth: z.enum(['none', 'oauth']).openapi({ description: 'oauth: reached with an OAuth grant (POST /api/connections/:id/authorize)' }),
    credential: z
      .enum(['workspace', 'per_user'])
      .nullable()
      .openapi({ description: 'oauth: one grant for every caller (workspace) or one per person (per_user); null otherwise' }),
    tool_count: z.number().int(),
    tools_truncated: z
      .string()
      .optional()
      .openapi({ description: 'what the last listing of its tools dropped or cut past the tool limits; absent when nothing was' }),
    created_at: isoTimestamp,
  })
  .openapi('Connection');

export const ToolSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    is_write: z.boolean(),
    connection_id: z.string(),
    description: z.string(),
  })
  .openapi('Tool');

export const KnowledgeEntrySchema = z
  .object({ id: z.string(), title: z.string(), content: z.string(), created_at: isoTimestamp, updated_at: isoTimestamp })
  .openapi('KnowledgeEntry');

export const KnowledgeGapSchema = z
  .object({ id: z.string(), question: z.string(), conversation_id: z.string(), created_at: isoTimestamp })
  .openapi('KnowledgeGap');

export const GuardrailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    pattern: z.string(),
    action: z.string(),
    applies_to: z.string(),
    enabled: z.boolean(),
  })
  .openapi('Guardrail');

export const ViolationSchema = z
  .object({
    id: z.string(),
    guardrail_id: z.string(),
    guardrail_name: z.string(),
    conversation_id: z.string(),
    direction: z.string(),
    action: z.string(),
    excerpt: z.string(),
    created_at: isoTimestamp,
  })
  .openapi('Violation');

export const ConsumerSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    name: z.string().nullable().openapi({ description: 'the name given when it was connected; null without one' }),
    status: z.string(),
    channels: z.array(z.object({ channel_id: z.string(), channel_name: z.string().nullable() })),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable().openapi({
      description: 'when its key last authenticated (to the minute: written at most once a minute); null if never, and for team chat',
    }),
  })
  .openapi('Consumer');

export const PermissionSchema = z
  .object({ role: z.string(), tool_patterns: z.string().openapi({ example: '["*"]' }) })
  .openapi('Permission');

export const WorkspaceDetailSchema = z
  .object({
    workspace: WorkspaceSummarySchema,
    connections: z.array(ConnectionSchema),
    tools: z.array(ToolSchema),
    knowledge: z.array(KnowledgeEntrySchema),
    guardrails: z.array(GuardrailSchema),
    consumers: z.array(ConsumerSchema),
    permissions: z.array(PermissionSchema),
    stats: WorkspaceStatsSchema,
  })
  .openapi('WorkspaceDetail');

/** How a tool call through the MCP gateway ended, as its audit entry says. */
export const TOOL_CALL_OUTCOMES = [
  'ok',
  'error',
  'blocked',
  'unknown_tool',
  'needs_authorization',
  'approval_pending',
  'denied',
  'expired',
] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

export const ActivityEntrySchema = z
  .object({
    id: z.string(),
    conversation_id: z.string().nullable().openapi({
      description: 'the conversation the query was asked in (its transcript: GET …/conversations/:cid); null when it is not known',
    }),
    user_id: z.string().nullable().openapi({
      description:
        'the user who asked (a signed-in user, or the one a chat account is linked to); null for a consumer key, and for entries stored before it was kept',
    }),
    user_name: z.string(),
    query: z.string(),
    tools_called: z.array(z.string()),
    connections_hit: z.array(z.string()),
    tokens_input: z.number().int(),
    tokens_output: z.number().int(),
    tokens: TokensSchema,
    cost_usd: z.number(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    approvals: z
      .array(
        z.object({
          id: z.string(),
          tool: z.string(),
          status: z.string(),
          decided_by: z.string().nullable(),
          decided_at: z.string().nullable(),
          reason: z.string().nullable(),
        }),
      )
      .openapi({ description: 'decisions on the tool calls of this query that needed approval: who decided, when, the decision' }),
    kind: z.enum(['query', 'tool_call']).openapi({
      description:
        "query: a question the agent answered; tool_call: a person's call of one tool through the workspace's MCP endpoint (no conversation, no model cost)",
    }),
    client: z
      .string()
      .nullable()
      .openapi({ description: 'tool_call: the name of the MCP client the person called from; null for a query' }),
    consumer: z.string().nullable().openapi({
      description: 'tool_call: the consumer it is counted under, named after the client (`mcp:<client name>`); null for a query',
    }),
    tool: z.string().nullable().openapi({ description: 'tool_call: the tool called, by the name the person called it; null for a query' }),
    outcome: z.enum(TOOL_CALL_OUTCOMES).nullable().openapi({
      description:
        'tool_call: ok, error (the tool failed), blocked (a guardrail), unknown_tool (not a tool this person may use), needs_authorization (their own grant is missing), approval_pending, denied or expired (its approval); null for a query',
    }),
    created_at: isoTimestamp,
  })
  .openapi('ActivityEntry');
