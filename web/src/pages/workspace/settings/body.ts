import type { Schemas } from '../../../api/client';

type Summary = Schemas['WorkspaceSummary'];
export type UpdateBody = Schemas['UpdateWorkspaceRequest'];
type Approval = Schemas['ApprovalSetting'];
type ToolSearch = Schemas['ToolSearchSetting'];

/** A number field: empty is NaN (sent as null, which the API names as that field's error). */
const number = (value: string | undefined) => (value === undefined || value.trim() === '' ? Number.NaN : Number(value));
/** A limit that may be left empty for "none" / "the service default". */
const optionalNumber = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : Number(value));

const linesOf = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The whole request the form says, from its values by input name (nested ones named `approval.…` and `tool_search.…`). */
function fullBody(values: Record<string, string>): UpdateBody {
  const mode = (values['approval.mode'] ?? 'none') as Approval['mode'];
  const approval: Approval = {
    mode,
    approvers: (values['approval.approvers'] ?? 'admins') as Approval['approvers'],
    expires_minutes: number(values['approval.expires_minutes']),
    ...(mode === 'patterns' ? { patterns: linesOf(values['approval.patterns']) } : {}),
  };
  const toolSearch: ToolSearch = {
    mode: (values['tool_search.mode'] ?? 'auto') as ToolSearch['mode'],
    threshold: number(values['tool_search.threshold']),
    pinned: linesOf(values['tool_search.pinned']),
  };
  return {
    name: values.name ?? '',
    model: values.model as UpdateBody['model'],
    system_prompt: values.system_prompt ?? '',
    cold_timeout_minutes: number(values.cold_timeout_minutes),
    close_timeout_minutes: number(values.close_timeout_minutes),
    max_tool_rounds: number(values.max_tool_rounds),
    max_tokens_per_query: optionalNumber(values.max_tokens_per_query),
    tool_timeout_seconds: optionalNumber(values.tool_timeout_seconds),
    tool_budget_seconds: number(values.tool_budget_seconds),
    approval,
    tool_search: toolSearch,
    conversations_visible_to: (values.conversations_visible_to ?? 'starter') as UpdateBody['conversations_visible_to'],
  };
}

/** The approval as it compares: patterns matter only with mode patterns. */
function comparableApproval(approval: Approval) {
  return JSON.stringify([
    approval.mode,
    approval.approvers,
    approval.expires_minutes,
    approval.mode === 'patterns' ? (approval.patterns ?? []) : [],
  ]);
}

/** The tool search setting as it compares (pinned in the order given: a new order is a change). */
const comparableToolSearch = (setting: ToolSearch) => JSON.stringify([setting.mode, setting.threshold, setting.pinned]);

/** How a nested setting compares; any other field compares by value. */
const COMPARABLE: Record<string, (value: never) => string> = { approval: comparableApproval, tool_search: comparableToolSearch };

/** Only what changed: an unchanged field is not sent (a model tier the catalogue no longer has stays as it is). */
export function changedBody(values: Record<string, string>, current: Summary): UpdateBody {
  const body = fullBody(values);
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const before = current[key as keyof Summary];
    // NaN (an emptied number) equals nothing, so it is sent and the API names the field.
    const comparable = COMPARABLE[key];
    const same = comparable ? comparable(value as never) === comparable(before as never) : value === before;
    if (!same) changed[key] = value;
  }
  return changed as UpdateBody;
}
