import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { $api, onSessionLost, type Schemas } from '../api/client';
import { Loading, ErrorNote } from '../ui/states';

type User = NonNullable<Schemas['Session']>['user'];

const SessionContext = createContext<User | null>(null);

/** The signed-in user (inside `RequireSession`). */
export function useUser(): User {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useUser outside RequireSession');
  return user;
}

/** Whether the signed-in user is an admin of the organisation: admin actions are shown only then. */
export function useIsAdmin(): boolean {
  return useUser().role === 'admin';
}

const SESSION_QUERY = ['get', '/api/auth/session'] as const;

/** Renders its children for a signed-in user; sends anyone else to the sign-in page, back here after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = $api.useQuery('get', '/api/auth/session');
  const queryClient = useQueryClient();
  const location = useLocation();
  useEffect(
    () =>
      onSessionLost(() => {
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY });
      }),
    [queryClient],
  );
  if (session.isPending) return <Loading label="Checking your session" />;
  if (session.isError) return <ErrorNote error={session.error} retry={() => void session.refetch()} />;
  if (!session.data) return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <SessionContext.Provider value={session.data.user}>{children}</SessionContext.Provider>;
}
