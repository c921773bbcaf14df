import type { Deps } from '../../deps.js';
import { CitationLedger, passagesForModel } from './citations.js';
import { loadIndex, type IndexManifest } from './index-store.js';

/** The ranking (hybrid.ts), loaded with the first search like the index it ranks. */
const ranking = () => import('./hybrid.js');

/** How many passages one `search_knowledge` call gives the model. */
const PASSAGES_PER_SEARCH = 5;

/**
 * The search behind a query's `search_knowledge` over the workspace's documents: the index at the
 * version the query read with its workspace (loaded once per process and version), and the ledger
 * of the numbers the model cites. The index is loaded at the first search, not before the model runs.
 */
export function documentSearch(deps: Deps, orgId: string, workspaceId: string, manifest: IndexManifest) {
  const ledger = new CitationLedger();
  return {
    ledger,
    async search(query: string): Promise<string | undefined> {
      const index = await loadIndex(deps, manifest);
      const found = await (await ranking()).rankPassages(deps, { orgId, workspaceId }, index, query, PASSAGES_PER_SEARCH);
      return found.length ? passagesForModel(ledger, found) : undefined;
    },
  };
}
