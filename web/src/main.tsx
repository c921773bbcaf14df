import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/routes';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // An error answer (4xx) will not change by asking again; a lost connection might.
      retry: (failures, error) => failures < 2 && error instanceof TypeError,
      staleTime: 5_000,
      refetchOnWindowFocus: true,
    },
    // What a form sent (a password, a bot token, a connection's headers) and what it got back (a
    // consumer's one-time key) leave the cache as soon as the form is gone, not five minutes later.
    mutations: { gcTime: 0 },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
