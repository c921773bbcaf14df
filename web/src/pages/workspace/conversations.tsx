import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { $api } from '../../api/client';
import { count } from '../../ui/format';
import { PageHeader } from '../../ui/page';
import { Loadable, Loading } from '../../ui/states';
import { FILTERS, type FilterName, Filters, type ListQuery } from './conversations/filters';
import { ConversationSearch } from './conversations/search';
import { ConversationTable } from './conversations/table';
import { useWorkspaceId } from './shell';

const PAGE_SIZE = 25;
/** The search and the consumer: params of the address like the filters, not offered as a list by the API. */
const SEARCH_PARAMS = ['q', 'consumer_id'] as const;
type ParamName = FilterName | (typeof SEARCH_PARAMS)[number];
const PARAMS: ParamName[] = [...FILTERS.map((filter) => filter.name), ...SEARCH_PARAMS];

/** The filters and the page, read from the address (`?status=closed&cursor=…`). */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(PARAMS.map((name) => [name, params.get(name) ?? ''])) as Record<ParamName, string>;
  const cursor = params.get('cursor') ?? '';
  // The address is the reader's to edit: a value the API refuses comes back as its 400, shown by the field.
  const query = {
    ...Object.fromEntries(Object.entries(values).filter(([, value]) => value)),
    ...(cursor ? { cursor } : {}),
    limit: PAGE_SIZE,
  } as ListQuery;
  const change = (edit: (next: URLSearchParams) => void) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      edit(next);
      return next;
    });
  return {
    values,
    cursor,
    query,
    // A new filter starts from the first page.
    setFilter: (name: ParamName, value: string) =>
      change((next) => {
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('cursor');
      }),
    clear: () =>
      change((next) => {
        for (const name of PARAMS) next.delete(name);
        next.delete('cursor');
      }),
    goTo: (page: string | null) =>
      change((next) => {
        if (page) next.set('cursor', page);
        else next.delete('cursor');
      }),
  };
}

/** The workspace's conversations, newest activity first, filtered and paged; each opens its transcript. */
export default function Conversations() {
  const id = useWorkspaceId();
  const list = useListParams();
  const conversations = $api.useQuery(
    'get',
    '/api/workspaces/{id}/conversations',
    { params: { path: { id }, query: list.query } },
    // The filters' options come with the answer: keep the last one while the next loads.
    { placeholderData: keepPreviousData },
  );
  const filtered = PARAMS.some((name) => list.values[name]);
  return (
    <>
      <PageHeader title="Conversations">
        <p>Every conversation with the agent, from the playground, the API, team chat, messaging and coding agents.</p>
      </PageHeader>
      <ConversationSearch
        workspaceId={id}
        q={list.values.q}
        consumerId={list.values.consumer_id}
        error={conversations.error}
        onChange={list.setFilter}
      />
      <Filters
        available={conversations.data?.filters}
        values={list.values}
        error={conversations.error}
        onChange={list.setFilter}
        onClear={list.clear}
        narrowed={filtered}
      />
      <Loadable
        query={conversations}
        label="conversations"
        isEmpty={(data) => data.conversations.length === 0}
        empty={
          filtered
            ? 'No conversations match this search and these filters.'
            : 'No conversations yet: ask a question in the playground to start one.'
        }
      >
        {(data) => (
          <>
            <p className="hint" aria-live="polite">
              {`${count(data.conversations.length)} shown of ${count(data.total)} ${filtered ? 'matching ' : ''}conversations${list.cursor ? ', from a later page' : ''}.`}
            </p>
            {conversations.isPlaceholderData && <Loading label="Loading conversations" />}
            <ConversationTable workspaceId={id} conversations={data.conversations} />
          </>
        )}
      </Loadable>
      {(list.cursor || conversations.data?.next_cursor) && (
        <nav className="actions conv-pages" aria-label="Pages of conversations">
          {list.cursor && (
            <button type="button" className="button secondary" onClick={() => list.goTo(null)}>
              First page
            </button>
          )}
          {conversations.data?.next_cursor && (
            <button
              type="button"
              className="button secondary"
              disabled={conversations.isPlaceholderData}
              onClick={() => list.goTo(conversations.data?.next_cursor ?? null)}
            >
              Next page
            </button>
          )}
        </nav>
      )}
    </>
  );
}
