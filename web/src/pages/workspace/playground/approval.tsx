import { useId, useState } from 'react';
import { Link } from 'react-router';
import { $api, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Field, FormError, formValues } from '../../../ui/form';
import { dateTime } from '../../../ui/format';
import { REASON_HINT } from '../approvals/card';
import type { PendingApproval } from './sse';

interface ApprovalProps {
  workspaceId: string;
  pending: PendingApproval;
  /** True while the decision streams. */
  deciding: boolean;
  /** The API's refusal of the last decision (403, 409…). */
  error: unknown;
  onDecide: (body: Schemas['ApprovalDecision']) => void;
}

/**
 * Who may decide was fixed when the call was asked (`approvers` of the stored approval): with
 * `requester` it is whoever asked, here the signed-in user; with `admins`, an admin.
 */
function useMayDecide(workspaceId: string, approvalId: string): boolean {
  const isAdmin = useIsAdmin();
  const pending = $api.useQuery('get', '/api/workspaces/{id}/approvals', {
    params: { path: { id: workspaceId }, query: { status: 'pending' } },
  });
  const approval = pending.data?.approvals.find((candidate) => candidate.id === approvalId);
  return isAdmin || approval?.approvers === 'requester';
}

/** A tool call the query paused for: what it would run, and Approve / Deny for whoever may decide. */
export function ApprovalCard({ workspaceId, pending, deciding, error, onDecide }: ApprovalProps) {
  const headingId = useId();
  const mayDecide = useMayDecide(workspaceId, pending.id);
  const [choice, setChoice] = useState<Schemas['ApprovalDecision']['decision']>();
  const where = pending.connection ? ` of ${pending.connection}` : '';
  return (
    <section className="chat-approval" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Approval needed: <code>{pending.tool}</code>
        {where}
      </h3>
      <p className="hint">
        Asked by {pending.requested_by}; waits until {dateTime(pending.expires_at)}. The call runs with exactly these arguments:
      </p>
      <pre>{JSON.stringify(pending.input, null, 2)}</pre>
      {mayDecide ? (
        <form
          className="form"
          noValidate
          aria-label={`Decide the call to ${pending.tool}`}
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            const decision = submitter?.value === 'deny' ? 'deny' : 'approve';
            const reason = (formValues(event).reason ?? '').trim();
            setChoice(decision);
            onDecide({ decision, ...(reason ? { reason } : {}) });
          }}
        >
          <FormError error={error} />
          <Field label="Reason (optional)" name="reason" error={error} hint={REASON_HINT}>
            <input maxLength={1000} disabled={deciding} />
          </Field>
          <div className="actions">
            <button type="submit" value="approve" className="button" disabled={deciding} aria-busy={deciding || undefined}>
              {deciding && choice === 'approve' ? 'Approving…' : 'Approve'}
            </button>
            <button type="submit" value="deny" className="button danger" disabled={deciding} aria-busy={deciding || undefined}>
              {deciding && choice === 'deny' ? 'Denying…' : 'Deny'}
            </button>
          </div>
        </form>
      ) : (
        <p>
          An admin of the organisation decides this call, on the <Link to={`/workspaces/${workspaceId}/approvals`}>Approvals</Link> page or
          in team chat; the answer goes on in the conversation then.
        </p>
      )}
    </section>
  );
}
