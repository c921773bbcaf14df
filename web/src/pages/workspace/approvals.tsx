import { useState } from 'react';
import { $api, type Schemas } from '../../api/client';
import { count } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { ApprovalCard, type DecisionOutcome } from './approvals/card';
import { OutcomePanel } from './approvals/outcome';
import { useWorkspaceId } from './shell';

type Status = Schemas['Approval']['status'];
const FILTERS: { value: Status | ''; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied' },
  { value: 'expired', label: 'Expired' },
  { value: '', label: 'All' },
];
const PAGE_SIZE = 20;

/** Newer / Older through the API's cursor; `cursors` holds the cursor of each page up to the current one. */
function Pager({
  cursors,
  next,
  onChange,
}: {
  cursors: (string | undefined)[];
  next?: string | null;
  onChange: (cursors: (string | undefined)[]) => void;
}) {
  if (cursors.length === 1 && !next) return null;
  return (
    <nav className="actions access-pager" aria-label="Pages of approvals">
      <button type="button" className="button secondary" disabled={cursors.length === 1} onClick={() => onChange(cursors.slice(0, -1))}>
        Newer
      </button>
      <button type="button" className="button secondary" disabled={!next} onClick={() => next && onChange([...cursors, next])}>
        Older
      </button>
    </nav>
  );
}

/** Approvals of tool calls: pending first by default, paged with the API's cursor; approvers decide them here. */
export default function Approvals() {
  const id = useWorkspaceId();
  const [status, setStatus] = useState<Status | ''>('pending');
  // The cursors of the pages before this one: the last is this page's (undefined: the first page).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const cursor = cursors[cursors.length - 1];
  const approvals = $api.useQuery('get', '/api/workspaces/{id}/approvals', {
    params: { path: { id }, query: { limit: PAGE_SIZE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
  });
  const label = FILTERS.find((filter) => filter.value === status)?.label.toLowerCase() ?? '';
  return (
    <>
      <PageHeader title="Approvals">
        <p>Tool calls that wait for a person before they run. An approved call runs with exactly the arguments shown.</p>
      </PageHeader>
      {outcome && <OutcomePanel outcome={outcome} onDismiss={() => setOutcome(null)} />}
      <div className="access-toolbar">
        <div className="field">
          <label htmlFor="approval-status">Status</label>
          <select
            id="approval-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as Status | '');
              setCursors([undefined]);
            }}
          >
            {FILTERS.map((filter) => (
              <option key={filter.label} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
        {approvals.data && (
          <p className="hint" role="status">
            {count(approvals.data.total)} {status ? label : ''} approval{approvals.data.total === 1 ? '' : 's'}
          </p>
        )}
      </div>
      <h2 className="visually-hidden">
        {status ? `${FILTERS.find((filter) => filter.value === status)?.label} approvals` : 'All approvals'}
      </h2>
      <Loadable
        query={approvals}
        label="approvals"
        isEmpty={(data) => data.approvals.length === 0}
        empty={status === 'pending' ? 'Nothing waits for approval.' : `No ${status ? `${label} ` : ''}approvals.`}
      >
        {(data) => (
          <>
            <div className="access-approvals">
              {data.approvals.map((approval) => (
                <ApprovalCard
                  key={approval.id}
                  approval={approval}
                  workspaceId={id}
                  onDecided={(decided) => {
                    setOutcome(decided);
                    setCursors([undefined]);
                  }}
                />
              ))}
            </div>
            <Pager cursors={cursors} next={data.next_cursor} onChange={setCursors} />
          </>
        )}
      </Loadable>
    </>
  );
}
