import { useId, useState } from 'react';
import { NavLink, useNavigate, useParams } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm';
import { RowError } from '../../ui/states';

type Conversation = Schemas['Conversation'];

/** What a chat is called in the history: its title, or when it began. */
const chatTitle = (conversation: Conversation) => conversation.title ?? `Chat of ${conversation.first_message_at.slice(0, 10)}`;

/** Renames a chat in place: Enter saves, Escape cancels. */
function RenameForm({ conversation, onDone, onSave }: { conversation: Conversation; onDone: () => void; onSave: (title: string) => void }) {
  const [title, setTitle] = useState(chatTitle(conversation));
  const id = useId();
  return (
    <form
      className="chat-history-rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (title.trim()) onSave(title.trim());
        onDone();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        New name of the chat
      </label>
      <input
        id={id}
        value={title}
        maxLength={120}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to rename this chat.
        autoFocus
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
      />
      <button type="submit" className="button small">
        Save
      </button>
    </form>
  );
}

/** One chat of the history: its link, and Rename, Pin and Delete (from the history; the audit keeps it). */
export function HistoryItem({ conversation, workspaceId }: { conversation: Conversation; workspaceId: string }) {
  const [renaming, setRenaming] = useState(false);
  const { cid } = useParams();
  const navigate = useNavigate();
  const refresh = useRefresh('/api/workspaces/{id}/conversations', '/api/workspaces/{id}/conversations/{cid}');
  const path = { params: { path: { id: workspaceId, cid: conversation.id } } };
  const change = $api.useMutation('patch', '/api/workspaces/{id}/conversations/{cid}', { onSuccess: () => refresh() });
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/conversations/{cid}', {
    onSuccess: async () => {
      // The open chat was deleted: a new one takes its place.
      if (cid === conversation.id) await navigate(`/chat/${workspaceId}`);
      await refresh();
    },
  });
  const title = chatTitle(conversation);
  if (renaming) {
    return (
      <li className="chat-history-item">
        <RenameForm
          conversation={conversation}
          onDone={() => setRenaming(false)}
          onSave={(next) => change.mutate({ ...path, body: { title: next } })}
        />
      </li>
    );
  }
  return (
    <li className="chat-history-item">
      <NavLink to={`/chat/${workspaceId}/c/${encodeURIComponent(conversation.id)}`} className="chat-history-link">
        {title}
      </NavLink>
      <details className="chat-history-menu">
        <summary className="button secondary small">
          <span aria-hidden="true">⋯</span>
          <span className="visually-hidden">Actions for {title}</span>
        </summary>
        <div className="chat-history-actions">
          <button type="button" className="button secondary small" onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button
            type="button"
            className="button secondary small"
            disabled={change.isPending}
            onClick={() => change.mutate({ ...path, body: { pinned: !conversation.pinned } })}
          >
            {conversation.pinned ? 'Unpin' : 'Pin'}
          </button>
          <ConfirmButton
            title="Delete this chat from your history?"
            description="It leaves your list of chats. Your organisation's audit keeps it."
            confirmLabel="Delete chat"
            disabled={remove.isPending}
            onConfirm={() => remove.mutate(path)}
          >
            Delete
          </ConfirmButton>
        </div>
      </details>
      <RowError error={change.error ?? remove.error} />
    </li>
  );
}
