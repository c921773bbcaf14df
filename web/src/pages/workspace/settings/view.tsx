import type { ReactNode } from 'react';
import type { Schemas } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { count, dateTime } from '../../../ui/format';
import { Section } from '../../../ui/page';
import { modelLabel, VISIBILITY } from './fields';

type Summary = Schemas['WorkspaceSummary'];

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** What every reader sees: status, team, creation (not editable here). */
export function About({ workspace }: { workspace: Summary }) {
  return (
    <dl className="access-facts">
      <Row term="Status">
        <Badge status={workspace.status} />
      </Row>
      <Row term="Team">{workspace.team}</Row>
      <Row term="Created">{dateTime(workspace.created_at)}</Row>
    </dl>
  );
}

const SEARCH_MODES = {
  auto: 'Auto: when a caller may use more tools than the threshold',
  always: 'Always',
  off: 'Off: every tool is sent',
} as const;

const APPROVAL_MODES = { none: 'None', write_tools: 'Every tool that writes', patterns: 'Tools matching patterns' } as const;

/** The settings, read-only (members). */
export function SettingsView({ workspace, models }: { workspace: Summary; models: Schemas['Model'][] | undefined }) {
  const model = models?.find((candidate) => candidate.id === workspace.model);
  const { approval, tool_search: toolSearch } = workspace;
  return (
    <>
      <Section title="General">
        <dl className="access-facts">
          <Row term="Name">{workspace.name}</Row>
          <Row term="Model">{model ? `${modelLabel(model)} per million tokens` : workspace.model}</Row>
        </dl>
        <h3>System prompt</h3>
        {workspace.system_prompt ? <pre>{workspace.system_prompt}</pre> : <p className="hint">None.</p>}
      </Section>
      <Section title="Timeouts and limits">
        <dl className="access-facts">
          <Row term="Cold timeout">{count(workspace.cold_timeout_minutes)} minutes</Row>
          <Row term="Close timeout">{count(workspace.close_timeout_minutes)} minutes</Row>
          <Row term="Tool timeout">
            {workspace.tool_timeout_seconds === null ? 'Service default' : `${workspace.tool_timeout_seconds} seconds`}
          </Row>
          <Row term="Tool budget">{count(workspace.tool_budget_seconds)} seconds per query</Row>
          <Row term="Max tool rounds">{count(workspace.max_tool_rounds)}</Row>
          <Row term="Max tokens per query">
            {workspace.max_tokens_per_query === null ? 'No budget' : count(workspace.max_tokens_per_query)}
          </Row>
        </dl>
      </Section>
      <Section title="Approvals of tool calls">
        <dl className="access-facts">
          <Row term="Mode">{APPROVAL_MODES[approval.mode]}</Row>
          {approval.mode === 'patterns' && <Row term="Patterns">{(approval.patterns ?? []).join(', ')}</Row>}
          <Row term="Approvers">{approval.approvers === 'admins' ? 'Admins of the organisation' : 'The person who asked'}</Row>
          <Row term="Expires after">{count(approval.expires_minutes)} minutes</Row>
        </dl>
      </Section>
      <Section title="Privacy">
        <dl className="access-facts">
          <Row term="Who reads conversations">{VISIBILITY[workspace.conversations_visible_to]}</Row>
        </dl>
      </Section>
      <Section title="Tool search">
        <dl className="access-facts">
          <Row term="Mode">{SEARCH_MODES[toolSearch.mode]}</Row>
          <Row term="Threshold">{count(toolSearch.threshold)} tools</Row>
          <Row term="Pinned tools">{toolSearch.pinned.length ? toolSearch.pinned.join(', ') : 'None'}</Row>
        </dl>
      </Section>
    </>
  );
}
