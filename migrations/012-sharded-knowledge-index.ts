import { everyUnshardedManifest, manifestMove } from '../shared/knowledge/documents/entities.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { conditionHeld } from '../shared/platform/table.js';

/*
 * 012: a workspace's knowledge index is shards (shared/knowledge/search/sharded-index.ts), each a
 * blob of its own, which the manifest lists; versions before kept the whole index as one blob
 * (`blob`, `previous_blob`). That blob is in the format of a shard, so each manifest of before
 * becomes one of a single shard, prefix '' (every document), at the next version, written only while
 * it is still the version read (an ingestion at once wins, and the manifest is read again). The
 * blob before stays listed as the version's previous, deleted by the next change as usual.
 */

/** The organisation and workspace of a manifest, from its partition `WS#<org>#<ws>`. */
function workspaceOf(pk: string): { orgId: string; workspaceId: string } | undefined {
  const [prefix, orgId, workspaceId, ...rest] = pk.split('#');
  return prefix === 'WS' && orgId && workspaceId && rest.length === 0 ? { orgId, workspaceId } : undefined;
}

async function shardManifests(context: MigrationContext): Promise<void> {
  for await (const item of context.scan('manifests', everyUnshardedManifest())) {
    const where = workspaceOf(item.pk);
    const { version, blob, documents, passages, updated_at: updatedAt, previous_blob: previousBlob } = item;
    if (!where || typeof version !== 'number' || typeof blob !== 'string') {
      context.left();
      continue;
    }
    const shard = { prefix: '', blob, documents: Number(documents ?? 0), passages: Number(passages ?? 0) };
    const next = {
      version: version + 1,
      shards: [shard],
      previousBlobs: typeof previousBlob === 'string' ? [previousBlob] : [],
      documents: shard.documents,
      passages: shard.passages,
      updatedAt: typeof updatedAt === 'string' ? updatedAt : context.clock.now().toISOString(),
    };
    const move = manifestMove(where.orgId, where.workspaceId, next, version);
    // Moved meanwhile by an ingestion of this version: it wrote the new shape itself.
    if (await conditionHeld(context.table.put(move.item, move.write))) context.moved();
  }
}

export const shardedKnowledgeIndex: Migration = {
  version: 12,
  name: "a workspace's knowledge index is shards: each index of one blob becomes one shard",
  run: shardManifests,
};
