import { useState } from 'react';
import { $api } from '../../../api/client';
import { ActionForm } from '../../../ui/form';
import { EnvFields, envOf, HeaderRows, headerRow, headersOf } from './credential-fields';
import { type Connection, entryOf, exactError, useRefreshConnections } from './shared';

/**
 * New headers (http) or environment (stdio) for a saved connection. Saved values are never shown:
 * the rows start with the names only, and what is saved replaces all of them (PUT semantics).
 */
export function EditCredentials({ connection, onDone }: { connection: Connection; onDone: (message?: string) => void }) {
  const refresh = useRefreshConnections();
  const isHttp = connection.transport === 'http';
  const catalogue = $api.useQuery('get', '/api/connectors/mcp/catalogue', {}, { enabled: !isHttp });
  const savedEnv = Object.keys(connection.env);
  const envNames = [...new Set([...(entryOf(catalogue.data?.servers, connection)?.env ?? []), ...savedEnv])];
  const [rows, setRows] = useState(() => Object.keys(connection.headers).map((name) => headerRow(name)));
  const [env, setEnv] = useState<Record<string, string>>({});
  const update = $api.useMutation('put', '/api/connections/{id}', {
    onSuccess: async (data) => {
      await refresh();
      onDone(`Saved the credentials of "${data.connection.name}": ${data.connection.tool_count} tools.`);
    },
  });
  const title = `Credentials of ${connection.name}`;
  // Why the server could not be reached with these credentials (an http server's is about its url).
  const reason = isHttp ? exactError(update.error, 'url') : undefined;
  return (
    <ActionForm
      className="form wc-edit"
      label={title}
      heading={4}
      error={update.error}
      onSubmit={() => {
        const body = isHttp ? { headers: headersOf(rows) } : { env: envOf(envNames, env) };
        update.mutate({ params: { path: { id: connection.id } }, body });
      }}
      submit="Save credentials"
      pending={update.isPending}
      busy="Reaching the server"
      onCancel={() => onDone()}
    >
      {reason && <p className="field-error">{reason}</p>}
      {isHttp ? (
        <HeaderRows
          rows={rows}
          onChange={setRows}
          error={update.error}
          hint="Saved values are never shown: type each value again. What you save replaces all the headers; remove every row to send none."
        />
      ) : catalogue.isPending ? (
        <p className="hint">Loading the variables this server takes…</p>
      ) : (
        <EnvFields names={envNames} values={env} onChange={setEnv} error={update.error} saved={savedEnv} replacing />
      )}
      <p className="hint">Saving reaches the server with the new credentials; if it cannot be reached, nothing changes.</p>
    </ActionForm>
  );
}
