import { $api, type Schemas, useRefresh } from '../../../api/client';
import { ActionForm, Field } from '../../../ui/form';

/**
 * Knowledge shows in the knowledge list, among the documents (an entry is a document of its own,
 * read like one) and, counted, in the workspace's detail and list.
 */
export const useRefreshKnowledge = () =>
  useRefresh('/api/workspaces/{id}/knowledge', '/api/workspaces/{id}/knowledge/documents', '/api/workspaces/{id}', '/api/workspaces');

interface FieldsProps {
  error: unknown;
  title?: string;
  content?: string;
}

function EntryFields({ error, title = '', content = '' }: FieldsProps) {
  return (
    <>
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
  const create = $api.useMutation('post', '/api/workspaces/{id}/knowledge', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  return (
    // Opened from the page's button or from a gap further down: the form takes the reader to it.
    <ActionForm
      className="card form"
      label="Add a knowledge entry"
      heading={2}
      error={create.error}
      onSubmit={({ title: newTitle = '', content = '' }) =>
        create.mutate({ params: { path: { id: workspaceId } }, body: { title: newTitle, content } })
      }
      submit="Add entry"
      pending={create.isPending}
      onCancel={onDone}
    >
      <EntryFields error={create.error} title={title} />
    </ActionForm>
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
    <ActionForm
      label={`Edit ${entry.title}`}
      error={update.error}
      onSubmit={({ title = '', content = '' }) =>
        update.mutate({ params: { path: { id: workspaceId, kid: entry.id } }, body: { title, content } })
      }
      submit="Save entry"
      pending={update.isPending}
      onCancel={onDone}
    >
      <EntryFields error={update.error} title={entry.title} content={entry.content} />
    </ActionForm>
  );
}
