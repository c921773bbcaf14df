import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { SignIn } from '../pages/auth/sign-in';
import { SignUp } from '../pages/auth/sign-up';
import { NotFound } from '../pages/not-found';
import { WorkspacesPage } from '../pages/workspaces/list';
import { Loading } from '../ui/states';
import { Layout } from './layout';
import { RequireSession } from './session';

/** A page loaded when first visited: the first load carries only the shell, sign-in and the workspace list. */
function page(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return (
    <Suspense fallback={<Loading label="Loading the page" />}>
      <Page />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  { path: '/signin', element: <SignIn /> },
  { path: '/signup', element: <SignUp /> },
  {
    path: '/',
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      { index: true, element: <Navigate to="/workspaces" replace /> },
      { path: 'workspaces', element: <WorkspacesPage /> },
      {
        path: 'workspaces/:id',
        element: page(() => import('../pages/workspace/shell')),
        children: [
          { index: true, element: page(() => import('../pages/workspace/overview')) },
          { path: 'dashboard', element: page(() => import('../pages/workspace/dashboard')) },
          { path: 'playground', element: page(() => import('../pages/workspace/playground')) },
          { path: 'conversations', element: page(() => import('../pages/workspace/conversations')) },
          { path: 'conversations/:cid', element: page(() => import('../pages/workspace/transcript')) },
          { path: 'evals', element: page(() => import('../pages/workspace/evals')) },
          { path: 'evals/:evalId', element: page(() => import('../pages/workspace/eval')) },
          { path: 'evals/:evalId/runs/:runId', element: page(() => import('../pages/workspace/eval-run')) },
          { path: 'activity', element: page(() => import('../pages/workspace/activity')) },
          { path: 'approvals', element: page(() => import('../pages/workspace/approvals')) },
          { path: 'connections', element: page(() => import('../pages/workspace/connections')) },
          { path: 'knowledge', element: page(() => import('../pages/workspace/knowledge')) },
          { path: 'guardrails', element: page(() => import('../pages/workspace/guardrails')) },
          { path: 'consumers', element: page(() => import('../pages/workspace/consumers')) },
          { path: 'permissions', element: page(() => import('../pages/workspace/permissions')) },
          { path: 'settings', element: page(() => import('../pages/workspace/settings')) },
        ],
      },
      {
        path: 'org',
        element: page(() => import('../pages/org/shell')),
        children: [
          { index: true, element: page(() => import('../pages/org/users')) },
          { path: 'teams', element: page(() => import('../pages/org/teams')) },
          { path: 'budgets', element: page(() => import('../pages/org/budgets')) },
          { path: 'settings', element: page(() => import('../pages/org/settings')) },
          { path: 'team-chat', element: page(() => import('../pages/org/team-chat')) },
          { path: 'sso', element: page(() => import('../pages/org/sso')) },
        ],
      },
      { path: 'ops', element: page(() => import('../pages/ops')) },
      // The team-chat bot's one-time link (docs/team-chat.md): signed out, sign in first and come back.
      { path: 'chat/link/:token', element: page(() => import('../pages/chat/link')) },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
