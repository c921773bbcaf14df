import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { $api } from './api/client';
import { queryClient } from './app/query-client';
import { router } from './app/routes';
import './styles.css';

// Who is signed in, asked before anything renders (index.html preloads it: this takes that answer),
// on every page, the sign-in pages too.
void queryClient.prefetchQuery($api.queryOptions('get', '/api/auth/session'));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
