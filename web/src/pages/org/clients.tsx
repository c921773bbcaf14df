import { $api, useRefresh } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { PageHeader } from '../../ui/page';
import { Empty, Loadable, RowError } from '../../ui/states';
import { ClientsTable } from '../me/clients';

/** Everyone's connected MCP clients, with who connected each (by the organisation's user list). */
function OrgClients() {
  const refresh = useRefresh('/api/org/clients');
  const clients = $api.useQuery('get', '/api/org/clients');
  const users = $api.useQuery('get', '/api/org/users');
  const revoke = $api.useMutation('delete', '/api/org/clients/{id}', { onSuccess: refresh });
  const names = new Map((users.data?.users ?? []).map((user) => [user.id, `${user.name} (${user.email})`]));
  return (
    <>
      <RowError error={revoke.error} />
      <Loadable
        query={clients}
        label="the connected MCP clients"
        isEmpty={(data) => data.clients.length === 0}
        empty="No MCP client is connected: people add a workspace to theirs from the workspace's Use from your tools."
      >
        {(data) => (
          <ClientsTable
            caption="Connected MCP clients"
            clients={data.clients}
            person={(client) => names.get(client.user_id) ?? client.user_id}
            onRevoke={(client) => revoke.mutate({ params: { path: { id: client.id } } })}
            revoking={revoke.isPending}
          />
        )}
      </Loadable>
    </>
  );
}

/** `/org/clients` (admins): every MCP client connected to the organisation's workspaces, each to revoke. */
export default function OrgClientsPage() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader title="Connected MCP clients">
        <p>
          The MCP clients people of the organisation allowed to use workspaces as themselves. Revoking one ends its tokens at once; its
          person can connect it again.
        </p>
      </PageHeader>
      {isAdmin ? <OrgClients /> : <Empty>Only admins see every connected client: yours are under your profile.</Empty>}
    </>
  );
}
