import { useId, useState } from 'react';
import { Link } from 'react-router';
import { $api, type Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ConfirmButton } from '../../ui/confirm';
import { dateTime } from '../../ui/format';
import { PageHeader, Section } from '../../ui/page';
import { Empty, Loadable, RowError } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { Documents } from './knowledge/documents';
import { AddEntry, EditEntry, useRefreshKnowledge } from './knowledge/entry-form';
import { KnowledgeSearch } from './knowledge/search';
import { useWorkspaceId } from './shell';

type Entry = Schemas['KnowledgeEntry'];

function DeleteEntry({ workspaceId, entry }: { workspaceId: string; entry: Entry }) {
  const refresh = useRefreshKnowledge();
  const remove = $api.useMutation('delete', '/api/workspaces/{id}/knowledge/{kid}', { onSuccess: refresh });
  return (
    <>
      <ConfirmButton
        title={`Delete ${entry.title}?`}
        description="The agent no longer gets this entry with its queries."
        confirmLabel="Delete entry"
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ params: { path: { id: workspaceId, kid: entry.id } } })}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="visually-hidden"> knowledge entry {entry.title}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

function EntryCard({ workspaceId, entry }: { workspaceId: string; entry: Entry }) {
  const isAdmin = useIsAdmin();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  return (
    <article className="card wc-entry" aria-labelledby={headingId}>
      <h3 id={headingId}>{entry.title}</h3>
      {editing ? (
        <EditEntry workspaceId={workspaceId} entry={entry} onDone={() => setEditing(false)} />
      ) : (
        <>
          <p className="wc-prose">{entry.content}</p>
          <p className="hint">
            Added {dateTime(entry.created_at)}
            {entry.updated_at !== entry.created_at && <>, changed {dateTime(entry.updated_at)}</>}
          </p>
          {isAdmin && (
            <div className="actions">
              <button type="button" className="button secondary" onClick={() => setEditing(true)}>
                Edit<span className="visually-hidden"> knowledge entry {entry.title}</span>
              </button>
              <DeleteEntry workspaceId={workspaceId} entry={entry} />
            </div>
          )}
        </>
      )}
    </article>
  );
}

function Gaps({
  workspaceId,
  gaps,
  onAnswer,
}: {
  workspaceId: string;
  gaps: Schemas['KnowledgeGap'][];
  onAnswer?: (question: string) => void;
}) {
  return (
    <DataTable
      caption="Knowledge gaps"
      columns={[
        { header: 'Question', className: 'wc-question', cell: (gap) => gap.question },
        { header: 'Asked', cell: (gap) => dateTime(gap.created_at) },
        {
          header: 'Conversation',
          cell: (gap) => (
            <Link to={`/workspaces/${workspaceId}/conversations/${gap.conversation_id}`}>
              Open<span className="visually-hidden"> the conversation of “{gap.question}”</span>
            </Link>
          ),
        },
        onAnswer && {
          header: 'Answer',
          cell: (gap) => (
            <button type="button" className="button secondary small wc-nowrap" onClick={() => onAnswer(gap.question)}>
              Add an entry<span className="visually-hidden"> answering “{gap.question}”</span>
            </button>
          ),
        },
      ]}
      rows={gaps}
      rowKey={(gap) => gap.id}
      empty="No knowledge gaps: the agent has not met a question its knowledge could not answer."
    />
  );
}

/**
 * What the agent knows: documents it searches (admins add them), what a search of them finds (any
 * member), entries an admin writes, and what it was asked but could not answer (gaps).
 */
export default function Knowledge() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  // undefined: no form; a string: the form, pre-filled with that title.
  const [adding, setAdding] = useState<string>();
  const knowledge = $api.useQuery('get', '/api/workspaces/{id}/knowledge', { params: { path: { id } } });
  return (
    <>
      <PageHeader
        title="Knowledge"
        actions={
          isAdmin &&
          adding === undefined && (
            <button type="button" className="button" onClick={() => setAdding('')}>
              Add an entry
            </button>
          )
        }
      >
        <p>Documents the agent searches and cites, and facts and policies it is given with every query.</p>
      </PageHeader>
      {adding !== undefined && <AddEntry key={adding} workspaceId={id} title={adding} onDone={() => setAdding(undefined)} />}
      {isAdmin && <Documents workspaceId={id} />}
      <KnowledgeSearch workspaceId={id} />
      <Loadable query={knowledge} label="knowledge">
        {(data) => (
          <>
            <Section title="Entries">
              {data.knowledge.length === 0 ? (
                <Empty>{isAdmin ? 'No entries yet: add the first one.' : 'No entries yet: an admin adds them.'}</Empty>
              ) : (
                <div className="wc-list">
                  {data.knowledge.map((entry) => (
                    <EntryCard key={entry.id} workspaceId={id} entry={entry} />
                  ))}
                </div>
              )}
            </Section>
            <Section title="Knowledge gaps">
              <p className="hint wc-intro">The latest questions the agent could not answer from what it knows.</p>
              <Gaps workspaceId={id} gaps={data.gaps} onAnswer={isAdmin ? setAdding : undefined} />
            </Section>
          </>
        )}
      </Loadable>
    </>
  );
}
