import { useState } from 'react';
import { $api } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { PageHeader, Section } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { AddConnection, type Saved } from './connections/add-form';
import { ConnectionCard } from './connections/card';
import { ToolSearch } from './connections/tool-search';
import { useWorkspaceId } from './shell';

/** What the last change did; an OAuth save carries the link where access is granted. */
function Notice({ message, saved, onClose }: { message: string; saved?: Saved; onClose: () => void }) {
  return (
    <div className="card wc-notice" role="status">
      <p>{message}</p>
      <div className="actions">
        {saved?.authorization_url && (
          <button type="button" className="button" onClick={() => window.location.assign(saved.authorization_url ?? '')}>
            Authorize {saved.name} now
          </button>
        )}
        <button type="button" className="button secondary small" onClick={onClose}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** The workspace's MCP connections, their health and tools; admins add, re-key, authorize and delete them. */
export default function Connections() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<{ message: string; saved?: Saved }>();
  const list = $api.useQuery('get', '/api/workspaces/{id}/connections', { params: { path: { id } } });
  return (
    <>
      <PageHeader
        title="Connections"
        actions={
          isAdmin &&
          !adding && (
            <button
              type="button"
              className="button"
              onClick={() => {
                setNotice(undefined);
                setAdding(true);
              }}
            >
              Add a connection
            </button>
          )
        }
      >
        <p>MCP servers the agent reaches for its tools.</p>
      </PageHeader>
      {notice && <Notice {...notice} onClose={() => setNotice(undefined)} />}
      {adding && (
        <AddConnection
          workspaceId={id}
          onDone={(saved) => {
            setAdding(false);
            if (saved) setNotice({ message: saved.message, saved });
          }}
        />
      )}
      <ToolSearch workspaceId={id} />
      <Section title="Connected servers">
        <Loadable
          query={list}
          label="connections"
          isEmpty={(data) => data.connections.length === 0}
          empty={isAdmin ? 'No connections yet: add the first one.' : 'No connections yet: an admin adds them.'}
        >
          {(data) => (
            <div className="wc-list">
              {data.connections.map((connection) => (
                <ConnectionCard
                  key={connection.id}
                  connection={connection}
                  tools={data.tools.filter((tool) => tool.connection_id === connection.id)}
                  onNotice={(message) => setNotice({ message })}
                />
              ))}
            </div>
          )}
        </Loadable>
      </Section>
    </>
  );
}
