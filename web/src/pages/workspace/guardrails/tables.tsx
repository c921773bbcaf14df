import { Link } from 'react-router';
import { $api, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Badge } from '../../../ui/badge';
import { ConfirmButton } from '../../../ui/confirm';
import { FormError } from '../../../ui/form';
import { dateTime } from '../../../ui/format';
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
      <FormError error={toggle.error ?? remove.error} />
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
    <DataTable caption="Guardrails">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Pattern</th>
          <th scope="col">Action</th>
          <th scope="col">Applies to</th>
          <th scope="col">Status</th>
          {isAdmin && <th scope="col">Change</th>}
        </tr>
      </thead>
      <tbody>
        {guardrails.map((guardrail) => (
          <tr key={guardrail.id}>
            <th scope="row">{guardrail.name}</th>
            <td>{guardrail.type.replaceAll('_', ' ')}</td>
            <td className="wc-break">
              <code>{guardrail.pattern}</code>
            </td>
            <td>{guardrail.action}</td>
            <td>{APPLIES_TO[guardrail.applies_to] ?? guardrail.applies_to}</td>
            <td>
              <Badge status={guardrail.enabled ? 'enabled' : 'disabled'} />
            </td>
            {isAdmin && (
              <td>
                <RowActions workspaceId={workspaceId} guardrail={guardrail} onEdit={() => onEdit(guardrail)} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

export function ViolationsTable({ workspaceId, violations }: { workspaceId: string; violations: Schemas['Violation'][] }) {
  return (
    <DataTable caption="Violations">
      <thead>
        <tr>
          <th scope="col">Guardrail</th>
          <th scope="col">When</th>
          <th scope="col">Where</th>
          <th scope="col">Action</th>
          <th scope="col">Excerpt</th>
          <th scope="col">Conversation</th>
        </tr>
      </thead>
      <tbody>
        {violations.map((violation) => (
          <tr key={violation.id}>
            <th scope="row">{violation.guardrail_name}</th>
            <td>{dateTime(violation.created_at)}</td>
            <td>{violation.direction}</td>
            <td>{violation.action}</td>
            <td className="wc-break">
              <code>{violation.excerpt}</code>
            </td>
            <td>
              <Link to={`/workspaces/${workspaceId}/conversations/${violation.conversation_id}`}>
                Open<span className="visually-hidden"> the conversation of this {violation.guardrail_name} violation</span>
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
