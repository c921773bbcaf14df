import { Link, useParams } from 'react-router';
import { $api } from '../../api/client';
import { Badge } from '../../ui/badge';
import { count, duration, money } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { Stats } from '../../ui/stats';
import { Results } from './evals/results';
import {
  andList,
  evalPath,
  isUnderWay,
  overridesInWords,
  POLL_EVERY_MS,
  type Run,
  runName,
  runPath,
  runTime,
  scoreText,
  tokensText,
} from './evals/shared';
import { useWorkspaceId } from './shell';

interface Ids {
  workspaceId: string;
  evalId: string;
}

/** What the run is compared to (the evaluation's finished run before it) and what no longer passes. */
function Comparison({ ids, run }: { ids: Ids; run: Run }) {
  const runs = $api.useQuery('get', '/api/workspaces/{id}/evals/{eval_id}/runs', {
    params: { path: { id: ids.workspaceId, eval_id: ids.evalId } },
  });
  if (run.status !== 'done') return <p className="hint">Compared with the run before it once it is done.</p>;
  if (!run.compared_to) return <p>The first finished run of this evaluation: nothing to compare it with.</p>;
  const previous = runs.data?.runs.find((other) => other?.id === run.compared_to);
  const link = (
    <Link to={runPath(ids.workspaceId, ids.evalId, run.compared_to)}>{previous ? runName(previous) : `run ${run.compared_to}`}</Link>
  );
  return (
    <p>
      Compared to {link}:{' '}
      {run.regressions.length
        ? `${count(run.regressions.length)} ${run.regressions.length === 1 ? 'case that passed then fails' : 'cases that passed then fail'} now (${andList(run.regressions)}), listed first below.`
        : 'no case that passed then fails now.'}
    </p>
  );
}

/** The results of the run this one is compared to, read only when it has regressions (their answers that passed). */
function useResultsBefore(ids: Ids, run: Run) {
  const before = $api.useQuery(
    'get',
    '/api/workspaces/{id}/evals/{eval_id}/runs/{run_id}',
    { params: { path: { id: ids.workspaceId, eval_id: ids.evalId, run_id: run.compared_to ?? '' } } },
    { enabled: run.compared_to !== null && run.regressions.length > 0 },
  );
  return before.data?.run.results;
}

function RunBody({ ids, run }: { ids: Ids; run: Run }) {
  const detail = $api.useQuery('get', '/api/workspaces/{id}/evals/{eval_id}', {
    params: { path: { id: ids.workspaceId, eval_id: ids.evalId } },
  });
  const before = useResultsBefore(ids, run);
  const underWay = isUnderWay(run);
  return (
    <>
      <div role="status">
        {underWay && (
          <p className="state state-loading eval-progress">
            <span className="spinner" aria-hidden="true" /> This run is {run.status}: {count(run.passed + run.failed)} cases done so far…
          </p>
        )}
      </div>
      <Stats
        label="The run in figures"
        items={[
          ['Score', scoreText(run)],
          ['Passed', count(run.passed)],
          ['Failed', count(run.failed)],
          ['Regressions', run.compared_to ? count(run.regressions.length) : '—'],
          ['Cost', money(run.cost_usd)],
          ['Tokens', tokensText(run.tokens)],
          ['Time, all cases', duration(run.duration_ms)],
        ]}
      />
      <Section title="About this run">
        <dl className="wc-facts">
          <dt>Evaluation</dt>
          <dd>
            <Link to={evalPath(ids.workspaceId, ids.evalId)}>{detail.data?.eval.name ?? ids.evalId}</Link>
          </dd>
          <dt>Status</dt>
          <dd>
            <Badge status={run.status} />
          </dd>
          <dt>Started</dt>
          <dd>{runTime(run)}</dd>
          <dt>Finished</dt>
          <dd>{run.finished_at ? runTime({ started_at: run.finished_at }) : 'not yet'}</dd>
          <dt>Settings</dt>
          <dd>{overridesInWords(run.overrides)}</dd>
        </dl>
        {run.overrides.system_prompt !== undefined && (
          <>
            <h3>System prompt tried</h3>
            <pre className="wc-prose">{run.overrides.system_prompt || '(empty)'}</pre>
          </>
        )}
        <Comparison ids={ids} run={run} />
      </Section>
      <Section title="Results">
        <Results run={run} cases={detail.data?.eval.cases ?? []} before={before} />
      </Section>
    </>
  );
}

/** A run of an evaluation: its figures, what it is compared to, and each case's result with the regressions first. */
export default function EvalRunPage() {
  const workspaceId = useWorkspaceId();
  const { evalId = '', runId = '' } = useParams();
  const detail = $api.useQuery(
    'get',
    '/api/workspaces/{id}/evals/{eval_id}/runs/{run_id}',
    { params: { path: { id: workspaceId, eval_id: evalId, run_id: runId } } },
    { refetchInterval: (query) => (isUnderWay(query.state.data?.run) ? POLL_EVERY_MS : false) },
  );
  const run = detail.data?.run;
  return (
    <>
      <PageHeader title={run ? runName(run) : 'Run'}>
        <p>
          <Link to={evalPath(workspaceId, evalId)}>Back to the evaluation</Link>
        </p>
      </PageHeader>
      <Loadable query={detail} label="the run">
        {(data) => <RunBody ids={{ workspaceId, evalId }} run={data.run} />}
      </Loadable>
    </>
  );
}
