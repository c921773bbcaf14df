import { useEffect, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { Field } from '../../../ui/form';
import { optionLabel } from './filters';

/** A consumer as a person knows it: its name, else its type and id. */
function consumerLabel(consumer: Pick<Schemas['Consumer'], 'id' | 'type' | 'name'>): string {
  return consumer.name ? `${consumer.name} (${optionLabel(consumer.type)})` : `${optionLabel(consumer.type)} ${consumer.id}`;
}

interface SearchProps {
  workspaceId: string;
  /** The search and the consumer as the address has them. */
  q: string;
  consumerId: string;
  /** The last answer's error: a value the API refuses shows its message next to its field. */
  error: unknown;
  onChange: (name: 'q' | 'consumer_id', value: string) => void;
}

/**
 * Search the conversations by their first question (or user), and show those one consumer
 * started. The search applies when it is submitted; the consumer at once.
 */
export function ConversationSearch({ workspaceId, q, consumerId, error, onChange }: SearchProps) {
  const [text, setText] = useState(q);
  // The address changed (a shared link, Clear): the box shows what is searched.
  useEffect(() => setText(q), [q]);
  const consumers = $api.useQuery('get', '/api/workspaces/{id}/consumers', { params: { path: { id: workspaceId } } });
  const options = consumers.data?.consumers ?? [];
  const known = !consumerId || options.some((consumer) => consumer.id === consumerId);
  return (
    <search className="card conv-search" aria-label="Search conversations">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onChange('q', text.trim());
        }}
      >
        <Field label="Search" name="q" error={error} hint="Finds conversations whose first question or user contains these words.">
          <input type="search" value={text} maxLength={200} onChange={(event) => setText(event.target.value)} />
        </Field>
        <div className="actions">
          <button type="submit" className="button secondary">
            Search
          </button>
        </div>
        <Field label="Started by consumer" name="consumer_id" error={error}>
          <select value={consumerId} onChange={(event) => onChange('consumer_id', event.target.value)}>
            <option value="">Anyone</option>
            {options.map((consumer) => (
              <option key={consumer.id} value={consumer.id}>
                {consumerLabel(consumer)}
              </option>
            ))}
            {!known && <option value={consumerId}>{consumerId}</option>}
          </select>
        </Field>
      </form>
    </search>
  );
}
