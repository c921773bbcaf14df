import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.js';
import { conditionHeld } from '../../platform/table.js';
import { blobKeys, indexManifestKey, manifestMove, type ShardRef, shardsOf } from '../documents/entities.js';
import type { PassageIndex } from './passage-index.js';
import type { WorkspaceIndex } from './sharded-index.js';

/** The index's code (MiniSearch with it), loaded by a process's first search or ingestion, not at its cold start. */
const indexCode = () => import('./sharded-index.js');

/*
 * Where a workspace's passage index lives and how it changes (docs/knowledge.md, "The index"). The
 * index is shards (search/sharded-index.ts), each one blob per version; the manifest
 * (`WS#<org>#<ws>` / `KINDEX`) names every shard's blob. A change of a document loads its shard
 * only, writes it (or the two it splits into) under new names, then moves the manifest by a
 * conditional write: of two changes at once one wins and the other is tried again on the new
 * version, so no change is lost and a reader always loads whole shards of one version. A process
 * keeps the shards it loaded, by blob (a blob never changes once written), bounded by passages.
 */

export interface IndexManifest {
  version: number;
  shards: ShardRef[];
  documents: number;
  passages: number;
  updated_at: string;
}

/**
 * At most this many passages of loaded shards in one process. A loaded shard of up to 2 000
 * passages takes about 15 KB of heap a passage (its own vocabulary with it: 18.6 KB in shards of
 * 1 000, 10.4 KB in one index; `npm run bench -- knowledge-scale`), so this keeps them under about
 * 600 MB: a workspace of 10 000 documents of four passages stays loaded in a 1 GB function.
 */
const MAX_CACHED_PASSAGES = 40_000;

/** The shards this process loaded, by blob. */
const loaded = new LRUCache<string, PassageIndex>({
  maxSize: MAX_CACHED_PASSAGES,
  sizeCalculation: (index) => Math.max(1, index.passages),
});

/** The manifest of the workspace's index, as an item of its partition says it; undefined when there is none. */
export function manifestOf(item: Record<string, unknown> | undefined): IndexManifest | undefined {
  const shards = item && shardsOf(item);
  if (!item || typeof item.version !== 'number' || !shards) return undefined;
  return {
    version: item.version,
    shards,
    documents: Number(item.documents ?? 0),
    passages: Number(item.passages ?? 0),
    updated_at: String(item.updated_at ?? ''),
  };
}

export async function readManifest(deps: Deps, orgId: string, workspaceId: string, consistent = false) {
  return manifestOf(await deps.table.get(indexManifestKey(orgId, workspaceId), consistent));
}

/**
 * A shard's version: this process's copy, or read from its blob. For a `change`, the copy is the
 * caller's to change, so it leaves the cache (a change writes it under a new name, then caches it
 * again); a search in this process then reads the shard from its blob, not a half-done change.
 */
async function loadShard(deps: Deps, blob: string, use: 'search' | 'change'): Promise<PassageIndex> {
  const held = loaded.get(blob);
  if (held) {
    if (use === 'change') loaded.delete(blob);
    return held;
  }
  const bytes = await deps.blobs.get(blob);
  if (!bytes) throw new Error(`the knowledge index shard ${blob} is missing`);
  const index = (await import('./passage-index.js')).PassageIndex.fromBytes(bytes);
  if (use === 'search') loaded.set(blob, index);
  return index;
}

/** The workspace's index at `manifest`'s version, every shard: this process's copies, or loaded from their blobs once. */
export async function loadIndex(deps: Deps, manifest: IndexManifest | undefined): Promise<WorkspaceIndex> {
  const { WorkspaceIndex } = await indexCode();
  if (!manifest) return WorkspaceIndex.empty();
  const shards = await Promise.all(manifest.shards.map(async (ref) => [ref.prefix, await loadShard(deps, ref.blob, 'search')] as const));
  return new WorkspaceIndex(new Map(shards));
}

/** The shard of `documentId` only, of the index at `manifest`, to search or to change (loadShard), and its blob (none for a new index). */
async function loadShardOf(deps: Deps, manifest: IndexManifest | undefined, documentId: string, use: 'search' | 'change') {
  const { WorkspaceIndex, shardPrefixOf } = await indexCode();
  if (!manifest) return { index: WorkspaceIndex.empty(), shard: undefined };
  const prefixes = manifest.shards.map((ref) => ref.prefix);
  const prefix = shardPrefixOf(prefixes, documentId);
  const ref = manifest.shards.find((candidate) => candidate.prefix === prefix) as ShardRef;
  const shard = await loadShard(deps, ref.blob, use);
  return { index: new WorkspaceIndex(new Map([[prefix, shard]]), prefixes), shard: { blob: ref.blob, index: shard } };
}

