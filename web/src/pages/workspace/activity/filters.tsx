import { useSearchParams } from 'react-router';
import { $api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { Field } from '../../../ui/form';

/** The filters of the audit log, as the API takes them (the list and its CSV alike). */
export type ActivityFilters = NonNullable<paths['/api/workspaces/{id}/activity.csv']['get']['parameters']['query']>;

const NAMES = ['user', 'tool', 'errors', 'from', 'to'] as const;
type FilterName = (typeof NAMES)[number];

/** The filters, read from the address (`?errors=true&tool=lookup_order`), and the changes to them. */
export function useActivityFilters() {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(NAMES.map((name) => [name, params.get(name) ?? ''])) as Record<FilterName, string>;
  // The address is the reader's to edit: a value the API refuses comes back as its 400, shown by the field.
  const query = Object.fromEntries(Object.entries(values).filter(([, value]) => value)) as ActivityFilters;
  const change = (edit: (next: URLSearchParams) => void) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      edit(next);
      return next;
    });
  return {
    values,
    query,
    filtered: NAMES.some((name) => values[name]),
    set: (name: FilterName, value: string) =>
      change((next) => {
        if (value) next.set(name, value);
        else next.delete(name);
      }),
    clear: () =>
      change((next) => {
        for (const name of NAMES) next.delete(name);
      }),
  };
}

/** The CSV of the same filters (`GET …/activity.csv`): a plain link, the session cookie goes with it. */
export function csvHref(workspaceId: string, filters: ActivityFilters): string {
  const search = new URLSearchParams(filters as Record<string, string>).toString();
  return `/api/workspaces/${encodeURIComponent(workspaceId)}/activity.csv${search ? `?${search}` : ''}`;
}

/** Options of a select: those listed, and the current value when it is not among them (from a shared address). */
const withCurrent = (options: { value: string; label: string }[], current: string) =>
  current && !options.some((option) => option.value === current) ? [...options, { value: current, label: current }] : options;

interface FiltersProps {
  workspaceId: string;
  filters: ReturnType<typeof useActivityFilters>;
  /** The last answer's error: a filter the API refuses shows its message next to it. */
  error: unknown;
}

/** Who asked, which tool was called, how it ended, and the days; each change applies at once and goes to the address. */
export function ActivityFiltersForm({ workspaceId, filters, error }: FiltersProps) {
  const users = $api.useQuery('get', '/api/org/users');
  const connections = $api.useQuery('get', '/api/workspaces/{id}/connections', { params: { path: { id: workspaceId } } });
  const userOptions = (users.data?.users ?? []).map((user) => ({ value: user.id, label: `${user.name} (${user.email})` }));
  const toolNames = [...new Set((connections.data?.tools ?? []).map((tool) => tool.name))].sort();
  const { values, set } = filters;
  return (
    <form className="card conv-filters" aria-label="Filter activity" noValidate onSubmit={(event) => event.preventDefault()}>
      <Field label="User" name="user" error={error}>
        <select value={values.user} onChange={(event) => set('user', event.target.value)}>
          <option value="">Anyone</option>
          {withCurrent(userOptions, values.user).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Tool called" name="tool" error={error}>
        <select value={values.tool} onChange={(event) => set('tool', event.target.value)}>
          <option value="">Any tool or none</option>
          {withCurrent(
            toolNames.map((name) => ({ value: name, label: name })),
            values.tool,
          ).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Outcome" name="errors" error={error}>
        <select value={values.errors} onChange={(event) => set('errors', event.target.value)}>
          <option value="">Any outcome</option>
          <option value="true">Failed</option>
          <option value="false">Without an error</option>
        </select>
      </Field>
      <Field label="From" name="from" error={error}>
        <input type="date" value={values.from} onChange={(event) => set('from', event.target.value)} />
      </Field>
      <Field label="To" name="to" error={error}>
        <input type="date" value={values.to} onChange={(event) => set('to', event.target.value)} />
      </Field>
      <div className="actions conv-filters-actions">
        <button type="button" className="button secondary" onClick={filters.clear} disabled={!filters.filtered}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
