import { QueryClient } from '@tanstack/react-query';

/** The console's one query cache: the pages read it through hooks, the routes' loaders fill it ahead of them. */
export const queryClient = new QueryClient({
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
