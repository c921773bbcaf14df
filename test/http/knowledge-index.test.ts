import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeIndex, IndexMovedError, loadIndex, readManifest } from '../../shared/knowledge/search/index-store.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * The workspace's passage index as it changes (shared/knowledge/search/index-store.ts): one
 * version at a time, moved by a conditional write, never left pointing at a blob that is gone.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const passage = (documentId: string, text: string) => ({ document_id: documentId, title: 'Doc', section: '', text, position: 0 });

describe('the knowledge index', () => {
  it('of two changes made at once, one wins and the other is told to try again on the new version; none is lost', async () => {
    const org = `org_${t.uniqueEmail('x').split('@')[0]}`;
    const first = changeIndex(t.deps, org, 'ws-a', (index) => {
      index.add('kd_1', [passage('kd_1', 'parcels leave at noon')]);
      return true;
    });
    const second = changeIndex(t.deps, org, 'ws-a', (index) => {
      index.add('kd_2', [passage('kd_2', 'refunds take five days')]);
      return true;
    });
    const outcomes = await Promise.allSettled([first, second]);
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(IndexMovedError);
    // Tried again, as the job does, on the version the winner wrote.
    await changeIndex(t.deps, org, 'ws-a', (index) => {
      index.add('kd_2', [passage('kd_2', 'refunds take five days')]);
      index.add('kd_1', [passage('kd_1', 'parcels leave at noon')]);
      return true;
    });
    const manifest = await readManifest(t.deps, org, 'ws-a', true);
    expect(manifest).toMatchObject({ version: 2, documents: 2, passages: 2 });
    const index = await loadIndex(t.deps, org, 'ws-a', manifest);
    expect(index.query('refunds', 5).map((found) => found.document_id)).toEqual(['kd_2']);
  });

  it('keeps the blob of a manifest whose write was made but whose answer was lost (the retry fails its condition)', async () => {
    const org = `org_${t.uniqueEmail('y').split('@')[0]}`;
    const table = t.deps.table;
    const put = table.put.bind(table);
    // The store makes the write, then the SDK's retry of it fails its condition.
    table.put = async (item, write) => {
      await put(item, write);
      throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    };
    try {
      await changeIndex(t.deps, org, 'ws-b', (index) => {
        index.add('kd_1', [passage('kd_1', 'parcels leave at noon')]);
        return true;
      });
    } finally {
      table.put = put;
    }
    const manifest = await readManifest(t.deps, org, 'ws-b', true);
    expect(manifest?.version).toBe(1);
    expect(await t.deps.blobs.get(manifest?.blob ?? '')).toBeDefined();
    const index = await loadIndex(t.deps, org, 'ws-b', manifest);
    expect(index.query('parcels', 5)).toHaveLength(1);
  });
});
