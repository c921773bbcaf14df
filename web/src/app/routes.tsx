import { type ComponentType, useEffect, useState } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type LoaderFunctionArgs, type RouteObject, useParams } from 'react-router';
import { $api } from '../api/client';
import { SignIn } from '../pages/auth/sign-in';
import { SignUp } from '../pages/auth/sign-up';
import { NotFound } from '../pages/not-found';
import { WorkspacesPage } from '../pages/workspaces/list';
// Where signing in lands: in the first load, as the workspace list is, not a chunk fetched after it.
import ChatPage, { ChatIndex } from '../pages/chat/chat-page';
import { historyReads } from '../pages/chat/history';
import { Loading } from '../ui/states';
import { Layout } from './layout';
import { queryClient } from './query-client';
import { RequireSession } from './session';
import { forgetSsoTarget, ssoTarget } from './sign-in-target';

/**
 * A page loaded when first visited (its own chunk: the first load carries only the shell, sign-in,
 * the chat and the workspace list), as the route's `lazy`: the router loads the chunks of every route of a
 * navigation at once, alongside the loaders' requests, and renders when they are in, with no
 * "loading the page" step between the shell and the page.
 */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/** Who is signed in (null when no one is, or the service cannot say): preloaded by index.html, then cached. */
const signedIn = () => queryClient.ensureQueryData($api.queryOptions('get', '/api/auth/session')).catch(() => null);

/**
 * A route's loader: starts the page's reads (`queryClient.prefetchQuery`) as the navigation starts,
 * in parallel with its chunks, rather than once the page's code has run; the page shows them (or its
 * loading line) as they come. Only for someone signed in (anyone else is sent to sign in, and would
 * get 401s); index.html asks for the session with the scripts, so that wait is short. Each is the
 * page's own read, to the same key (`{}` and no options are two keys): test/browser/speed.test.ts
 * checks that a page asks for its data once.
 */
function startReads(start: () => void): null {
  void signedIn().then((user) => user && start());
  return null;
}

/** `/`: the page single sign-on was asked for (it comes back here), else the chat. */
function Landing() {
  const [to] = useState(() => ssoTarget() ?? '/chat');
  useEffect(forgetSsoTarget, []);
  return <Navigate to={to} replace />;
}

/** The old playground's address opens the workspace's chat. */
function PlaygroundToChat() {
  const { id = '' } = useParams();
  return <Navigate to={`/chat/${id}`} replace />;
}

const workspaceId = ({ params }: LoaderFunctionArgs) => ({ params: { path: { id: params.id ?? '' } } });

/** Every signed-in page needs the session first: the router waits for it (cached after the first page) with the chunks. */
async function signedInLoader() {
  // The budget banner's read, on every signed-in page.
  startReads(() => void queryClient.prefetchQuery($api.queryOptions('get', '/api/org/budgets')));
  await signedIn();
  return null;
}

/** Loads the chunks of the page at `to` (and of the shells around it) ahead of a navigation there: on a link's hover or focus. */
export function prefetchRoute(to: string): void {
  for (const { route } of matchRoutes(routes, to) ?? []) {
    // A chunk that fails to load now is asked for again, and its failure shown, on the navigation.
    if (typeof route.lazy === 'function') route.lazy().catch(() => undefined);
  }
}

