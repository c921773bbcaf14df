import { z } from '@hono/zod-openapi';
import { globMatcher } from '../platform/globs.js';

/*
 * The workspace's `approval` setting: which tool calls a person must approve before they run, who
 * may approve them, and how long a request waits.
 */

export const ApprovalSettingSchema = z
  .object({
    mode: z.enum(['none', 'write_tools', 'patterns'], { error: 'must be none, write_tools or patterns' }),
    patterns: z
      .array(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'))
      .max(50, 'at most 50 patterns')
      .optional(),
    approvers: z.enum(['admins', 'requester'], { error: 'must be admins or requester' }),
    expires_minutes: z
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(10_080, 'must be at most 10080 (a week)'),
  })
  .refine((setting) => setting.mode !== 'patterns' || (setting.patterns?.length ?? 0) > 0, {
    message: 'mode patterns needs at least one pattern',
    path: ['patterns'],
  })
  .openapi('ApprovalSetting', {
    description:
      'none: no approvals; write_tools: every tool with is_write; patterns: tools whose MCP name, offered name or <connection>__<tool> matches a glob.',
  });
export type ApprovalSetting = z.infer<typeof ApprovalSettingSchema>;

const DEFAULT_APPROVAL: ApprovalSetting = { mode: 'none', approvers: 'admins', expires_minutes: 60 };

/** The workspace's setting, or the default for workspaces made before approvals existed. */
export function approvalSettingOf(workspace: { approval?: ApprovalSetting | null }): ApprovalSetting {
  return workspace.approval ?? DEFAULT_APPROVAL;
}

/**
 * Whether a call to a tool needs approval under this setting, its patterns compiled once per query;
 * `names` are the tool's three names (as permissions match them).
 */
export function approvalRule(setting: ApprovalSetting): (tool: { isWrite: boolean; names: string[] }) => boolean {
  if (setting.mode === 'write_tools') return (tool) => tool.isWrite;
  if (setting.mode === 'patterns') {
    const matchers = (setting.patterns ?? []).map(globMatcher);
    return (tool) => tool.names.some((name) => matchers.some((matches) => matches(name)));
  }
  return () => false;
}
