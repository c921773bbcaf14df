import { Link } from 'react-router';
import { $api, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Badge } from '../../../ui/badge';
import { ConfirmButton } from '../../../ui/confirm';
import { dateTime } from '../../../ui/format';
import { RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { useRefreshGuardrails } from './form';

type Guardrail = Schemas['Guardrail'];

const APPLIES_TO: Record<string, string> = { both: 'questions and answers', input: 'questions', output: 'answers', tools: 'tool calls' };

/** Enable or disable in one click, and delete after asking. */
function RowActions({ workspaceId, guardrail, onEdit }: { workspaceId: string; guardrail: Guardrail; onEdit: () => void }) {
  const refresh = useRefreshGuardrails();
  const path = { id: workspaceId, gid: guardrail.id };
  const toggle = $api.useMutation('put', '/api/workspaces/{id}/guardrails/{gid}', { onSuccess: refresh });
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/guardrails/{gid}', { onSuccess: refresh });
  const hidden = <span className="visually-hidden"> guardrail {guardrail.name}</span>;
  return (
    <>
      <div className="actions">
        <button type="button" className="button secondary small" onClick={onEdit}>
          Edit{hidden}
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ params: { path }, body: { enabled: !guardrail.enabled } })}
        >
          {guardrail.enabled ? 'Disable' : 'Enable'}
          {hidden}
        </button>
        <ConfirmButton
          title={`Delete ${guardrail.name}?`}
          description="Its past violations stay in the list; nothing is checked against it any more."
          confirmLabel="Delete guardrail"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate({ params: { path } })}
        >
          {remove.isPending ? 'Deleting…' : 'Delete'}
          {hidden}
        </ConfirmButton>
      </div>
      <RowError error={toggle.error ?? remove.error} />
    </>
  );
}

export function GuardrailsTable({
  workspaceId,
  guardrails,
  onEdit,
}: {
  workspaceId: string;
  guardrails: Guardrail[];
  onEdit: (guardrail: Guardrail) => void;
}) {
  const isAdmin = useIsAdmin();
  return (
    <DataTable
      caption="Guardrails"
      columns={[
        { header: 'Name', cell: (guardrail) => guardrail.name },
        { header: 'Type', cell: (guardrail) => guardrail.type.replaceAll('_', ' ') },
        { header: 'Pattern', className: 'wc-break', cell: (guardrail) => <code>{guardrail.pattern}</code> },
        { header: 'Action', cell: (guardrail) => guardrail.action },
        { header: 'Applies to', cell: (guardrail) => APPLIES_TO[guardrail.applies_to] ?? guardrail.applies_to },
        { header: 'Status', cell: (guardrail) => <Badge status={guardrail.enabled ? 'enabled' : 'disabled'} /> },
        isAdmin && {
          header: 'Change',
          cell: (guardrail) => <RowActions workspaceId={workspaceId} guardrail={guardrail} onEdit={() => onEdit(guardrail)} />,
        },
      ]}
      rows={guardrails}
      rowKey={(guardrail) => guardrail.id}
    />
  );
}

export function ViolationsTable({ workspaceId, violations }: { workspaceId: string; violations: Schemas['Violation'][] }) {
  return (
    <DataTable
      caption="Violations"
      columns={[
        { header: 'Guardrail', cell: (violation) => violation.guardrail_name },
        { header: 'When', cell: (violation) => dateTime(violation.created_at) },
        { header: 'Where', cell: (violation) => violation.direction },
        { header: 'Action', cell: (violation) => violation.action },
        { header: 'Excerpt', className: 'wc-break', cell: (violation) => <code>{violation.excerpt}</code> },
        {
          header: 'Conversation',
          cell: (violation) => (
            <Link to={`/workspaces/${workspaceId}/conversations/${violation.conversation_id}`}>
              Open<span className="visually-hidden"> the conversation of this {violation.guardrail_name} violation</span>
            </Link>
          ),
        },
      ]}
      rows={violations}
      rowKey={(violation) => violation.id}
    />
  );
}
