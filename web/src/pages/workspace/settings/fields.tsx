import { useState } from 'react';
import type { Schemas } from '../../../api/client';
import { Field } from '../../../ui/form';
import { money } from '../../../ui/format';

type Summary = Schemas['WorkspaceSummary'];
type Model = Schemas['Model'];

/** A model tier with its prices (US dollars per million tokens, said next to it), as the choice says it. */
export const modelLabel = (model: Model) =>
  `${model.name} (${model.model}): ${money(model.input_cost_per_mtok)} input, ${money(model.output_cost_per_mtok)} output`;

export function GeneralFields({ workspace, models, error }: { workspace: Summary; models: Model[] | undefined; error: unknown }) {
  const known = models?.some((model) => model.id === workspace.model);
  return (
    <fieldset className="access-fieldset">
      <legend>General</legend>
      <Field label="Name" name="name" error={error}>
        <input defaultValue={workspace.name} required />
      </Field>
      <Field label="Model" name="model" error={error} hint="Prices are in US dollars per million tokens.">
        <select defaultValue={workspace.model}>
          {!known && <option value={workspace.model}>{workspace.model}</option>}
          {models?.map((model) => (
            <option key={model.id} value={model.id}>
              {modelLabel(model)}
            </option>
          ))}
        </select>
      </Field>
      <Field label="System prompt" name="system_prompt" error={error} hint="How the agent should behave in this workspace.">
        <textarea rows={6} defaultValue={workspace.system_prompt} />
      </Field>
    </fieldset>
  );
}

export function TimeoutFields({ workspace, error }: { workspace: Summary; error: unknown }) {
  return (
    <fieldset className="access-fieldset">
      <legend>Timeouts</legend>
      <Field
        label="Cold timeout (minutes)"
        name="cold_timeout_minutes"
        error={error}
        hint="A conversation without messages this long goes cold."
      >
        <input type="number" inputMode="decimal" min={0.001} step="any" defaultValue={workspace.cold_timeout_minutes} />
      </Field>
      <Field label="Close timeout (minutes)" name="close_timeout_minutes" error={error} hint="A cold conversation closes after this long.">
        <input type="number" inputMode="decimal" min={0.001} step="any" defaultValue={workspace.close_timeout_minutes} />
      </Field>
      <Field
        label="Tool timeout (seconds)"
        name="tool_timeout_seconds"
        error={error}
        hint="One tool call may take this long. Empty: the service default."
      >
        <input type="number" inputMode="decimal" min={0.01} max={600} step="any" defaultValue={workspace.tool_timeout_seconds ?? ''} />
      </Field>
      <Field
        label="Tool budget (seconds)"
        name="tool_budget_seconds"
        error={error}
        hint="One query may wait on its tools this long in all (1–900); then it ends with an error."
      >
        <input type="number" inputMode="decimal" min={1} max={900} step="any" defaultValue={workspace.tool_budget_seconds} />
      </Field>
    </fieldset>
  );
}

export function LimitFields({ workspace, error }: { workspace: Summary; error: unknown }) {
  return (
    <fieldset className="access-fieldset">
      <legend>Limits</legend>
      <Field label="Max tool rounds" name="max_tool_rounds" error={error} hint="Model turns with tool calls one query may take (1–50).">
        <input type="number" inputMode="numeric" min={1} max={50} step={1} defaultValue={workspace.max_tool_rounds} />
      </Field>
      <Field
        label="Max tokens per query"
        name="max_tokens_per_query"
        error={error}
        hint="Input and output tokens of one query, all model calls (1000–10000000). Empty: no budget."
      >
        <input type="number" inputMode="numeric" min={1000} step={1} defaultValue={workspace.max_tokens_per_query ?? ''} />
      </Field>
    </fieldset>
  );
}

const MODES = [
  { value: 'none', label: 'None: no tool call waits for approval' },
  { value: 'write_tools', label: 'Write tools: every tool that writes' },
  { value: 'patterns', label: 'Patterns: tools whose names match a pattern' },
] as const;

/** The approval setting (docs/approvals.md); its fields are named as the request nests them, `approval.…`. */
export function ApprovalFields({ approval, error }: { approval: Summary['approval']; error: unknown }) {
  const [mode, setMode] = useState(approval.mode);
  return (
    <fieldset className="access-fieldset">
      <legend>Approvals of tool calls</legend>
      <Field label="Approval mode" name="approval.mode" error={error}>
        <select value={mode} onChange={(event) => setMode(event.target.value as typeof mode)}>
          {MODES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      {mode === 'patterns' && (
        <Field
          label="Approval patterns"
          name="approval.patterns"
          error={error}
          hint="One per line (1–50); * matches any run of characters, matched as permissions are."
        >
          <textarea rows={3} defaultValue={(approval.patterns ?? []).join('\n')} />
        </Field>
      )}
      <Field label="Approvers" name="approval.approvers" error={error}>
        <select defaultValue={approval.approvers}>
          <option value="admins">Admins: any admin of the organisation</option>
          <option value="requester">Requester: the person (or API key) who asked</option>
        </select>
      </Field>
      <Field label="Expires after (minutes)" name="approval.expires_minutes" error={error} hint="Whole minutes, 1–10080 (a week).">
        <input type="number" inputMode="numeric" min={1} max={10080} step={1} defaultValue={approval.expires_minutes} />
      </Field>
    </fieldset>
  );
}

const SEARCH_MODES = [
  { value: 'auto', label: 'Auto: search when a caller may use more tools than the threshold' },
  { value: 'always', label: 'Always: the model always searches the tools' },
  { value: 'off', label: 'Off: the model is sent every tool' },
] as const;

/** The tool search setting; its fields are named as the request nests them, `tool_search.…`. */
export function ToolSearchFields({ toolSearch, error }: { toolSearch: Summary['tool_search']; error: unknown }) {
  return (
    <fieldset className="access-fieldset">
      <legend>Tool search</legend>
      <p className="hint">
        When it applies, the model is sent search_tools, the pinned tools and the knowledge search instead of every definition, and finds
        the other tools it may use by searching (cheaper prompts for workspaces with many tools).
      </p>
      <Field label="Tool search mode" name="tool_search.mode" error={error}>
        <select defaultValue={toolSearch.mode}>
          {SEARCH_MODES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="Threshold (tools)"
        name="tool_search.threshold"
        error={error}
        hint="Whole number, 1–1000: in auto mode, past this many tools the model searches them."
      >
        <input type="number" inputMode="numeric" min={1} max={1000} step={1} defaultValue={toolSearch.threshold} />
      </Field>
      <Field
        label="Pinned tools"
        name="tool_search.pinned"
        error={error}
        hint="Tool names, one per line (at most 50): always sent to the model, whatever the mode."
      >
        <textarea rows={3} defaultValue={toolSearch.pinned.join('\n')} />
      </Field>
    </fieldset>
  );
}

/** Who reads the workspace's conversations besides admins (docs/api-decisions.md, "Conversations are private to their starter"). */
export const VISIBILITY = {
  starter: 'Only the person who started each one (and admins)',
  team: "Every member of the workspace's team",
} as const;

export function PrivacyFields({ workspace, error }: { workspace: Summary; error: unknown }) {
  return (
    <fieldset className="access-fieldset">
      <legend>Privacy</legend>
      <Field
        label="Who reads conversations"
        name="conversations_visible_to"
        error={error}
        hint="Admins read every conversation and the whole audit log either way."
      >
        <select defaultValue={workspace.conversations_visible_to}>
          {Object.entries(VISIBILITY).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
    </fieldset>
  );
}
