import type { ReactNode } from 'react';
import { Badge } from '../../../ui/badge';
import { type Column, DataTable } from '../../../ui/table';

/** What every view of a connection's health has: the dashboard's are these alone. */
interface Health {
  id: string;
  name: string;
  status: string;
  last_error: string | null;
}

/** The workspace's connections, whether each works and its last error; `more` columns go before the error. */
export function ConnectionHealthTable<Row extends Health>({
  connections,
  more = [],
  empty,
}: {
  connections: Row[];
  more?: Column<Row>[];
  empty: ReactNode;
}) {
  return (
    <DataTable
      caption="Connection health"
      columns={[
        { header: 'Connection', cell: (connection) => connection.name },
        { header: 'Status', cell: (connection) => <Badge status={connection.status} /> },
        ...more,
        { header: 'Last error', cell: (connection) => connection.last_error ?? '—' },
      ]}
      rows={connections}
      rowKey={(connection) => connection.id}
      empty={empty}
    />
  );
}
