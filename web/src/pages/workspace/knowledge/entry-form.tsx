import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { Field, FormError, formValues, Submit } from '../../../ui/form';

/** Knowledge shows in the knowledge list and, counted, in the workspace's detail and list. */
export function useRefreshKnowledge(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      ['/api/workspaces/{id}/knowledge', '/api/workspaces/{id}', '/api/workspaces'].map((path) =>
        queryClient.invalidateQueries({ queryKey: ['get', path] }),
      ),
    );
  };
}

interface FieldsProps {
  error: unknown;
  title?: string;
  content?: string;
}

function EntryFields({ error, title = '', content = '' }: FieldsProps) {
  return (
    <>
      <FormError error={error} />
      <Field label="Title" name="title" error={error}>
        <input defaultValue={title} />
      </Field>
      <Field label="Content" name="content" error={error} hint="What the agent should know; it is given to the agent with every query.">
        <textarea rows={6} defaultValue={content} />
      </Field>
    </>
  );
}

/** A new entry; `title` pre-fills it (answering a knowledge gap). */
export function AddEntry({ workspaceId, title, onDone }: { workspaceId: string; title?: string; onDone: () => void }) {
  const refresh = useRefreshKnowledge();
  const form = useRef<HTMLFormElement>(null);
  // Opened from the page's button or from a gap further down: take the reader to it.
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const create = $api.useMutation('post', '/api/workspaces/{id}/knowledge', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <form
      ref={form}
      className="card form"
      aria-label="Add a knowledge entry"
      noValidate
      onSubmit={(event) => {
        const { title: newTitle = '', content = '' } = formValues(event);
        create.mutate({ params: { path: { id: workspaceId } }, body: { title: newTitle, content } });
      }}
    >
      <h2>Add a knowledge entry</h2>
      <EntryFields error={create.error} title={title} />
      <div className="actions">
        <Submit pending={create.isPending}>Add entry</Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function EditEntry({ workspaceId, entry, onDone }: { workspaceId: string; entry: Schemas['KnowledgeEntry']; onDone: () => void }) {
  const refresh = useRefreshKnowledge();
  const update = $api.useMutation('put', '/api/workspaces/{id}/knowledge/{kid}', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    <form
      className="form"
      aria-label={`Edit ${entry.title}`}
      noValidate
      onSubmit={(event) => {
        const { title = '', content = '' } = formValues(event);
        update.mutate({ params: { path: { id: workspaceId, kid: entry.id } }, body: { title, content } });
      }}
    >
      <EntryFields error={update.error} title={entry.title} content={entry.content} />
      <div className="actions">
        <Submit pending={update.isPending}>Save entry</Submit>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
