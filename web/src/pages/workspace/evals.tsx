import { useState } from 'react';
import { Link } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Badge } from '../../ui/badge';
import { count } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { NewEval } from './evals/eval-form';
import { evalPath, runPath, runTime, scoreText } from './evals/shared';
import { useWorkspaceId } from './shell';

type Item = Schemas['EvalListItem'];

function LastRun({ workspaceId, item }: { workspaceId: string; item: Item }) {
  const run = item.last_run;
  if (!run) return <span className="hint">never run</span>;
  return (
    <>
      <Badge status={run.status} />{' '}
      <Link to={runPath(workspaceId, item.id, run.id)}>
        {runTime(run)}
        <span className="visually-hidden"> run of {item.name}</span>
      </Link>
    </>
  );
}

function EvalTable({ workspaceId, evals }: { workspaceId: string; evals: Item[] }) {
  return (
    <DataTable
      caption="Evaluations"
      columns={[
        { header: 'Name', cell: (item) => <Link to={evalPath(workspaceId, item.id)}>{item.name}</Link> },
        { header: 'Cases', num: true, cell: (item) => count(item.case_count) },
        { header: 'Last run', className: 'wc-nowrap', cell: (item) => <LastRun workspaceId={workspaceId} item={item} /> },
        { header: 'Score', num: true, cell: (item) => (item.last_run ? scoreText(item.last_run) : '—') },
        { header: 'Passed', num: true, cell: (item) => count(item.last_run?.passed) },
        { header: 'Failed', num: true, cell: (item) => count(item.last_run?.failed) },
      ]}
      rows={evals}
      rowKey={(item) => item.id}
    />
  );
}

/** The workspace's evaluations, each with its last finished run; an admin adds one. */
export default function Evals() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const [adding, setAdding] = useState(false);
  const evals = $api.useQuery('get', '/api/workspaces/{id}/evals', { params: { path: { id } } });
  return (
    <>
      <PageHeader
        title="Evaluations"
        actions={
          isAdmin &&
          !adding && (
            <button type="button" className="button" onClick={() => setAdding(true)}>
              New evaluation
            </button>
          )
        }
      >
        <p>
          Questions with what a good answer does, run against the workspace as it is, or with a prompt or model to try before you change
          them.
        </p>
      </PageHeader>
      {adding && <NewEval workspaceId={id} onDone={() => setAdding(false)} />}
      <Loadable
        query={evals}
        label="evaluations"
        isEmpty={(data) => data.evals.length === 0}
        empty={
          isAdmin
            ? 'No evaluations yet: add one with “New evaluation”, or from an answer in a conversation’s transcript with “Add to evaluation”.'
            : 'No evaluations yet: an admin adds them.'
        }
      >
        {(data) => <EvalTable workspaceId={id} evals={data.evals} />}
      </Loadable>
    </>
  );
}
