import { useState } from 'react';
import { $api } from '../../../api/client';
import { Field } from '../../../ui/form';
import { Section } from '../../../ui/page';
import { Loadable } from '../../../ui/states';
import { DataTable } from '../../../ui/table';
import { useSettled } from '../../../ui/use-settled';

/** How long the box waits after the last key before it searches. */
const DEBOUNCE_MS = 250;
const LIMIT = 10;

/** The tools matching `q`, best first (GET …/tools/search): only those the signed-in person may use. */
function Matches({ workspaceId, q }: { workspaceId: string; q: string }) {
  const matches = $api.useQuery('get', '/api/workspaces/{id}/tools/search', {
    params: { path: { id: workspaceId }, query: { q, limit: LIMIT } },
  });
  return (
    <Loadable
      query={matches}
      label="matching tools"
      isEmpty={(data) => data.tools.length === 0}
      empty={<p>No tool matches “{q}”. Try other words, or fewer.</p>}
    >
      {(data) => (
        <DataTable
          caption={`Tools matching “${q}”, best first`}
          columns={[
            { header: 'Tool', cell: (tool) => <code>{tool.name}</code> },
            { header: 'Connection', cell: (tool) => tool.connection },
            { header: 'Description', cell: (tool) => tool.description || '—' },
          ]}
          rows={data.tools}
          rowKey={(tool) => tool.name}
        />
      )}
    </Loadable>
  );
}

/** A search box over the workspace's tools: it searches as the person types, and shows nothing for an empty box. */
export function ToolSearch({ workspaceId }: { workspaceId: string }) {
  const [text, setText] = useState('');
  const typed = text.trim();
  const q = useSettled(typed, DEBOUNCE_MS);
  return (
    <Section title="Find a tool">
      <search aria-label="The workspace's tools">
        <Field
          label="Search tools"
          name="q"
          hint={`What the tool should do, in a few words; the ${LIMIT} best matches among the tools you may use, best first.`}
        >
          <input type="search" value={text} maxLength={500} autoComplete="off" onChange={(event) => setText(event.target.value)} />
        </Field>
      </search>
      {/* An emptied box shows nothing at once, without waiting for the pause. */}
      {typed && q && <Matches workspaceId={workspaceId} q={q} />}
    </Section>
  );
}
