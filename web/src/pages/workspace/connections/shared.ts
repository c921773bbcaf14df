import { useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../api/client';

export type Connection = Schemas['Connection'];
export type CatalogueEntry = Schemas['StdioCatalogueResponse']['servers'][number];

/** The API's messages for exactly this path, not its children ("headers": "at most 20 headers"). */
export function exactError(error: unknown, path: string): string | undefined {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return undefined;
  const details = error.details as Schemas['ErrorDetail'][];
  const matching = details.filter((detail) => detail.path === path);
  return matching.length ? matching.map((detail) => detail.message).join('; ') : undefined;
}

/** Everything that shows connections or their counts, to read again after a change. */
export function useRefreshConnections(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      ['/api/workspaces/{id}/connections', '/api/workspaces/{id}', '/api/workspaces', '/api/workspaces/{id}/dashboard'].map((path) =>
        queryClient.invalidateQueries({ queryKey: ['get', path] }),
      ),
    );
  };
}

/** The catalogue entry a stdio connection runs: the one whose command line it equals. */
export function entryOf(catalogue: CatalogueEntry[] | undefined, connection: Connection): CatalogueEntry | undefined {
  return catalogue?.find(
    (entry) =>
      entry.command === connection.command &&
      entry.args.length === connection.args.length &&
      entry.args.every((arg, index) => arg === connection.args[index]),
  );
}

/**
 * Who may start an OAuth grant of this connection, and whose it would be. The listing has no `auth`
 * or `credential` field yet, so they are read when present and otherwise the status tells.
 */
export function grantOf(connection: Connection, isAdmin: boolean): 'workspace' | 'own' | undefined {
  const listed = connection as Connection & Partial<Pick<Schemas['CreateMcpConnectionRequest'], 'auth' | 'credential'>>;
  if (listed.auth !== undefined) {
    if (listed.auth !== 'oauth') return undefined;
    if (listed.credential === 'per_user') return 'own';
    return isAdmin ? 'workspace' : undefined;
  }
  if (connection.status !== 'needs_authorization') return undefined;
  return isAdmin ? 'workspace' : 'own';
}
