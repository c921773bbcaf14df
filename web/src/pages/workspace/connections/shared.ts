import { fieldError, type Schemas, useRefresh } from '../../../api/client';

export type Connection = Schemas['Connection'];
export type CatalogueEntry = Schemas['StdioCatalogueResponse']['servers'][number];

/** The API's messages for exactly this path, not its children ("headers": "at most 20 headers"). */
export const exactError = (error: unknown, path: string) => fieldError(error, path, { exact: true });

/** Everything that shows connections or their counts, to read again after a change. */
export const useRefreshConnections = () =>
  useRefresh('/api/workspaces/{id}/connections', '/api/workspaces/{id}', '/api/workspaces', '/api/workspaces/{id}/dashboard');

/** The catalogue entry a stdio connection runs: the one whose command line it equals. */
export function entryOf(catalogue: CatalogueEntry[] | undefined, connection: Connection): CatalogueEntry | undefined {
  return catalogue?.find(
    (entry) =>
      entry.command === connection.command &&
      entry.args.length === connection.args.length &&
      entry.args.every((arg, index) => arg === connection.args[index]),
  );
}

/** Who may start an OAuth grant of this connection, and whose it would be (the listing says `auth` and `credential`). */
export function grantOf(connection: Connection, isAdmin: boolean): 'workspace' | 'own' | undefined {
  if (connection.auth !== 'oauth') return undefined;
  if (connection.credential === 'per_user') return 'own';
  return isAdmin ? 'workspace' : undefined;
}
