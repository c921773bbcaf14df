import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { ModelKeyNotice } from '../../app/model-key-notice';
import { useIsAdmin } from '../../app/session';
import { Empty, Loadable } from '../../ui/states';
import { ChatPane } from './chat-pane';
import { History } from './history';

/** Where the chat remembers the workspace last asked, to open it again. */
const LAST_WORKSPACE = 'chat.workspace';

function NoWorkspace() {
  const isAdmin = useIsAdmin();
  return (
    <Empty>
      {isAdmin ? (
        <>
          There is no workspace to ask yet. <Link to="/workspaces">Create one</Link>, connect its tools, and come back here.
        </>
      ) : (
        'You are in no workspace’s team yet: ask an admin of your organisation to add you to one.'
      )}
    </Empty>
  );
}

/** Which workspace is asked, when the person may ask more than one. */
function WorkspacePicker({ workspaces, current }: { workspaces: Schemas['WorkspaceListItem'][]; current: string }) {
  const navigate = useNavigate();
  if (workspaces.length < 2) return <p className="chat-workspace-name">{workspaces[0]?.name}</p>;
  return (
    <div className="chat-workspace">
      <label htmlFor="chat-workspace">Workspace</label>
      <select id="chat-workspace" value={current} onChange={(event) => void navigate(`/chat/${event.target.value}`)}>
        {workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** `/chat`: the workspace asked last, or the first one the person may ask. */
export function ChatIndex() {
  const workspaces = $api.useQuery('get', '/api/workspaces', {});
  return (
    <>
      <h1 className="visually-hidden">Chat</h1>
      <ModelKeyNotice />
      <Loadable query={workspaces} label="your workspaces" isEmpty={(data) => data.workspaces.length === 0} empty={<NoWorkspace />}>
        {(data) => {
          const last = localStorage.getItem(LAST_WORKSPACE);
          const chosen = data.workspaces.find((workspace) => workspace.id === last) ?? data.workspaces[0];
          return chosen ? <Navigate to={`/chat/${chosen.id}`} replace /> : <NoWorkspace />;
        }}
      </Loadable>
    </>
  );
}

/** The chat home: the person's chats of a workspace beside the conversation open now. */
export default function ChatPage() {
  const { id = '', cid } = useParams();
  const workspaces = $api.useQuery('get', '/api/workspaces', {});
  const workspace = workspaces.data?.workspaces.find((candidate) => candidate.id === id);
  useEffect(() => {
    if (workspace) localStorage.setItem(LAST_WORKSPACE, workspace.id);
    document.title = `Chat${workspace ? ` · ${workspace.name}` : ''} · Workspace agent proxy`;
  }, [workspace]);
  // On a phone the history is a panel opened by its button, closed again by a chat picked in it.
  const [historyOpen, setHistoryOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chat shown is the trigger, not an input.
  useEffect(() => setHistoryOpen(false), [cid, id]);
  return (
    <div className="chat-home">
      <h1 className="visually-hidden">Chat{workspace ? ` with ${workspace.name}` : ''}</h1>
      <button
        type="button"
        className="button secondary small chat-side-toggle"
        aria-expanded={historyOpen}
        aria-controls="chat-side"
        onClick={() => setHistoryOpen((open) => !open)}
      >
        Your chats
      </button>
      <aside id="chat-side" className={`chat-side${historyOpen ? ' open' : ''}`}>
        {workspaces.data && <WorkspacePicker workspaces={workspaces.data.workspaces} current={id} />}
        <History workspaceId={id} />
      </aside>
      <section className="chat-main" aria-label="Chat">
        <ModelKeyNotice />
        {workspaces.data && !workspace ? (
          <Empty>
            This workspace is not one you may ask. <Link to="/chat">Open your chats</Link>
          </Empty>
        ) : (
          <ChatPane key={id} workspaceId={id} cid={cid} />
        )}
      </section>
    </div>
  );
}
