import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { indexManifestKey } from '../../shared/knowledge/documents/entities.js';
import { readManifest } from '../../shared/knowledge/search/index-store.js';
import { PassageIndex } from '../../shared/knowledge/search/passage-index.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Migration 012 on a table at version 11, whose workspace's knowledge index is one blob named by
 * its manifest (`blob`, `previous_blob`), as versions before wrote it. Afterwards the manifest lists
 * that blob as its one shard and the search finds the document; without the migration this version
 * reads no manifest and finds nothing (the test fails).
 */

const UP_TO_012 = MIGRATIONS.filter((migration) => migration.version <= 12);

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe('migration 012: the knowledge index is shards', () => {
  it('makes each index of one blob a manifest of one shard, which the search reads', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Sharded');
    const index = PassageIndex.empty();
    index.add('kd_old', [
      { document_id: 'kd_old', title: 'Parking', section: '', text: 'Visitors park on level -2 with a ticket.', position: 0 },
    ]);
    const blob = `knowledge/${orgId}/${workspaceId}/index/3-old.json.gz`;
    await t.deps.blobs.put(blob, index.toBytes());
    const asWrittenBefore = {
      ...indexManifestKey(orgId, workspaceId),
      version: 3,
      blob,
      previous_blob: `knowledge/${orgId}/${workspaceId}/index/2-old.json.gz`,
      documents: 1,
      passages: 1,
      updated_at: '2026-11-20T10:00:00.000Z',
    };
    await t.deps.table.put(asWrittenBefore);
    const search = () => t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=visitors`, { cookie });
    expect((await search()).body.passages).toEqual([]);

    await t.deps.table.put({ ...SCHEMA_MARKER, version: 11 });
    const report = await runMigrations(t.deps.table, UP_TO_012, { clock: t.clock });
    expect(report).toMatchObject({ from: 11, to: 12, moved: 1 });

    const manifest = await readManifest(t.deps, orgId, workspaceId, true);
    expect(manifest).toMatchObject({ version: 4, documents: 1, passages: 1, shards: [{ prefix: '', blob, documents: 1, passages: 1 }] });
    const stored = await t.deps.table.get(indexManifestKey(orgId, workspaceId), true);
    expect(stored?.previous_blobs).toEqual([asWrittenBefore.previous_blob]);
    const found = await search();
    expect(found.body.passages[0]).toMatchObject({ document_id: 'kd_old', title: 'Parking' });

    // Run again, nothing is left to move.
    await t.deps.table.put({ ...SCHEMA_MARKER, version: 11 });
    expect(await runMigrations(t.deps.table, UP_TO_012, { clock: t.clock })).toMatchObject({ moved: 0 });
  });
});
