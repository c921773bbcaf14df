import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ConfirmButton } from '../../../ui/confirm';
import { FormError } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { RowError } from '../../../ui/states';

/*
 * The end of a workspace (admins): archive it (kept, answers no queries, hidden from the list until
 * "Show archived"), unarchive it, or delete it after typing its name.
 */

type Workspace = Schemas['WorkspaceSummary'];

/** Deleting asks for the workspace's name, typed: the button works only once it matches. */
function DeleteWorkspace({ workspace }: { workspace: Workspace }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const refresh = useRefresh('/api/workspaces');
  const remove = $api.useMutation('delete', '/api/workspaces/{id}', {
    onSuccess: async () => {
      dialog.current?.close();
      await refresh();
      void navigate('/workspaces', { replace: true });
    },
  });
  const title = `Delete ${workspace.name}?`;
  return (
    <>
      <button
        type="button"
        className="button danger"
        onClick={() => {
          setTyped('');
          remove.reset();
          dialog.current?.showModal();
        }}
      >
        Delete workspace<span className="visually-hidden"> {workspace.name}</span>
      </button>
      <dialog ref={dialog} className="dialog" aria-label={title}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === workspace.name) remove.mutate({ params: { path: { id: workspace.id } } });
          }}
        >
          <h2>{title}</h2>
          <p>
            Its connections, tools, knowledge, guardrails, consumers (their keys stop working at once), team-chat channels and evaluations
            are deleted. Its conversations and activity can no longer be opened. This cannot be undone: archive it instead to keep it.
          </p>
          <FormError error={remove.error} />
          <div className="field">
            <label htmlFor={inputId}>Type the workspace's name, {workspace.name}, to confirm</label>
            <input id={inputId} autoComplete="off" spellCheck={false} value={typed} onChange={(event) => setTyped(event.target.value)} />
          </div>
          <div className="actions">
            <button type="button" className="button secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="button danger" disabled={typed !== workspace.name || remove.isPending}>
              {remove.isPending ? 'Deleting…' : 'Delete workspace'}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

export function RetireWorkspace({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const path = { params: { path: { id: workspace.id } } };
  const refresh = () =>
    queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[1] ?? '').startsWith('/api/workspaces') });
  const archive = $api.useMutation('post', '/api/workspaces/{id}/archive', { onSuccess: refresh });
  const unarchive = $api.useMutation('post', '/api/workspaces/{id}/unarchive', { onSuccess: refresh });
  const archived = workspace.status === 'archived';
  return (
    <Section title="Archive or delete">
      <p role="status">
        {archived
          ? 'This workspace is archived: it answers no queries and is hidden from the workspace list (until “Show archived”). Its data is kept.'
          : 'Archive a workspace you no longer use: it keeps its data but answers no queries. Delete it to remove its configuration for good.'}
      </p>
      <div className="actions">
        {archived ? (
          <button type="button" className="button secondary" disabled={unarchive.isPending} onClick={() => unarchive.mutate(path)}>
            {unarchive.isPending ? 'Unarchiving…' : 'Unarchive workspace'}
          </button>
        ) : (
          <ConfirmButton
            title={`Archive ${workspace.name}?`}
            confirmLabel="Archive workspace"
            danger={false}
            disabled={archive.isPending}
            description={
              <p>
                It stops answering: the playground, its API keys, messaging and team chat are refused until you unarchive it. Its
                configuration, conversations and activity are kept.
              </p>
            }
            onConfirm={() => archive.mutate(path)}
          >
            Archive workspace
          </ConfirmButton>
        )}
        <DeleteWorkspace workspace={workspace} />
      </div>
      <RowError error={archive.error ?? unarchive.error} />
    </Section>
  );
}
