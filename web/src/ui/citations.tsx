import { useId } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api/client';

/** A knowledge passage an answer cites as `[n]`: its document and section (no position: the section finds it). */
export type Citation = NonNullable<Schemas['QueryResponse']['citations']>[number];

/** How much of a passage's text a link carries to find it. */
const OPENING_CHARS = 60;

/** Where a passage is read: the document's passages, and which to show (`#p<position>`, or a section and the passage's opening words). */
export function passagePath(
  workspaceId: string,
  documentId: string,
  target: { position?: number; section?: string; text?: string } = {},
): string {
  const path = `/workspaces/${encodeURIComponent(workspaceId)}/knowledge/documents/${encodeURIComponent(documentId)}`;
  if (target.position !== undefined) return `${path}#p${target.position}`;
  const query = new URLSearchParams();
  if (target.section !== undefined) query.set('section', target.section);
  // A passage's first words single it out among the passages of its section (passages overlap at their ends, not their starts).
  if (target.text) query.set('text', target.text.slice(0, OPENING_CHARS));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** "Title › Section", or the title alone for a passage under no heading. */
export const whereOf = (passage: { title: string; section: string }) =>
  passage.section ? `${passage.title} › ${passage.section}` : passage.title;

/**
 * The sources under an answer: its citations in order, "[1] Title › Section", each a link to the
 * passage in its document. Nothing for an answer that cites none.
 */
export function Citations({ workspaceId, citations }: { workspaceId: string; citations: Citation[] | undefined }) {
  const id = useId();
  if (!citations?.length) return null;
  return (
    <div className="citations">
      <p className="citations-title" id={id}>
        Sources
      </p>
      <ol aria-labelledby={id}>
        {citations.map((citation) => (
          <li key={citation.n}>
            <Link to={passagePath(workspaceId, citation.document_id, { section: citation.section })}>
              [{citation.n}] {whereOf(citation)}
            </Link>
          </li>
        ))}
      </ol>
    </div>
  );
}
