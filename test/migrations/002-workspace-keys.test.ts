import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceKeys } from '../../migrations/002-workspace-keys.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import type { Item } from '../../shared/platform/table.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Migration 002 stopped half-way and run again: it learns each workspace's organisation from the
 * workspace items, which a run before may have read in part or moved already. Every item of a
 * workspace is moved under its own organisation all the same, and none is left behind. (The whole
 * migration on a real workspace: test/http/workspace-ids.test.ts.)
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

/** Runs 002 on a table at version 1 whose marker holds `cursors` (the positions a stopped run saved). */
async function migrate(cursors?: Record<string, Record<string, unknown>>) {
  await t.deps.table.put({ ...SCHEMA_MARKER, version: 1, ...(cursors ? { cursors } : {}) });
  return runMigrations(t.deps.table, [workspaceKeys], { clock: t.clock });
}

describe('migration 002: workspace keys, run again after a stop', () => {
  it('reads every workspace item again when a run stopped while reading them', async () => {
    const orgId = 'org_resumedread';
    const workspaceId = 'ws-resumed-read';
    const meta = { pk: `WS#${workspaceId}`, sk: 'META', id: workspaceId, org_id: orgId };
    const conversation = { pk: `CONV#${workspaceId}#c1`, sk: 'META', id: 'c1', org_id: orgId };
    await t.deps.table.batchPut([meta, conversation]);

    // The run before saved its position at this workspace item: a scan goes on after it.
    const report = await migrate({ '2:workspaces': { pk: meta.pk, sk: meta.sk } });

    expect(report).toMatchObject({ to: 2, left: 0 });
    expect(await t.deps.table.get({ pk: `WS#${orgId}#${workspaceId}`, sk: 'META' })).toMatchObject({ id: workspaceId });
    expect(await t.deps.table.get({ pk: `CONV#${orgId}#${workspaceId}#c1`, sk: 'META' })).toMatchObject({ id: 'c1' });
    expect(await t.deps.table.get({ pk: conversation.pk, sk: conversation.sk })).toBeUndefined();
  });

  it('moves the rest of a workspace whose workspace item a run before moved already', async () => {
    const orgId = 'org_resumedmove';
    const workspaceId = 'ws-resumed-move';
    // Moved by the run that stopped; its knowledge was not yet.
    await t.deps.table.put({ pk: `WS#${orgId}#${workspaceId}`, sk: 'META', id: workspaceId, org_id: orgId });
    await t.deps.table.put({ pk: `WS#${workspaceId}`, sk: 'KB#k1', id: 'k1' });

    expect(await migrate()).toMatchObject({ to: 2, left: 0 });

    expect(await t.deps.table.get({ pk: `WS#${orgId}#${workspaceId}`, sk: 'KB#k1' })).toMatchObject({ id: 'k1' });
    expect(await t.deps.table.get({ pk: `WS#${workspaceId}`, sk: 'KB#k1' })).toBeUndefined();
  });

  it('moves no item under either organisation when two organisations hold a workspace of its id', async () => {
    const workspaceId = 'ws-twice-held';
    const items: Item[] = [
      { pk: `WS#org_holdera#${workspaceId}`, sk: 'META', id: workspaceId, org_id: 'org_holdera' },
      { pk: `WS#org_holderb#${workspaceId}`, sk: 'META', id: workspaceId, org_id: 'org_holderb' },
      { pk: `WS#${workspaceId}`, sk: 'KB#k2', id: 'k2' },
    ];
    await t.deps.table.batchPut(items);

    expect(await migrate()).toMatchObject({ left: 1 });

    expect(await t.deps.table.get({ pk: `WS#${workspaceId}`, sk: 'KB#k2' })).toMatchObject({ id: 'k2' });
    expect(await t.deps.table.get({ pk: `WS#org_holdera#${workspaceId}`, sk: 'KB#k2' })).toBeUndefined();
    expect(await t.deps.table.get({ pk: `WS#org_holderb#${workspaceId}`, sk: 'KB#k2' })).toBeUndefined();
    // Left for a person to settle: out of the other tests' runs.
    await t.deps.table.delete({ pk: `WS#${workspaceId}`, sk: 'KB#k2' });
  });
});
