import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';

/**
 * Guardrails and violations, one page of violations at a time (newest first), following the API's
 * `next_cursor`. The key starts like `$api`'s, so invalidating `['get', path]` reloads it; its
 * last part keeps these pages apart from a plain read of the same path elsewhere.
 */
export function useCompliance(id: string) {
  return useInfiniteQuery({
    queryKey: ['get', '/api/workspaces/{id}/compliance', { params: { path: { id } } }, 'pages'],
    queryFn: async ({ pageParam, signal }) => {
      const query = pageParam ? { cursor: pageParam } : {};
      const { data, error } = await api.GET('/api/workspaces/{id}/compliance', { params: { path: { id }, query }, signal });
      if (error) throw error;
      return data;
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
