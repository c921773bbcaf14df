import { z } from '@hono/zod-openapi';
import { PaginationQuery, WorkspaceParams, hasFormatCharacter, isoTimestamp } from '../http/schemas.js';

export const ApprovalParams = WorkspaceParams.extend({
  approval_id: z
    .string()
    .regex(/^appr_[a-z0-9]{1,60}$/, 'not an approval id')
    .openapi({ param: { name: 'approval_id', in: 'path' }, example: 'appr_0mwtl95xg0000' }),
});

export const ApprovalListQuery = PaginationQuery.extend({
  status: z
    .enum(['pending', 'approved', 'denied', 'expired'], { error: 'must be pending, approved, denied or expired' })
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
});

export const DecisionBody = z
  .object({
    decision: z.enum(['approve', 'deny'], { error: 'must be approve or deny' }),
    reason: z
      .string()
      .trim()
      .max(1000, 'must be at most 1000 characters')
      .refine((value) => !hasFormatCharacter(value), 'must not contain control or invisible format characters')
      .optional(),
  })
  .openapi('ApprovalDecision');

const ApprovalSchema = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'approved', 'denied', 'expired']),
    tool: z.string(),
    connection: z.string().nullable(),
    input: z.record(z.string(), z.unknown()).openapi({ description: 'the exact arguments the call runs with if approved' }),
    requested_by: z.string(),
    conversation_id: z.string(),
    approvers: z.enum(['admins', 'requester']),
    expires_at: isoTimestamp,
    created_at: isoTimestamp,
    decided_by: z.string().nullable(),
    decided_at: isoTimestamp.nullable(),
    reason: z.string().nullable(),
    source: z.enum(['agent', 'gateway']).openapi({
      description:
        "agent: a query waits on it and goes on once decided; gateway: a person's tool call through the workspace's MCP endpoint, which runs once when they call it again (or at once, while the call still waits)",
    }),
  })
  .openapi('Approval');

const ListedApprovalSchema = ApprovalSchema.extend({
  can_decide: z
    .boolean()
    .openapi({ description: 'Whether the caller may approve or deny it now: pending, and the caller is one of its approvers' }),
}).openapi('ListedApproval');

export const ApprovalListResponse = z
  .object({ approvals: z.array(ListedApprovalSchema), total: z.number().int(), next_cursor: z.string().nullable() })
  .openapi('ApprovalList');
