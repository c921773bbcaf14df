import { useState } from 'react';
import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { passagePath, whereOf } from '../../../ui/citations';
import { Field } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { Loadable } from '../../../ui/states';
import { useSettled } from '../../../ui/use-settled';

/** How long the box waits after the last key before it searches. */
const DEBOUNCE_MS = 250;
/** As many passages as one `search_knowledge` call gives the model, and a few more. */
const LIMIT = 10;

/** The passages matching `q`, best first (GET …/knowledge/search): exactly what the model's search gets. */
function Found({ workspaceId, q }: { workspaceId: string; q: string }) {
  const found = $api.useQuery('get', '/api/workspaces/{id}/knowledge/search', {
    params: { path: { id: workspaceId }, query: { q, limit: LIMIT } },
  });
  return (
    <Loadable
      query={found}
      label="matching passages"
      isEmpty={(data) => data.passages.length === 0}
      empty={<p>No passage matches “{q}”. Try other words, or check that the documents are read.</p>}
    >
      {(data) => (
        <ol className="kd-found" aria-label={`Passages matching “${q}”, best first`}>
          {data.passages.map((passage) => (
            // A passage is its document, section and text: two results never share all three.
            <li key={`${passage.document_id}\u0000${passage.section}\u0000${passage.text}`} className="kd-found-item">
              <p className="kd-found-head">
                <Link to={passagePath(workspaceId, passage.document_id, passage)}>{whereOf(passage)}</Link>
                <span className="hint"> · score {passage.score.toFixed(2)}</span>
              </p>
              <p className="kd-passage-text">{passage.text}</p>
            </li>
          ))}
        </ol>
      )}
    </Loadable>
  );
}

/** A search box over the workspace's documents: what the model would find for a question, as the person types. */
export function KnowledgeSearch({ workspaceId }: { workspaceId: string }) {
  const [text, setText] = useState('');
  const typed = text.trim();
  const q = useSettled(typed, DEBOUNCE_MS);
  return (
    <Section title="What the model would find">
      <search aria-label="The workspace's documents">
        <Field
          label="Search the documents"
          name="q"
          hint={`A question or a few words: the ${LIMIT} best passages, best first, as the model's search_knowledge gets them.`}
        >
          <input type="search" value={text} maxLength={500} autoComplete="off" onChange={(event) => setText(event.target.value)} />
        </Field>
      </search>
      {typed && q && <Found workspaceId={workspaceId} q={q} />}
    </Section>
  );
}
