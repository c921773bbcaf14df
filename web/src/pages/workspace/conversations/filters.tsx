import type { Schemas } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { Field } from '../../../ui/form';

/** The list's query, as the API takes it. */
export type ListQuery = NonNullable<paths['/api/workspaces/{id}/conversations']['get']['parameters']['query']>;

/** Every filter of the API (status, consumer, resolution, category), each a search param of the page. */
export const FILTERS = [
  { name: 'status', label: 'Status', any: 'Any status' },
  { name: 'consumer', label: 'Consumer', any: 'Any consumer' },
  { name: 'resolution', label: 'Resolution', any: 'Any resolution' },
  { name: 'category', label: 'Category', any: 'Any category' },
] as const satisfies readonly { name: keyof Schemas['ConversationList']['filters'] & keyof ListQuery; label: string; any: string }[];

export type FilterName = (typeof FILTERS)[number]['name'];

const LABELS: Record<string, string> = {
  'team-chat': 'Team chat',
  api: 'API',
  messaging: 'Messaging',
  'coding-agent': 'Coding agent',
  console: 'Console',
};

/** A consumer type or status as a reader says it ("Team chat", "Closed"). */
export function optionLabel(value: string): string {
  const words = LABELS[value] ?? value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Where a conversation was started: its consumer type, or the console for a person's own (api, with no key). */
export function sourceLabel(conversation: Pick<Schemas['Conversation'], 'consumer_type' | 'consumer_id'>): string {
  return optionLabel(conversation.consumer_type === 'api' && conversation.consumer_id === null ? 'console' : conversation.consumer_type);
}

interface FiltersProps {
  /** The values the API lists for each filter (from the last answer). */
  available: Schemas['ConversationList']['filters'] | undefined;
  values: Record<FilterName, string>;
  /** The last answer's error: a filter the API refuses shows its message next to it. */
  error: unknown;
  onChange: (name: FilterName, value: string) => void;
  onClear: () => void;
  /** Whether anything else narrows the list (a search, a consumer), which Clear filters clears too. */
  narrowed?: boolean;
}

/** The filters of the list; each change applies at once (and goes to the address, so it can be shared). */
export function Filters({ available, values, error, onChange, onClear, narrowed = false }: FiltersProps) {
  const anySet = narrowed || FILTERS.some((filter) => values[filter.name]);
  return (
    <form className="card conv-filters" aria-label="Filter conversations" noValidate onSubmit={(event) => event.preventDefault()}>
      {FILTERS.map((filter) => {
        const current = values[filter.name];
        const options = available?.[filter.name] ?? [];
        // A value from a shared address that the API no longer lists still shows (and can be cleared).
        const all = current && !options.includes(current) ? [...options, current] : options;
        return (
          <Field key={filter.name} label={filter.label} name={filter.name} error={error}>
            <select value={current} onChange={(event) => onChange(filter.name, event.target.value)}>
              <option value="">{filter.any}</option>
              {all.map((value) => (
                <option key={value} value={value}>
                  {optionLabel(value)}
                </option>
              ))}
            </select>
          </Field>
        );
      })}
      <div className="actions conv-filters-actions">
        <button type="button" className="button secondary" onClick={onClear} disabled={!anySet}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
