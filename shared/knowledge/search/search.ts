import type { Deps } from '../../deps.js';
import { getWorkspaceItem } from '../../workspaces/index.js';
import { loadIndex, readManifest } from './index-store.js';
import type { FoundPassage } from './passage-index.js';

/** The ranking (hybrid.ts), loaded with the first search like the index it ranks. */
const ranking = () => import('./hybrid.js');

/**
 * The passages of the workspace's knowledge that best match `query`, best first: what
 * `GET …/knowledge/search` answers and `search_knowledge` gives the model. Another organisation's
 * workspace, or none, is 404; the index read is the workspace's own (its key names both).
 */
export async function searchPassages(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  query: string,
  limit: number,
): Promise<FoundPassage[]> {
  const [, manifest] = await Promise.all([getWorkspaceItem(deps, orgId, workspaceId), readManifest(deps, orgId, workspaceId)]);
  const index = await loadIndex(deps, manifest);
  return (await ranking()).rankPassages(deps, { orgId, workspaceId }, index, query, limit);
}
