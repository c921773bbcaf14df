import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { count, duration, money } from '../../../ui/format';
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
  return (
    <DataTable
      caption="Runs"
      columns={[
        { header: 'Run', className: 'wc-nowrap', cell: (run) => <Link to={runPath(workspaceId, evalId, run.id)}>{runName(run)}</Link> },
        { header: 'Status', cell: (run) => <Badge status={run.status} /> },
        { header: 'Score', num: true, className: 'wc-nowrap', cell: (run) => scoreText(run) },
        { header: 'Passed', num: true, cell: (run) => count(run.passed) },
        { header: 'Failed', num: true, cell: (run) => count(run.failed) },
        { header: 'Regressions', num: true, cell: (run) => (run.compared_to ? count(run.regressions.length) : '—') },
        { header: 'Settings', cell: (run) => overridesInWords(run.overrides) },
        { header: 'Cost', num: true, cell: (run) => money(run.cost_usd) },
        { header: 'Tokens', className: 'wc-nowrap', cell: (run) => tokensText(run.tokens) },
        { header: 'Time', num: true, className: 'wc-nowrap', cell: (run) => duration(run.duration_ms) },
      ]}
      rows={runs}
      rowKey={(run) => run.id}
      empty={isAdmin ? 'No runs yet: “Run” asks every case and checks the answers.' : 'No runs yet: an admin runs it.'}
    />
  );
}
