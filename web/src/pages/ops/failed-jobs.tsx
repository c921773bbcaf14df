import { useState } from 'react';
import { Link } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { count, dateTime } from '../../ui/format';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';

const PAGE = 50;
/** The API clamps a page to 200 jobs. */
const MOST = 200;

/** Where a failed job's conversation is, when its data names the workspace too (every job of the service does). */
function ConversationCell({ job }: { job: Schemas['FailedJob'] }) {
  const conversationId = job.data.conversationId;
  const workspaceId = job.data.workspaceId;
  if (!conversationId) return <>—</>;
  if (typeof workspaceId !== 'string') return <code>{conversationId}</code>;
  return (
    <Link to={`/workspaces/${workspaceId}/conversations/${conversationId}`}>
      <code>{conversationId}</code>
    </Link>
  );
}

/** The jobs of one queue that failed for good, newest first; refreshed with the counts. */
export function FailedJobs({ queue }: { queue: string }) {
  const [limit, setLimit] = useState(PAGE);
  const failed = $api.useQuery(
    'get',
    '/api/org/queues/{name}/failed',
    { params: { path: { name: queue }, query: { limit } } },
    { refetchInterval: 5000, placeholderData: (previous) => previous },
  );
  return (
    <Loadable
      query={failed}
      label={`failed jobs of ${queue}`}
      isEmpty={(data) => data.jobs.length === 0}
      empty={`No failed jobs in ${queue}.`}
    >
      {(data) => (
        <>
          <DataTable
            caption={`Failed jobs of ${queue}`}
            columns={[
              { header: 'Job', cell: (job) => <code>{job.id}</code> },
              { header: 'Reason', className: 'failed-reason', cell: (job) => job.failedReason || '—' },
              { header: 'Attempts', num: true, cell: (job) => count(job.attemptsMade) },
              { header: 'Conversation', cell: (job) => <ConversationCell job={job} /> },
              { header: 'Failed at', cell: (job) => dateTime(job.failed_at) },
            ]}
            rows={data.jobs}
            rowKey={(job) => job.id}
          />
          {data.next_cursor &&
            (limit < MOST ? (
              <button type="button" className="button secondary" onClick={() => setLimit((current) => Math.min(current + PAGE, MOST))}>
                Show more failed jobs of {queue}
              </button>
            ) : (
              <p className="hint">Showing the newest {MOST} failed jobs.</p>
            ))}
        </>
      )}
    </Loadable>
  );
}
