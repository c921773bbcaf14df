import { useState } from 'react';
import { Link } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { Field, FormError } from '../../../ui/form';
import { dateTime } from '../../../ui/format';
import { Loading } from '../../../ui/states';
import { OtherErrors } from '../consumers/other-errors';

type Approval = Schemas['ListedApproval'];
type Decision = Schemas['ApprovalDecision']['decision'];
/** What a decision answered, for the page to show after the list has moved on. */
export interface DecisionOutcome {
  approval: Approval;
  decision: Decision;
  response?: Schemas['QueryResponse'];
  error?: unknown;
}

/** The hint under an approval's Reason, the same wherever a call is decided (here and in the playground). */
export const REASON_HINT = 'Told to the model if you deny the call; kept with the decision either way.';

const whoDecides = (approval: Approval) =>
  approval.approvers === 'admins' ? 'an admin of the organisation' : `the person who asked (${approval.requested_by})`;

function DecisionForm({
  approval,
  workspaceId,
  onDecided,
}: {
  approval: Approval;
  workspaceId: string;
  onDecided: (outcome: DecisionOutcome) => void;
}) {
  const refresh = useRefresh('/api/workspaces/{id}/approvals', '/api/workspaces/{id}/dashboard');
  const [decision, setDecision] = useState<Decision>('approve');
  const [reason, setReason] = useState('');
  const decide = $api.useMutation('post', '/api/workspaces/{id}/approvals/{approval_id}', {
    onSettled: async (response, error, variables) => {
      // Decided or refused, the list may have changed under us (another decision, an expiry).
      await refresh();
      const outcome: DecisionOutcome = { approval, decision: variables.body.decision };
      if (error) outcome.error = error;
      // Not streamed (no Accept header): the answer is the JSON one.
      else if (response && typeof response === 'object') outcome.response = response;
      onDecided(outcome);
    },
  });
  return (
    <form
      className="form access-decide"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const chosen: Decision = submitter?.value === 'deny' ? 'deny' : 'approve';
        setDecision(chosen);
        const trimmed = reason.trim();
        decide.mutate({
          params: { path: { id: workspaceId, approval_id: approval.id } },
          body: { decision: chosen, ...(trimmed ? { reason: trimmed } : {}) },
        });
      }}
    >
      <FormError error={decide.error} />
      <OtherErrors error={decide.error} shown={['reason']} />
      <Field label="Reason (optional)" name="reason" error={decide.error} hint={REASON_HINT}>
        <input value={reason} maxLength={1000} onChange={(event) => setReason(event.target.value)} />
      </Field>
      <div className="actions">
        <button
          type="submit"
          value="approve"
          className="button"
          disabled={decide.isPending}
          aria-busy={(decide.isPending && decision === 'approve') || undefined}
        >
          {decide.isPending && decision === 'approve' ? 'Approving…' : 'Approve'}
          <span className="visually-hidden"> the call to {approval.tool}</span>
        </button>
        <button
          type="submit"
          value="deny"
          className="button danger"
          disabled={decide.isPending}
          aria-busy={(decide.isPending && decision === 'deny') || undefined}
        >
          {decide.isPending && decision === 'deny' ? 'Denying…' : 'Deny'}
          <span className="visually-hidden"> the call to {approval.tool}</span>
        </button>
      </div>
      {decide.isPending && <Loading label="The paused query goes on; waiting for its answer" />}
    </form>
  );
}

function Decided({ approval }: { approval: Approval }) {
  if (approval.status === 'expired')
    return (
      <p>
        Expired {dateTime(approval.decided_at ?? approval.expires_at)}: nobody decided in time, so the call did not run.
        {approval.reason && ` (${approval.reason})`}
      </p>
    );
  return (
    <p>
      <strong>{approval.status === 'approved' ? 'Approved' : 'Denied'}</strong> by {approval.decided_by ?? 'someone'} on{' '}
      {dateTime(approval.decided_at)}
      {approval.reason && <>: “{approval.reason}”</>}
    </p>
  );
}

/** One tool call waiting for (or past) a decision: what it runs with, who asked, and the decision. */
export function ApprovalCard({
  approval,
  workspaceId,
  onDecided,
}: {
  approval: Approval;
  workspaceId: string;
  onDecided: (outcome: DecisionOutcome) => void;
}) {
  // The API says whether the signed-in person may decide it (docs/approvals.md).
  const mayDecide = approval.can_decide;
  const headingId = `approval-${approval.id}`;
  const overdue = approval.status === 'pending' && new Date(approval.expires_at).getTime() <= Date.now();
  return (
    <article className="card access-approval" aria-labelledby={headingId}>
      <div className="access-approval-head">
        <h3 id={headingId}>
          <code>{approval.tool}</code>
          {approval.connection && <span className="access-muted"> of {approval.connection}</span>}
        </h3>
        <Badge status={approval.status} />
      </div>
      <dl className="access-facts">
        <div>
          <dt>Asked by</dt>
          <dd>{approval.requested_by}</dd>
        </div>
        <div>
          <dt>Asked</dt>
          <dd>{dateTime(approval.created_at)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{dateTime(approval.expires_at)}</dd>
        </div>
        <div>
          <dt>May be decided by</dt>
          <dd>{whoDecides(approval)}</dd>
        </div>
      </dl>
      <h4 className="access-label">Arguments</h4>
      <pre>{JSON.stringify(approval.input, null, 2)}</pre>
      {approval.source === 'gateway' ? (
        // A call from a person's MCP client: no conversation; the client waits for the decision, or calls again after it.
        <p>Asked by a call from an MCP client (no conversation): the call runs once approved.</p>
      ) : (
        <p>
          <Link to={`/workspaces/${workspaceId}/conversations/${approval.conversation_id}`}>Open the conversation</Link>
        </p>
      )}
      {approval.status !== 'pending' ? (
        <Decided approval={approval} />
      ) : overdue ? (
        <p>Past its expiry: it is about to be marked expired, and can no longer be decided.</p>
      ) : mayDecide ? (
        <DecisionForm approval={approval} workspaceId={workspaceId} onDecided={onDecided} />
      ) : (
        <p className="hint">Only {whoDecides(approval)} may decide this call.</p>
      )}
    </article>
  );
}
