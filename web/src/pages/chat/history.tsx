import { useState } from 'react';
import { NavLink } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { ErrorNote, Loading } from '../../ui/states';
import { HistoryItem } from './history-item';

type Conversation = Schemas['Conversation'];

const LIMIT = 50;

/** The reads of the history: its pinned chats, and the others (or what a search finds); the route's loader starts them too. */
export const historyReads = (workspaceId: string, search = '') => ({
  pinned: { params: { path: { id: workspaceId }, query: { mine: 'true', pinned: 'true', limit: LIMIT } } } as const,
  recent: {
    params: {
      path: { id: workspaceId },
      query: { mine: 'true', limit: LIMIT, ...(search ? { q: search } : { pinned: 'false' as const }) },
    },
  } as const,
});

/** The person's own conversations of the workspace, newest first: pinned ones, then the rest; or what a search finds. */
function useHistory(workspaceId: string, search: string) {
  const options = { staleTime: 10_000 };
  const reads = historyReads(workspaceId, search);
  const pinned = $api.useQuery('get', '/api/workspaces/{id}/conversations', reads.pinned, { ...options, enabled: !search });
  const recent = $api.useQuery('get', '/api/workspaces/{id}/conversations', reads.recent, options);
  return { pinned: search ? [] : (pinned.data?.conversations ?? []), recent, more: Boolean(recent.data?.next_cursor) };
}

function Group({ title, items, workspaceId }: { title: string; items: Conversation[]; workspaceId: string }) {
  if (!items.length) return null;
  return (
    <>
      <h3 className="chat-history-group">{title}</h3>
      <ul className="chat-history-list">
        {items.map((conversation) => (
          <HistoryItem key={conversation.id} conversation={conversation} workspaceId={workspaceId} />
        ))}
      </ul>
    </>
  );
}

/** The chat history: a new chat, a search, and the person's conversations to open, rename, pin or delete. */
export function History({ workspaceId }: { workspaceId: string }) {
  const [search, setSearch] = useState('');
  const history = useHistory(workspaceId, search.trim());
  const { recent } = history;
  return (
    <nav className="chat-history" aria-label="Your chats">
      <NavLink to={`/chat/${workspaceId}`} end className="button chat-new">
        New chat
      </NavLink>
      <div className="chat-history-search">
        <label htmlFor="chat-history-search" className="visually-hidden">
          Search your chats
        </label>
        <input
          id="chat-history-search"
          type="search"
          placeholder="Search your chats"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {recent.isPending && <Loading label="Loading your chats" />}
      {recent.isError && <ErrorNote error={recent.error} retry={() => void recent.refetch()} />}
      {recent.data && (
        <>
          <Group title="Pinned" items={history.pinned} workspaceId={workspaceId} />
          <Group title={search.trim() ? 'Found' : 'Recent'} items={recent.data.conversations} workspaceId={workspaceId} />
          {recent.data.conversations.length === 0 && history.pinned.length === 0 && (
            <p className="hint">{search.trim() ? 'No chat of yours matches.' : 'Your chats will be listed here.'}</p>
          )}
          {history.more && <p className="hint">Older chats: search for them.</p>}
        </>
      )}
    </nav>
  );
}
