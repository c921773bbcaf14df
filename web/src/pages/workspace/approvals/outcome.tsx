import { errorText } from '../../../api/client';
import { Citations } from '../../../ui/citations';
import { dateTime, duration, money } from '../../../ui/format';
import { Markdown } from '../../../ui/markdown';
import { useWorkspaceId } from '../shell';
import type { DecisionOutcome } from './card';

/** What the last decision answered: the query's result (maybe its next pending call), or why it was refused. */
export function OutcomePanel({ outcome, onDismiss }: { outcome: DecisionOutcome; onDismiss: () => void }) {
  const { approval, decision, response, error } = outcome;
  const verb = decision === 'approve' ? 'approve' : 'deny';
  const workspaceId = useWorkspaceId();
  return (
    <section className={`card access-outcome${error ? ' access-outcome-error' : ''}`} aria-labelledby="access-outcome-title">
      <h2 id="access-outcome-title">
        {error ? `Could not ${verb} the call to ${approval.tool}` : `You chose to ${verb} the call to ${approval.tool}`}
      </h2>
      {error ? (
        <p role="alert">{errorText(error)}</p>
      ) : response ? (
        <div role="status">
          {response.error && <p className="form-error">The query failed: {response.error}</p>}
          <h3>The answer</h3>
          <div className="bubble">{response.answer ? <Markdown text={response.answer} /> : '(no text)'}</div>
          <Citations workspaceId={workspaceId} citations={response.citations} />
          <p className="tool-line">
            Tools called: {response.tools_called.length ? response.tools_called.join(', ') : 'none'} · {money(response.cost_usd)} ·{' '}
            {duration(response.duration_ms)}
          </p>
          {response.pending_approval && (
            <p>
              <strong>Another call waits for approval:</strong> <code>{response.pending_approval.tool}</code>, asked by{' '}
              {response.pending_approval.requested_by}, until {dateTime(response.pending_approval.expires_at)}. It is in the list below.
            </p>
          )}
          {response.authorization_url && (
            <p>
              A connection needs your authorization: <a href={response.authorization_url}>authorize it</a>, then ask again.
            </p>
          )}
        </div>
      ) : null}
      <div className="actions">
        <button type="button" className="button secondary" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
