import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { count, duration, money } from '../../../ui/format';
import { Empty } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { overridesInWords, type RunSummary, runName, runPath, scoreText, tokensText } from './shared';

interface RunsTableProps {
  workspaceId: string;
  evalId: string;
  runs: RunSummary[];
  isAdmin: boolean;
}

/** The runs of an evaluation, newest first: status, score, what changed since the run before, settings and costs. */
export function RunsTable({ workspaceId, evalId, runs, isAdmin }: RunsTableProps) {
  if (runs.length === 0)
    return <Empty>{isAdmin ? 'No runs yet: “Run” asks every case and checks the answers.' : 'No runs yet: an admin runs it.'}</Empty>;
  return (
    <DataTable caption="Runs">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Score
          </th>
          <th scope="col" className="num">
            Passed
          </th>
          <th scope="col" className="num">
            Failed
          </th>
          <th scope="col" className="num">
            Regressions
          </th>
          <th scope="col">Settings</th>
          <th scope="col" className="num">
            Cost
          </th>
          <th scope="col">Tokens</th>
          <th scope="col" className="num">
            Time
          </th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id}>
            <th scope="row" className="wc-nowrap">
              <Link to={runPath(workspaceId, evalId, run.id)}>{runName(run)}</Link>
            </th>
            <td>
              <Badge status={run.status} />
            </td>
            <td className="num wc-nowrap">{scoreText(run)}</td>
            <td className="num">{count(run.passed)}</td>
            <td className="num">{count(run.failed)}</td>
            <td className="num">{run.compared_to ? count(run.regressions.length) : '—'}</td>
            <td>{overridesInWords(run.overrides)}</td>
            <td className="num">{money(run.cost_usd)}</td>
            <td className="wc-nowrap">{tokensText(run.tokens)}</td>
            <td className="num wc-nowrap">{duration(run.duration_ms)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
