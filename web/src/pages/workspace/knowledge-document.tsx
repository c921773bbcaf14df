import { useEffect, useId } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { $api, type Answer } from '../../api/client';
import { Badge } from '../../ui/badge';
import { PageHeader } from '../../ui/page';
import { Empty, Loadable } from '../../ui/states';
import { useWorkspaceId } from './shell';

type Passage = Answer<'/api/workspaces/{id}/knowledge/documents/{doc_id}/passages'>['passages'][number];

/** Consecutive passages under the same headings. */
interface Group {
  section: string;
  passages: Passage[];
}

function groupsOf(passages: Passage[]): Group[] {
  const groups: Group[] = [];
  for (const passage of passages) {
    const last = groups.at(-1);
    if (last && last.section === passage.section) last.passages.push(passage);
    else groups.push({ section: passage.section, passages: [passage] });
  }
  return groups;
}

/**
 * The passage the address asks for: `#p<position>`, or (a citation, a search result, which know no
 * position) the passage of `section` that starts with `text`, else the section's first. Undefined
 * for none, and `missing` when the section asked for is not in the document (it was read again since).
 */
function useTarget(passages: Passage[] | undefined): { position?: number; missing?: string } {
  const { hash } = useLocation();
  const [search] = useSearchParams();
  const byHash = /^#p(\d+)$/.exec(hash)?.[1];
  if (byHash !== undefined) return { position: Number(byHash) };
  const section = search.get('section');
  if (section === null || !passages) return {};
  const text = search.get('text');
  const inSection = passages.filter((passage) => passage.section === section);
  const found = (text ? inSection.find((passage) => passage.text.startsWith(text)) : undefined) ?? inSection[0];
  return found ? { position: found.position } : { missing: section };
}

function PassageItem({ passage, target }: { passage: Passage; target: boolean }) {
  return (
    <li id={`p${passage.position}`} className={`kd-passage${target ? ' kd-passage-target' : ''}`}>
      {target && <p className="kd-passage-mark">The passage you opened</p>}
      <p className="kd-passage-text">{passage.text}</p>
      {passage.page !== null && <p className="hint">Page {passage.page}</p>}
    </li>
  );
}

function SectionGroup({ group, target }: { group: Group; target: number | undefined }) {
  const id = useId();
  const list = (
    <ol className="kd-passages">
      {group.passages.map((passage) => (
        <PassageItem key={passage.position} passage={passage} target={passage.position === target} />
      ))}
    </ol>
  );
  // Passages before the first heading (or of a document without any) are under none.
  if (!group.section) return <div className="kd-section">{list}</div>;
  return (
    <section className="kd-section" aria-labelledby={id}>
      <h2 id={id}>{group.section}</h2>
      {list}
    </section>
  );
}

function Passages({ passages }: { passages: Passage[] }) {
  const target = useTarget(passages);
  // Once the passages are on the page, the one asked for is scrolled to the middle of the screen.
  useEffect(() => {
    if (target.position === undefined) return;
    document.getElementById(`p${target.position}`)?.scrollIntoView({ block: 'center' });
  }, [target.position]);
  return (
    <>
      {target.missing !== undefined && (
        <p className="state state-empty">
          The section “{target.missing}” is no longer in this document: it was read again since. Here is all of it.
        </p>
      )}
      {groupsOf(passages).map((group) => (
        <SectionGroup key={group.passages[0]?.position} group={group} target={target.position} />
      ))}
    </>
  );
}

/** A knowledge document's passages in order, under their headings: what a citation or a search result opens (any member). */
export default function KnowledgeDocument() {
  const id = useWorkspaceId();
  const { docId = '' } = useParams();
  const detail = $api.useQuery('get', '/api/workspaces/{id}/knowledge/documents/{doc_id}/passages', {
    params: { path: { id, doc_id: docId } },
  });
  const knowledgeDocument = detail.data?.document;
  return (
    <>
      <PageHeader title={knowledgeDocument?.title ?? 'Document'}>
        {knowledgeDocument && knowledgeDocument.status !== 'ready' && (
          <p>
            <Badge status={knowledgeDocument.status} />
          </p>
        )}
        <p>
          <Link to={`/workspaces/${id}/knowledge`}>All knowledge</Link>
        </p>
      </PageHeader>
      <Loadable query={detail} label="the document">
        {(data) =>
          data.passages.length === 0 ? (
            <Empty>
              {data.document.status === 'failed'
                ? 'This document could not be read: it has no passages.'
                : data.document.status === 'ready'
                  ? 'This document has no text to search.'
                  : 'This document is still being read: its passages show here once it is.'}
            </Empty>
          ) : (
            <Passages passages={data.passages} />
          )
        }
      </Loadable>
    </>
  );
}
