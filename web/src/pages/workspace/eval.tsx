import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { count } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Notice, usePanel } from '../../ui/panel';
import { Loadable, RowError } from '../../ui/states';
import { CaseList } from './evals/cases';
import { EditEval } from './evals/eval-form';
import { RunProgress, useRuns } from './evals/progress';
import { TrySettings, useStartRun } from './evals/run-form';
import { RunsTable } from './evals/runs-table';
import { ScoreChart } from './evals/score-chart';
import { evalsPath, useRefreshEvals } from './evals/shared';
import { useWorkspaceId } from './shell';

function DeleteEval({ workspaceId, evaluation }: { workspaceId: string; evaluation: Schemas['Eval'] }) {
  const navigate = useNavigate();
  const refresh = useRefreshEvals();
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/evals/{eval_id}', {
    // Away first: read again here, the evaluation would answer 404 for an instant.
    onSuccess: async () => {
      await navigate(evalsPath(workspaceId));
      await refresh();
    },
  });
  return (
    <>
      <ConfirmButton
        title={`Delete ${evaluation.name}?`}
        confirmLabel="Delete evaluation"
        disabled={remove.isPending}
        description={<p>Its {count(evaluation.cases.length)} cases go, and it can no longer be run.</p>}
        onConfirm={() => remove.mutate({ params: { path: { id: workspaceId, eval_id: evaluation.id } } })}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="visually-hidden"> evaluation {evaluation.name}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

interface RunsProps {
  workspaceId: string;
  evaluation: Schemas['Eval'];
}

/** Run it (as the workspace is, or with settings to try), see the newest run's progress, the score over the runs and each run. */
function RunsPart({ workspaceId, evaluation }: RunsProps) {
  const isAdmin = useIsAdmin();
  const [trying, setTrying] = useState(false);
  const { runs, list, newest, underWay, watched, watch } = useRuns(workspaceId, evaluation.id);
  const started = (runId: string) => {
    setTrying(false);
    watch(runId);
  };
  const { start, run } = useStartRun(workspaceId, evaluation.id, started);
  return (
    <>
      {isAdmin && (
        <div className="actions eval-run-actions">
          <button type="button" className="button" disabled={start.isPending || underWay} onClick={() => run()}>
            {start.isPending ? 'Starting…' : 'Run'}
            <span className="visually-hidden"> {evaluation.name}</span>
          </button>
          {!trying && (
            <button type="button" className="button secondary" disabled={underWay} onClick={() => setTrying(true)}>
              Try these settings
            </button>
          )}
          {underWay && <span className="hint">One run at a time: wait for this one to end.</span>}
        </div>
      )}
      <RowError error={start.error} />
      {trying && <TrySettings workspaceId={workspaceId} evalId={evaluation.id} onStarted={started} onCancel={() => setTrying(false)} />}
      <div role="status" className="eval-status">
        <RunProgress workspaceId={workspaceId} evalId={evaluation.id} newest={newest} watched={watched} />
      </div>
      <Loadable query={runs} label="runs">
        {() => (
          <>
            <Section title="Score">
              <ScoreChart runs={list} />
            </Section>
            <Section title="Runs">
              <RunsTable workspaceId={workspaceId} evalId={evaluation.id} runs={list} isAdmin={isAdmin} />
            </Section>
          </>
        )}
      </Loadable>
    </>
  );
}

function CasesPart({ workspaceId, evaluation }: RunsProps) {
  const isAdmin = useIsAdmin();
  const editing = usePanel();
  return (
    <Section
      title={`Cases (${count(evaluation.cases.length)})`}
      actions={
        isAdmin &&
        !editing.open && (
          <div className="actions">
            <button type="button" className="button secondary" onClick={editing.show}>
              Edit<span className="visually-hidden"> the cases of {evaluation.name}</span>
            </button>
            <DeleteEval workspaceId={workspaceId} evaluation={evaluation} />
          </div>
        )
      }
    >
      <Notice message={editing.notice} />
      {editing.open ? (
        <EditEval workspaceId={workspaceId} evaluation={evaluation} onDone={editing.done} />
      ) : (
        <CaseList cases={evaluation.cases} />
      )}
    </Section>
  );
}

/** An evaluation: run it, its score over the runs and the runs, and its cases (admins edit them). */
export default function EvalPage() {
  const id = useWorkspaceId();
  const { evalId = '' } = useParams();
  const detail = $api.useQuery('get', '/api/workspaces/{id}/evals/{eval_id}', { params: { path: { id, eval_id: evalId } } });
  const evaluation = detail.data?.eval;
  return (
    <>
      <PageHeader title={evaluation?.name ?? 'Evaluation'}>
        <p>
          <Link to={evalsPath(id)}>All evaluations</Link>
        </p>
      </PageHeader>
      <Loadable query={detail} label="the evaluation">
        {(data) => (
          <>
            <RunsPart workspaceId={id} evaluation={data.eval} />
            <CasesPart workspaceId={id} evaluation={data.eval} />
          </>
        )}
      </Loadable>
    </>
  );
}
