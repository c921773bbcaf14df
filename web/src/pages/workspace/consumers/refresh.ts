import { useRefresh } from '../../../api/client';

/** Re-reads everything that lists the workspace's consumers and their channels. */
export const useRefreshConsumers = () => useRefresh('/api/workspaces/{id}/consumers', '/api/workspaces/{id}');
