import { useId, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Badge } from '../../../ui/badge';
import { ConfirmButton } from '../../../ui/confirm';
import { count, dateTime } from '../../../ui/format';
import { RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { AuthorizeButton } from './authorize';
import { EditCredentials } from './edit-credentials';
import { type Connection, entryOf, useRefreshConnections } from './shared';

/** Secret names with their mask: the values are never sent to the console. */
function MaskedNames({ values }: { values: Record<string, string> }) {
  const names = Object.entries(values);
  if (names.length === 0) return <>none</>;
  return (
    <ul className="wc-inline-list">
      {names.map(([name, mask]) => (
        <li key={name}>
          <code>{name}</code> <span aria-hidden="true">{mask}</span>
          <span className="visually-hidden">(value hidden)</span>
        </li>
      ))}
    </ul>
  );
}

function whereOf(connection: Connection): string {
  if (connection.transport === 'http') return connection.url ?? '—';
  return [connection.command, ...connection.args].filter(Boolean).join(' ') || '—';
}

function ToolsTable({ connection, tools }: { connection: Connection; tools: Schemas['Tool'][] }) {
  const why =
    connection.status === 'needs_authorization'
      ? 'Its tools are listed once access is authorized.'
      : connection.status === 'error'
        ? 'They are listed once the server can be reached: refresh them, or ask a question.'
        : 'The server offers no tools.';
  return (
    <DataTable
      caption={`Tools of ${connection.name}`}
      columns={[
        { header: 'Tool', cell: (tool) => <code>{tool.name}</code> },
        { header: 'Access', cell: (tool) => (tool.is_write ? <span className="wc-write">write</span> : 'read only') },
        { header: 'Description', cell: (tool) => tool.description || '—' },
      ]}
      rows={tools}
      rowKey={(tool) => tool.id}
      empty={<>No tools yet. {why}</>}
    />
  );
}

function DeleteConnection({ connection, onDone }: { connection: Connection; onDone: (message: string) => void }) {
  const refresh = useRefreshConnections();
  const remove = $api.useMutation('delete', '/api/connections/{id}', {
    onSuccess: async () => {
      await refresh();
      onDone(`Deleted "${connection.name}" and its tools.`);
    },
  });
  return (
    <>
      <ConfirmButton
        title={`Delete ${connection.name}?`}
        description={`The connection and its ${count(connection.tool_count)} tools are removed; queries no longer reach this server.`}
        confirmLabel="Delete connection"
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ params: { path: { id: connection.id } } })}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="visually-hidden"> connection {connection.name}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

/** Lists the server's tools again; what it found (or why it could not) shows in the card and the notice. */
function RefreshTools({ connection, onDone }: { connection: Connection; onDone: (message: string) => void }) {
  const refresh = useRefreshConnections();
  const run = $api.useMutation('post', '/api/connections/{id}/refresh', {
    onSuccess: async (data) => {
      await refresh();
      const { name, status, tool_count, last_error } = data.connection;
      onDone(
        status === 'connected'
          ? `Refreshed the tools of "${name}": ${count(tool_count)} tool${tool_count === 1 ? '' : 's'}.`
          : `Could not reach "${name}": ${last_error ?? status}. Its tools were kept.`,
      );
    },
  });
  return (
    <>
      <button
        type="button"
        className="button secondary"
        disabled={run.isPending}
        onClick={() => run.mutate({ params: { path: { id: connection.id } } })}
      >
        {run.isPending ? 'Refreshing…' : 'Refresh tools'}
        <span className="visually-hidden"> of {connection.name}</span>
      </button>
      <RowError error={run.error} />
    </>
  );
}

/**
 * Whether the connection takes credentials an admin could change: any http server (headers can be
 * added to it later, say once its owner issues a token), or a stdio server with the variables its
 * catalogue entry declares or it has. A stdio server that takes none is not offered "Edit credentials".
 */
function useTakesCredentials(connection: Connection, isAdmin: boolean): boolean {
  const stdio = connection.transport === 'stdio';
  const catalogue = $api.useQuery('get', '/api/connectors/mcp/catalogue', {}, { enabled: isAdmin && stdio });
  if (!stdio) return true;
  return Object.keys(connection.env).length > 0 || (entryOf(catalogue.data?.servers, connection)?.env.length ?? 0) > 0;
}

/** One connection: whether it works, where it points, its credentials by name, its tools, and what may be done. */
export function ConnectionCard({
  connection,
  tools,
  onNotice,
}: {
  connection: Connection;
  tools: Schemas['Tool'][];
  onNotice: (message: string) => void;
}) {
  const isAdmin = useIsAdmin();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const takesCredentials = useTakesCredentials(connection, isAdmin);
  return (
    <article className="card wc-connection" aria-labelledby={headingId}>
      <div className="wc-card-head">
        <h3 id={headingId}>{connection.name}</h3>
        <Badge status={connection.status} />
      </div>
      {connection.last_error && (
        <p className="wc-last-error">
          <strong>Last error:</strong> {connection.last_error}
        </p>
      )}
      <dl className="wc-facts">
        <dt>Transport</dt>
        <dd>{connection.transport}</dd>
        <dt>{connection.transport === 'http' ? 'URL' : 'Command'}</dt>
        <dd className="wc-break">{isAdmin ? <code>{whereOf(connection)}</code> : 'shown to admins'}</dd>
        {isAdmin && connection.transport === 'http' && (
          <>
            <dt>Headers</dt>
            <dd>
              <MaskedNames values={connection.headers} />
            </dd>
          </>
        )}
        {isAdmin && connection.transport === 'stdio' && (
          <>
            <dt>Environment</dt>
            <dd>
              <MaskedNames values={connection.env} />
            </dd>
          </>
        )}
        <dt>Tools</dt>
        <dd>{count(connection.tool_count)}</dd>
        <dt>Added</dt>
        <dd>{dateTime(connection.created_at)}</dd>
      </dl>
      <ToolsTable connection={connection} tools={tools} />
      <div className="actions">
        <AuthorizeButton connection={connection} />
        {isAdmin && connection.status !== 'needs_authorization' && <RefreshTools connection={connection} onDone={onNotice} />}
        {isAdmin && takesCredentials && !editing && (
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Edit credentials<span className="visually-hidden"> of {connection.name}</span>
          </button>
        )}
        {isAdmin && <DeleteConnection connection={connection} onDone={onNotice} />}
      </div>
      {editing && (
        <EditCredentials
          connection={connection}
          onDone={(message) => {
            setEditing(false);
            if (message) onNotice(message);
          }}
        />
      )}
    </article>
  );
}
