import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.js';
import { conditionHeld } from '../../platform/table.js';
import { blobKeys, indexManifestKey, manifestMove } from '../documents/entities.js';
import type { PassageIndex } from './passage-index.js';

/** The index's code (MiniSearch with it), loaded by a process's first search or ingestion, not at its cold start. */
const indexCode = () => import('./passage-index.js');

/*
 * Where a workspace's passage index lives and how it changes (docs/knowledge.md, "The index").
 * Each change writes a new version of the whole index as one blob, then moves the manifest
 * (`WS#<org>#<ws>` / `KINDEX`) to it by a conditional write, so of two ingestions at once one
 * wins and the other is tried again on the new version: no change is lost, and a reader always
 * loads a whole index. A process keeps the indexes it loaded, by version, bounded by passages.
 */

export interface IndexManifest {
  version: number;
  /** The blob of this version (its name is the writer's own: two writers of one version never write the same blob). */
  blob: string;
  documents: number;
  passages: number;
  updated_at: string;
}

/**
 * At most this many passages of loaded indexes in one process. A loaded index takes about 8 KB of
 * heap a passage (`npm run bench -- knowledge`: 100 000 passages, 800 MB), so this keeps them under
 * about 400 MB.
 */
const MAX_CACHED_PASSAGES = 50_000;

/** The index this process loaded of each workspace, by `<org>/<ws>`: one version each, the newest it saw. */
const loaded = new LRUCache<string, { version: number; index: PassageIndex }>({
  maxSize: MAX_CACHED_PASSAGES,
  sizeCalculation: ({ index }) => Math.max(1, index.passages),
});

/** Keeps `index` as the workspace's, unless this process holds a newer version already. */
function keep(key: string, version: number, index: PassageIndex) {
  const held = loaded.get(key);
  if (!held || held.version < version) loaded.set(key, { version, index });
}

/** The manifest of the workspace's index, as an item of its partition says it; undefined when there is none. */
export function manifestOf(item: Record<string, unknown> | undefined): IndexManifest | undefined {
  if (!item || typeof item.version !== 'number' || typeof item.blob !== 'string') return undefined;
  return {
    version: item.version,
    blob: item.blob,
    documents: Number(item.documents ?? 0),
    passages: Number(item.passages ?? 0),
    updated_at: String(item.updated_at ?? ''),
  };
}

export async function readManifest(deps: Deps, orgId: string, workspaceId: string, consistent = false) {
  return manifestOf(await deps.table.get(indexManifestKey(orgId, workspaceId), consistent));
}

async function loadVersion(deps: Deps, manifest: IndexManifest | undefined): Promise<PassageIndex> {
  const { PassageIndex } = await indexCode();
  if (!manifest) return PassageIndex.empty();
  const bytes = await deps.blobs.get(manifest.blob);
  if (!bytes) throw new Error(`the knowledge index ${manifest.blob} is missing`);
  return PassageIndex.fromBytes(bytes);
}

/** The workspace's index at `manifest`'s version: this process's copy, or loaded from its blob once. */
export async function loadIndex(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  manifest: IndexManifest | undefined,
): Promise<PassageIndex> {
  if (!manifest) return (await indexCode()).PassageIndex.empty();
  const key = `${orgId}/${workspaceId}`;
  const cached = loaded.get(key);
  if (cached?.version === manifest.version) return cached.index;
  const index = await loadVersion(deps, manifest);
  keep(key, manifest.version, index);
  return index;
}

/** Another change of the index was written first: read the new version and change it again. */
export class IndexMovedError extends Error {
  constructor(workspaceId: string) {
    super(`the knowledge index of workspace ${workspaceId} changed meanwhile`);
    this.name = 'IndexMovedError';
  }
}

/**
 * Applies `change` to the workspace's index and stores it as the next version. `change` answers
 * whether it changed anything (nothing is written otherwise). Throws `IndexMovedError` when
 * another change won the version (the caller tries again).
 */
export async function changeIndex(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  change: (index: PassageIndex) => boolean | Promise<boolean>,
): Promise<IndexManifest | undefined> {
  const stored = await deps.table.get(indexManifestKey(orgId, workspaceId), true);
  const current = manifestOf(stored);
  const version = current?.version ?? 0;
  // A fresh copy: the cached one serves searches and is never changed.
  const index = await loadVersion(deps, current);
  if (!(await change(index))) return current;
  const next: IndexManifest = {
    version: version + 1,
    blob: blobKeys.index(orgId, workspaceId, `${version + 1}-${randomUUID()}`),
    documents: index.documentCount,
    passages: index.passages,
    updated_at: deps.clock.now().toISOString(),
  };
  await deps.blobs.put(next.blob, index.toBytes());
  const move = manifestMove(orgId, workspaceId, { ...next, previousBlob: current?.blob, updatedAt: next.updated_at }, version);
  const moved = await conditionHeld(deps.table.put(move.item, move.write));
  // A write the store made but whose answer was lost is sent again by the SDK, and the second fails
  // its condition: the manifest then names this very blob, which must stay.
  if (!moved && (await readManifest(deps, orgId, workspaceId, true))?.blob !== next.blob) {
    await deps.blobs.delete(next.blob);
    throw new IndexMovedError(workspaceId);
  }
  keep(`${orgId}/${workspaceId}`, next.version, index);
  // The version before stays for searches that read the manifest a moment ago; the one before it goes.
  if (typeof stored?.previous_blob === 'string') await deps.blobs.delete(stored.previous_blob);
  return next;
}
