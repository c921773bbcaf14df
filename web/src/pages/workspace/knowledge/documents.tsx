import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { passagePath } from '../../../ui/citations';
import { ConfirmButton } from '../../../ui/confirm';
import { ActionForm, Field } from '../../../ui/form';
import { count, dateTime } from '../../../ui/format';
import { Section } from '../../../ui/page';
import { Loadable, RowError } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { addDocument, isSettled, type KnowledgeDocument, useRefreshDocuments } from './documents-api';
import { UploadArea } from './upload';

/** How often the list is asked again while a document is queued or being read. */
const POLL_EVERY_MS = 1_500;

const KINDS: Record<NonNullable<KnowledgeDocument['kind']>, string> = {
  markdown: 'Markdown',
  text: 'Plain text',
  html: 'HTML',
  pdf: 'PDF',
  docx: 'Word (DOCX)',
};

/** `POST …/knowledge/documents` with `{ url }`: the service fetches the page or file (through its address policy) and reads it. */
function AddFromUrl({ workspaceId }: { workspaceId: string }) {
  const refresh = useRefreshDocuments();
  const add = useMutation({ mutationFn: (url: string) => addDocument(workspaceId, { url }), onSuccess: () => refresh() });
  return (
    <ActionForm
      className="form kd-url"
      label="Add from a URL"
      heading={3}
      error={add.error}
      onSubmit={({ url = '' }, form) => add.mutate(url.trim(), { onSuccess: () => form.reset() })}
      submit="Add URL"
      busy="Adding"
      pending={add.isPending}
    >
      <Field label="Document URL" name="url" error={add.error} hint="A web page or a file at an https:// address; it is fetched once, now.">
        <input type="url" inputMode="url" autoComplete="off" placeholder="https://" />
      </Field>
    </ActionForm>
  );
}

function DeleteDocument({ workspaceId, document }: { workspaceId: string; document: KnowledgeDocument }) {
  const refresh = useRefreshDocuments();
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/knowledge/documents/{doc_id}', { onSuccess: () => refresh() });
  return (
    <>
      <ConfirmButton
        title={`Delete ${document.title}?`}
        description={
          document.source === 'entry'
            ? 'It is a knowledge entry: the entry goes too. The model no longer finds it; answers that cited it keep their sources, which then lead nowhere.'
            : 'The model no longer finds its passages; answers that cited it keep their sources, which then lead nowhere.'
        }
        confirmLabel={document.source === 'entry' ? 'Delete entry' : 'Delete document'}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ params: { path: { id: workspaceId, doc_id: document.id } } })}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="visually-hidden"> document {document.title}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

/** Its status; while it is read, how far (a labelled progress bar); failed, why. */
function DocumentStatus({ document }: { document: KnowledgeDocument }) {
  return (
    <>
      <Badge status={document.status} />
      {!isSettled(document) && (
        <span className="kd-progress">
          <progress max={100} value={document.progress} aria-label={`Reading ${document.title}`} /> {document.progress}%
        </span>
      )}
      {document.status === 'failed' && document.error && <span className="kd-failure">{document.error}</span>}
    </>
  );
}

/** The document's title (a link to its passages once read), and the file or the address it came from. */
function DocumentTitle({ workspaceId, document }: { workspaceId: string; document: KnowledgeDocument }) {
  return (
    <>
      {document.status === 'ready' ? <Link to={passagePath(workspaceId, document.id)}>{document.title}</Link> : document.title}
      {(document.filename ?? document.url) && <span className="hint kd-source">{document.filename ?? document.url}</span>}
    </>
  );
}

function DocumentsTable({ workspaceId, documents }: { workspaceId: string; documents: KnowledgeDocument[] }) {
  return (
    <DataTable
      caption="Documents"
      columns={[
        { header: 'Document', className: 'kd-title', cell: (document) => <DocumentTitle workspaceId={workspaceId} document={document} /> },
        { header: 'Kind', cell: (document) => (document.source === 'entry' ? 'Entry' : document.kind ? KINDS[document.kind] : '—') },
        { header: 'Status', cell: (document) => <DocumentStatus document={document} /> },
        // An entry has no pages of its own.
        { header: 'Pages', num: true, cell: (document) => (document.source === 'entry' ? '—' : count(document.pages)) },
        { header: 'Passages', num: true, cell: (document) => count(document.passages) },
        { header: 'Added', cell: (document) => dateTime(document.created_at) },
        {
          header: 'Actions',
          hideHeader: true,
          cell: (document) => <DeleteDocument workspaceId={workspaceId} document={document} />,
        },
      ]}
      rows={documents}
      rowKey={(document) => document.id}
      empty="No documents yet: upload the first, or add one from a URL."
    />
  );
}

/**
 * The workspace's documents (admins): add files or a URL, and follow each as it is read (the list is
 * asked again every 1.5 s while any is queued or being read, and no more once all are settled).
 */
export function Documents({ workspaceId }: { workspaceId: string }) {
  const documents = $api.useQuery(
    'get',
    '/api/workspaces/{id}/knowledge/documents',
    { params: { path: { id: workspaceId } } },
    { refetchInterval: (query) => (query.state.data?.documents.every(isSettled) === false ? POLL_EVERY_MS : false) },
  );
  return (
    <Section title="Documents">
      <p className="hint wc-intro">
        Files and pages the model searches with <code>search_knowledge</code> when a question needs them, and cites in its answers.
      </p>
      <div className="kd-add">
        <UploadArea workspaceId={workspaceId} />
        <AddFromUrl workspaceId={workspaceId} />
      </div>
      <Loadable query={documents} label="documents">
        {(data) => <DocumentsTable workspaceId={workspaceId} documents={data.documents} />}
      </Loadable>
    </Section>
  );
}
