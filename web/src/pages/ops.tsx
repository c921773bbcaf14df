import { $api } from '../api/client';
import { useIsAdmin } from '../app/session';
import { PageHeader } from '../ui/page';
import { Empty, Loadable } from '../ui/states';
import { QueueSection } from './ops/queue';

/** How often the counts are read again: jobs move within seconds locally. */
const REFRESH_MS = 5000;

const seconds = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium' });

function Queues() {
  const queues = $api.useQuery('get', '/api/org/queues', undefined, { refetchInterval: REFRESH_MS });
  return (
    <Loadable query={queues} label="queues" isEmpty={(data) => data.queues.length === 0}>
      {(data) => (
        <>
          <p className="hint queue-refresh">Counts refresh every 5 seconds; last read at {seconds.format(queues.dataUpdatedAt)}.</p>
          {data.queues.map((queue) => (
            <QueueSection key={queue.name} queue={queue} />
          ))}
        </>
      )}
    </Loadable>
  );
}

/** Operations: the background queues, their failed jobs, retry and drain (admins only, as the API). */
export default function Operations() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Operations">
        <p>The background queues of your organisation: conversation moves, cold notices, statistics and evaluation cases.</p>
      </PageHeader>
      {isAdmin ? <Queues /> : <Empty>Only admins of the organisation see operations.</Empty>}
    </>
  );
}
