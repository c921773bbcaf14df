import { $api, type Schemas, useRefresh } from '../../api/client';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { dateTime } from '../../ui/format';
import { Section } from '../../ui/page';
import { Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';

/*
 * The MCP clients people connected to the workspaces (docs/mcp-gateway.md): each with whether its
 * name is verified, where it sends people back, its workspaces and its last use, and Revoke (its
 * grants and tokens end). Yours under your profile; everyone's for admins under the organisation.
 */

type Client = Schemas['ConnectedClient'];

/** Workspace names by id (the list the console reads; archived ones too): a client's workspaces by name. */
function useWorkspaceNames(): (id: string) => string {
  const workspaces = $api.useQuery('get', '/api/workspaces', { params: { query: { include_archived: 'true' } } });
  const names = new Map((workspaces.data?.workspaces ?? []).map((workspace) => [workspace.id, workspace.name]));
  return (id) => names.get(id) ?? id;
}

interface ClientsTableProps {
  clients: Client[];
  caption: string;
  /** Who connected each client, for the organisation's list; left out of your own. */
  person?: (client: Client) => string;
  onRevoke: (client: Client) => void;
  revoking: boolean;
}

/** A table of connected clients, each with Revoke after a confirmation. */
export function ClientsTable({ clients, caption, person, onRevoke, revoking }: ClientsTableProps) {
  const workspaceName = useWorkspaceNames();
  return (
    <DataTable
      caption={caption}
      columns={[
        { header: 'Client', cell: (client) => client.name },
        {
          header: 'Verified',
          cell: (client) => (client.verified ? <Badge status="verified" /> : 'no: self-declared name'),
        },
        person && { header: 'Person', cell: person },
        { header: 'Workspaces', cell: (client) => client.workspaces.map(workspaceName).join(', ') || '—' },
        { header: 'Sends back to', cell: (client) => <code>{client.redirect_host}</code> },
        { header: 'Connected', cell: (client) => dateTime(client.created_at) },
        { header: 'Last used', cell: (client) => (client.last_used_at ? dateTime(client.last_used_at) : 'never') },
        {
          header: 'Actions',
          hideHeader: true,
          cell: (client) => (
            <ConfirmButton
              title={`Revoke ${client.name}?`}
              confirmLabel="Revoke"
              description={
                <p>
                  Its tokens stop working at once and it loses access to{' '}
                  {client.workspaces.map(workspaceName).join(', ') || 'every workspace'}. To use it again, connect it again from the MCP
                  client.
                </p>
              }
              onConfirm={() => onRevoke(client)}
              disabled={revoking}
            >
              Revoke<span className="visually-hidden"> {client.name}</span>
            </ConfirmButton>
          ),
        },
      ]}
      rows={clients}
      rowKey={(client) => client.id}
    />
  );
}

/** Your connected MCP clients (profile). */
export function MyClients() {
  const refresh = useRefresh('/api/me/clients');
  const clients = $api.useQuery('get', '/api/me/clients');
  const revoke = $api.useMutation('delete', '/api/me/clients/{id}', { onSuccess: refresh });
  return (
    <Section title="Connected MCP clients">
      <p>The MCP clients you allowed to use workspaces as you (from a workspace's Use from your tools).</p>
      <RowError error={revoke.error} />
      <Loadable
        query={clients}
        label="your MCP clients"
        isEmpty={(data) => data.clients.length === 0}
        empty="No MCP client is connected: add a workspace to one from the workspace's Use from your tools."
      >
        {(data) => (
          <ClientsTable
            caption="Your connected MCP clients"
            clients={data.clients}
            onRevoke={(client) => revoke.mutate({ params: { path: { id: client.id } } })}
            revoking={revoke.isPending}
          />
        )}
      </Loadable>
    </Section>
  );
}
