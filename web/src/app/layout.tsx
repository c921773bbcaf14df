import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { BudgetBanner } from './budget-banner';
import { useIsAdmin, useUser } from './session';

/** Moves focus to the page's heading after a navigation, so a screen reader announces the new page. */
function useFocusOnNavigate() {
  const location = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }, 50);
    return () => clearTimeout(timer);
  }, [location.pathname]);
}

/** The signed-in frame: the service's name, the main sections, who is signed in, sign out. */
export function Layout() {
  const user = useUser();
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useFocusOnNavigate();
  const signOut = useMutation({
    mutationFn: () => api.POST('/api/auth/logout'),
    onSettled: () => {
      queryClient.clear();
      void navigate('/signin');
    },
  });
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/chat" className="brand">
          Workspace agent proxy
        </NavLink>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/chat">Chat</NavLink>
            </li>
            <li>
              <NavLink to="/workspaces">Workspaces</NavLink>
            </li>
            <li>
              <NavLink to="/org">Organisation</NavLink>
            </li>
            {isAdmin && (
              <li>
                <NavLink to="/ops">Operations</NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="who">
          <NavLink to="/me" className="who-profile">
            <span className="visually-hidden">Profile: </span>
            {user.name} <span className="role">({user.role})</span>
          </NavLink>
          <button type="button" className="button secondary small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content">
        <BudgetBanner />
        <Outlet />
      </main>
    </div>
  );
}
