import { z } from '@hono/zod-openapi';

/*
 * The workspace's `tool_search` setting: when the model searches the workspace's tools instead of
 * being sent every definition, past how many usable tools, and which tools it always gets.
 */

const TOOL_SEARCH_MODES = ['auto', 'always', 'off'] as const;

/** A tool's name as a pin gives it: any of its names (MCP, offered, `<connection>__<tool>`), as permissions match them. */
const pinnedName = z
  .string({ error: 'must be a tool name' })
  .regex(/^[A-Za-z0-9_.-]{1,200}$/, 'a tool name: 1–200 letters, digits, _ . and -');

const mode = z.enum(TOOL_SEARCH_MODES, { error: 'must be auto, always or off' });
const threshold = z
  .number({ error: 'must be a number of tools' })
  .int('must be a whole number of tools')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000');
const pinned = z.array(pinnedName, { error: 'must be a list of tool names' }).max(50, 'at most 50 pinned tools');

const DESCRIPTION =
  'auto: the model searches the tools (search_tools) when the caller may use more than threshold of them; always: it always searches; off: it is sent every tool. pinned tools are always sent.';

/** The setting as stored and shown. */
export const ToolSearchSettingSchema = z.object({ mode, threshold, pinned }).openapi('ToolSearchSetting', { description: DESCRIPTION });
export type ToolSearchSetting = z.infer<typeof ToolSearchSettingSchema>;

const DEFAULT_TOOL_SEARCH: ToolSearchSetting = { mode: 'auto', threshold: 30, pinned: [] };

/** The setting as `PUT /api/workspaces/:id` takes it: it replaces the stored one, and what it leaves out takes its default. */
export const ToolSearchSettingInput = z
  .object({
    mode: mode.default(DEFAULT_TOOL_SEARCH.mode),
    threshold: threshold.default(DEFAULT_TOOL_SEARCH.threshold),
    // A name given twice is pinned once.
    pinned: pinned.default([]).transform((names) => [...new Set(names)]),
  })
  .openapi('ToolSearchSettingInput', { description: `${DESCRIPTION} Fields left out take their defaults (auto, 30, none).` });

/** The workspace's setting, or the default for workspaces that have none stored. */
export function toolSearchSettingOf(workspace: { tool_search?: ToolSearchSetting | null }): ToolSearchSetting {
  return workspace.tool_search ?? DEFAULT_TOOL_SEARCH;
}