/** How many passages the workspace's current index holds of the document (its shard only is read). */
export async function passagesIndexed(deps: Deps, orgId: string, workspaceId: string, documentId: string): Promise<number> {
  const { index } = await loadShardOf(deps, await readManifest(deps, orgId, workspaceId, true), documentId, 'search');
  return index.passagesOf(documentId);
}

/** Another change of the index was written first: read the new version and change it again. */
export class IndexMovedError extends Error {
  constructor(workspaceId: string) {
    super(`the knowledge index of workspace ${workspaceId} changed meanwhile`);
    this.name = 'IndexMovedError';
  }
}

/** The changed shards written under names of their own (`version`: the manifest's next), with what they replace. */
async function writeShards(deps: Deps, where: { orgId: string; workspaceId: string; version: number }, index: WorkspaceIndex) {
  const changes = index.changedShards(deps.config.knowledgeShardPassages);
  const written: { ref: ShardRef; index: PassageIndex }[] = [];
  for (const change of changes) {
    for (const shard of change.shards) {
      const blob = blobKeys.index(where.orgId, where.workspaceId, `${where.version}-s${shard.prefix}-${randomUUID()}`);
      await deps.blobs.put(blob, shard.index.toBytes());
      written.push({
        ref: { prefix: shard.prefix, blob, documents: shard.index.documentCount, passages: shard.index.passages },
        index: shard.index,
      });
    }
  }
  return { replaced: new Set(changes.map((change) => change.replaces)), written };
}

/**
 * Applies `change` to the shard of `documentId` of the workspace's index and stores it as the next
 * version. `change` answers whether it changed anything (nothing is written otherwise). Throws
 * `IndexMovedError` when another change won the version (the caller tries again).
 */
export async function changeIndex(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  documentId: string,
  change: (index: WorkspaceIndex) => boolean | Promise<boolean>,
): Promise<IndexManifest | undefined> {
  const stored = await deps.table.get(indexManifestKey(orgId, workspaceId), true);
  const current = manifestOf(stored);
  const version = (current?.version ?? 0) + 1;
  // The process's copy when it has one (the shard a warm ingestion changed last), taken out of the cache.
  const { index, shard } = await loadShardOf(deps, current, documentId, 'change');
  if (!(await change(index))) {
    // Unchanged: the copy serves searches again.
    if (shard) loaded.set(shard.blob, shard.index);
    return current;
  }
  const { replaced, written } = await writeShards(deps, { orgId, workspaceId, version }, index);
  const before = current?.shards ?? [];
  const shards = [...before.filter((ref) => !replaced.has(ref.prefix)), ...written.map(({ ref }) => ref)].sort((a, b) =>
    a.prefix.localeCompare(b.prefix),
  );
  const next: IndexManifest = {
    version,
    shards,
    documents: shards.reduce((sum, ref) => sum + ref.documents, 0),
    passages: shards.reduce((sum, ref) => sum + ref.passages, 0),
    updated_at: deps.clock.now().toISOString(),
  };
  const previousBlobs = before.filter((ref) => replaced.has(ref.prefix)).map((ref) => ref.blob);
  const move = manifestMove(orgId, workspaceId, { ...next, previousBlobs, updatedAt: next.updated_at }, version - 1);
  const moved = await conditionHeld(deps.table.put(move.item, move.write));
  // A write the store made but whose answer was lost is sent again by the SDK, and the second fails
  // its condition: the manifest then names these very blobs, which must stay.
  const mine = written[0]?.ref.blob;
  if (!moved && !(await readManifest(deps, orgId, workspaceId, true))?.shards.some((ref) => ref.blob === mine)) {
    for (const { ref } of written) await deps.blobs.delete(ref.blob);
    throw new IndexMovedError(workspaceId);
  }
  for (const shard of written) loaded.set(shard.ref.blob, shard.index);
  // The blobs the version before replaced stay for searches that read the manifest a moment ago; those the one before it replaced go.
  if (Array.isArray(stored?.previous_blobs)) for (const blob of stored.previous_blobs as string[]) await deps.blobs.delete(blob);
  return next;
}
