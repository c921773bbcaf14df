import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorText, isRetryable } from '../api/client';

/** A polite "loading" line that screen readers announce. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <p className="state state-loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}…
    </p>
  );
}

/** An error with its message from the API and, when given, a way to try again, offered only when asking again may help (not for a 404). */
export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <p>{errorText(error)}</p>
      {retry && isRetryable(error) && (
        <button type="button" className="button secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Why an action on a row (or a block of the page) failed, beside its buttons; nothing while it has not. */
export function RowError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="row-error" role="alert">
      {errorText(error)}
    </p>
  );
}

/** What an empty list says, and what to do about it. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

interface LoadableProps<T> {
  query: Pick<UseQueryResult<T, unknown>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;
  /** What is loading, for the status line ("Loading workspaces…"). */
  label: string;
  /** When the data counts as empty, and what to show then. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/** The three states of every list: loading, error (with retry when it may help), empty; then the data. */
export function Loadable<T>({ query, label, isEmpty, empty, children }: LoadableProps<T>) {
  if (query.isPending) return <Loading label={`Loading ${label}`} />;
  if (query.isError) return <ErrorNote error={query.error} retry={() => void query.refetch()} />;
  const data = query.data as T;
  if (isEmpty?.(data)) return <Empty>{empty ?? `No ${label} yet.`}</Empty>;
  return <>{children(data)}</>;
}
