import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { count } from '../../../ui/format';
import { isUnderWay, POLL_EVERY_MS, type RunSummary, runName, runPath, runsOf, scoreText } from './shared';

/**
 * The runs of an evaluation, asked again every 1.5 s while the newest is queued or running; when
 * it ends, the list of evaluations (its last run) is read again. `watched` is the run this page
 * started or saw under way, whose end it announces.
 */
export function useRuns(workspaceId: string, evalId: string) {
  const queryClient = useQueryClient();
  const runs = $api.useQuery(
    'get',
    '/api/workspaces/{id}/evals/{eval_id}/runs',
    { params: { path: { id: workspaceId, eval_id: evalId } } },
    { refetchInterval: (query) => (isUnderWay(runsOf(query.state.data)[0]) ? POLL_EVERY_MS : false) },
  );
  const list = runsOf(runs.data);
  const newest = list[0];
  const underWay = isUnderWay(newest);
  const [watched, setWatched] = useState<string>();
  const was = useRef(false);
  useEffect(() => {
    if (underWay && newest) setWatched(newest.id);
    if (was.current && !underWay) void queryClient.invalidateQueries({ queryKey: ['get', '/api/workspaces/{id}/evals'] });
    was.current = underWay;
  }, [underWay, newest, queryClient]);
  return { runs, list, newest, underWay, watched, watch: setWatched };
}

interface ProgressProps {
  workspaceId: string;
  evalId: string;
  newest: RunSummary | undefined;
  /** The run this page saw queued or running. */
  watched: string | undefined;
}

/** What the newest run is doing, or how the run this page watched ended; announced politely (the page's status region). */
export function RunProgress({ workspaceId, evalId, newest, watched }: ProgressProps) {
  if (!newest) return null;
  if (isUnderWay(newest))
    return (
      <p className="state state-loading eval-progress">
        <span className="spinner" aria-hidden="true" /> {runName(newest)} is {newest.status}: {count(newest.passed + newest.failed)}{' '}
        {newest.passed + newest.failed === 1 ? 'case' : 'cases'} done so far…
      </p>
    );
  if (newest.id !== watched) return null;
  return (
    <p className="result">
      <Link to={runPath(workspaceId, evalId, newest.id)}>{runName(newest)}</Link> is {newest.status}: score {scoreText(newest)},{' '}
      {count(newest.passed)} passed, {count(newest.failed)} failed
      {newest.regressions.length
        ? `, ${count(newest.regressions.length)} ${newest.regressions.length === 1 ? 'regression' : 'regressions'}`
        : ''}
      .
    </p>
  );
}