const routes: RouteObject[] = [
  { path: '/signin', element: <SignIn /> },
  { path: '/signup', element: <SignUp /> },
  // An invitation's link: public, it makes the person's account and signs them in.
  {
    path: '/invite/:token',
    lazy: page(() => import('../pages/auth/invite')),
    hydrateFallbackElement: <Loading label="Loading the page" />,
  },
  // The MCP gateway's consent page (docs/mcp-gateway.md): a page of its own, signed in, without the console's frame.
  {
    path: '/oauth/consent/:uid',
    lazy: page(() => import('../pages/oauth/consent')),
    loader: ({ params }) =>
      startReads(
        () =>
          void queryClient.prefetchQuery(
            $api.queryOptions('get', '/api/oauth/interactions/{uid}', { params: { path: { uid: params.uid ?? '' } } }),
          ),
      ),
    hydrateFallbackElement: <Loading label="Loading the page" />,
  },
  {
    path: '/',
    loader: signedInLoader,
    hydrateFallbackElement: <Loading label="Loading the page" />,
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      // Signing in lands a person on their chat, or, back from single sign-on, on the page that asked for it.
      { index: true, element: <Landing /> },
      {
        path: 'chat',
        element: <ChatIndex />,
        loader: () => startReads(() => void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces', {}))),
      },
      {
        // One page for a new chat and an opened one, so the address takes a new chat's id without a remount.
        path: 'chat/:id',
        element: <ChatPage />,
        loader: ({ params }) =>
          startReads(() => {
            const history = historyReads(params.id ?? '');
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces', {}));
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/org/model'));
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces/{id}/conversations', history.pinned));
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces/{id}/conversations', history.recent));
          }),
        children: [
          { index: true, element: null },
          { path: 'c/:cid', element: null },
        ],
      },
      {
        path: 'workspaces',
        element: <WorkspacesPage />,
        // The list, and whether a model key is set (the page's notice until one is).
        loader: () =>
          startReads(() => {
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces', {}));
            void queryClient.prefetchQuery($api.queryOptions('get', '/api/org/model'));
          }),
      },
      {
        path: 'workspaces/:id',
        lazy: page(() => import('../pages/workspace/shell')),
        loader: (args) =>
          startReads(() => void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces/{id}/summary', workspaceId(args)))),
        children: [
          { index: true, lazy: page(() => import('../pages/workspace/overview')) },
          {
            path: 'dashboard',
            lazy: page(() => import('../pages/workspace/dashboard')),
            loader: (args) =>
              startReads(
                () => void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces/{id}/dashboard', workspaceId(args))),
              ),
          },
          // The playground became the chat.
          { path: 'playground', element: <PlaygroundToChat /> },
          { path: 'conversations', lazy: page(() => import('../pages/workspace/conversations')) },
          { path: 'conversations/:cid', lazy: page(() => import('../pages/workspace/transcript')) },
          { path: 'evals', lazy: page(() => import('../pages/workspace/evals')) },
          { path: 'evals/:evalId', lazy: page(() => import('../pages/workspace/eval')) },
          { path: 'evals/:evalId/runs/:runId', lazy: page(() => import('../pages/workspace/eval-run')) },
          { path: 'activity', lazy: page(() => import('../pages/workspace/activity')) },
          { path: 'approvals', lazy: page(() => import('../pages/workspace/approvals')) },
          { path: 'connections', lazy: page(() => import('../pages/workspace/connections')) },
          { path: 'knowledge', lazy: page(() => import('../pages/workspace/knowledge')) },
          // A document's passages: what a citation in an answer, or a search result, opens.
          { path: 'knowledge/documents/:docId', lazy: page(() => import('../pages/workspace/knowledge-document')) },
          {
            path: 'routines',
            lazy: page(() => import('../pages/workspace/routines')),
            // The list is an admin's read (members get 403, and a page that says so).
            loader: (args) => {
              void signedIn().then((session) => {
                if (session?.user.role === 'admin')
                  void queryClient.prefetchQuery($api.queryOptions('get', '/api/workspaces/{id}/routines', workspaceId(args)));
              });
              return null;
            },
          },
          { path: 'guardrails', lazy: page(() => import('../pages/workspace/guardrails')) },
          { path: 'consumers', lazy: page(() => import('../pages/workspace/consumers')) },
          { path: 'permissions', lazy: page(() => import('../pages/workspace/permissions')) },
          { path: 'settings', lazy: page(() => import('../pages/workspace/settings')) },
          { path: 'mcp', lazy: page(() => import('../pages/workspace/use-from-tools')) },
        ],
      },
      {
        path: 'org',
        lazy: page(() => import('../pages/org/shell')),
        children: [
          { index: true, lazy: page(() => import('../pages/org/users')) },
          { path: 'teams', lazy: page(() => import('../pages/org/teams')) },
          { path: 'budgets', lazy: page(() => import('../pages/org/budgets')) },
          { path: 'settings', lazy: page(() => import('../pages/org/settings')) },
          { path: 'team-chat', lazy: page(() => import('../pages/org/team-chat')) },
          { path: 'sso', lazy: page(() => import('../pages/org/sso')) },
          { path: 'provisioning', lazy: page(() => import('../pages/org/provisioning')) },
          { path: 'clients', lazy: page(() => import('../pages/org/clients')) },
        ],
      },
      { path: 'ops', lazy: page(() => import('../pages/ops')) },
      { path: 'me', lazy: page(() => import('../pages/me')) },
      // The team-chat bot's one-time link (docs/team-chat.md): signed out, sign in first and come back.
      { path: 'chat/link/:token', lazy: page(() => import('../pages/chat/link')) },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
