import { useState } from 'react';
import { $api, errorText, type Schemas, useRefresh } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm';
import { count } from '../../ui/format';
import { Section } from '../../ui/page';
import { FailedJobs } from './failed-jobs';

type Queue = Schemas['Queue'];

/** What each queue does (docs/operations.md, Queues). */
const PURPOSE: Record<string, string> = {
  lifecycle: 'Timed moves of conversations: open → cold → closed.',
  'cold-messages': 'A notice posted in a team-chat thread when its conversation goes cold.',
  'conversation-stats': 'One model call per closed conversation: sentiment, resolution, category and summary.',
  evals: 'The cases of evaluation runs, each a query that runs no write tool; organisations take turns.',
};

/** The counters of a queue (docs/operations.md, Counts), in the order a job moves through them. */
const COUNTS = [
  ['waiting', 'Waiting'],
  ['delayed', 'Delayed'],
  ['active', 'Active'],
  ['completed', 'Completed'],
  ['failed', 'Failed'],
] as const;

const jobs = (n: number) => `${count(n)} ${n === 1 ? 'job' : 'jobs'}`;

type Outcome = { ok: true; text: string } | { ok: false; text: string };

/** Retry all and drain for one queue, each asked first, with the outcome said after. */
function QueueActions({ queue, onOutcome }: { queue: Queue; onOutcome: (outcome: Outcome) => void }) {
  const refresh = useRefresh('/api/org/queues', '/api/org/queues/{name}/failed');
  const failure = (error: unknown) => onOutcome({ ok: false, text: errorText(error) });
  const retry = $api.useMutation('post', '/api/org/queues/{name}/retry-all', {
    onSuccess: async ({ retried }) => {
      onOutcome({ ok: true, text: `Retried ${jobs(retried)} of ${queue.name}: back to waiting, running again now.` });
      await refresh();
    },
    onError: failure,
  });
  const drain = $api.useMutation('post', '/api/org/queues/{name}/drain', {
    onSuccess: async ({ removed }) => {
      onOutcome({ ok: true, text: `Drained ${queue.name}: removed ${jobs(removed)} that were waiting or delayed.` });
      await refresh();
    },
    onError: failure,
  });
  const params = { params: { path: { name: queue.name } } };
  // Offered only when there is something to do: no failed job to retry, nothing waiting or delayed to drain.
  const toDrain = queue.waiting + queue.delayed;
  return (
    <div className="actions">
      <ConfirmButton
        danger={false}
        disabled={retry.isPending || queue.failed === 0}
        title={`Retry all failed jobs of ${queue.name}?`}
        confirmLabel="Retry all failed jobs"
        description={
          <p>
            Every failed job of {queue.name} ({jobs(queue.failed)} now) goes back to waiting with its attempts reset and runs again at once.
            Retry once the cause of the failures is fixed; a job that fails again is listed again with its new reason.
          </p>
        }
        onConfirm={() => retry.mutate(params)}
      >
        {retry.isPending ? 'Retrying…' : 'Retry all failed jobs'}
        <span className="visually-hidden"> of {queue.name}</span>
      </ConfirmButton>
      <ConfirmButton
        disabled={drain.isPending || toDrain === 0}
        title={`Drain the waiting jobs of ${queue.name}?`}
        confirmLabel="Drain waiting jobs"
        description={
          <p>
            Removes the jobs of {queue.name} that are waiting ({count(queue.waiting)} now) or delayed for a retry ({count(queue.delayed)}{' '}
            now): they will not run. Active jobs finish; failed jobs stay listed. The completed total starts again from zero.
            {queue.name === 'lifecycle' && ' Conversations still move: the sweep sends an overdue move again.'}
          </p>
        }
        onConfirm={() => drain.mutate(params)}
      >
        {drain.isPending ? 'Draining…' : 'Drain waiting jobs'}
        <span className="visually-hidden"> of {queue.name}</span>
      </ConfirmButton>
    </div>
  );
}

/** One queue: what it does, its counts, retry and drain, and its failed jobs. */
export function QueueSection({ queue }: { queue: Queue }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return (
    <Section title={queue.name} actions={<QueueActions queue={queue} onOutcome={setOutcome} />}>
      {PURPOSE[queue.name] && <p className="hint">{PURPOSE[queue.name]}</p>}
      <dl className="stats queue-counts">
        {COUNTS.map(([field, label]) => (
          <div className="stat" key={field}>
            <dt>{label}</dt>
            <dd>{count(queue[field])}</dd>
          </div>
        ))}
      </dl>
      <div role="status">
        {outcome && (
          <div className={`result${outcome.ok ? '' : ' result-bad'}`}>
            <p>{outcome.text}</p>
          </div>
        )}
      </div>
      <h3>Failed jobs</h3>
      <FailedJobs queue={queue.name} />
    </Section>
  );
}
