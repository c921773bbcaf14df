import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeIndex, IndexMovedError, loadIndex, readManifest } from '../../shared/knowledge/search/index-store.js';
import { PassageIndex } from '../../shared/knowledge/search/passage-index.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * The workspace's passage index as it changes (shared/knowledge/search/index-store.ts): one
 * version at a time, moved by a conditional write, never left pointing at a blob that is gone; and
 * as shards (sharded-index.ts) once it grows: a change writes its document's shard only, whatever
 * the workspace's size, and a search still finds every document.
 */

let t: TestContext;
/** Shards of at most 100 passages (the least allowed), so a test of a few hundred passages has several. */
let sharded: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  sharded = await createTestContext({ env: { KNOWLEDGE_SHARD_PASSAGES: '100' } });
});
afterAll(async () => {
  await t.close();
  await sharded.close();
});

const passage = (documentId: string, text: string, position = 0) => ({
  document_id: documentId,
  title: 'Doc',
  section: '',
  text,
  position,
});

/** Made-up words, one per document, that no other document has. */
const wordOf = (n: number) => `zq${n.toString(36)}vex`;

/** Document `n`: five passages, the first with its own word. */
const documentOf = (n: number) =>
  [0, 1, 2, 3, 4].map((position) =>
    passage(
      `kd_${n}`,
      position === 0 ? `the parcel ${wordOf(n)} leaves the depot at noon` : `shipping note ${position} of document ${n}`,
      position,
    ),
  );

describe('the knowledge index', () => {
  it('of two changes made at once, one wins and the other is told to try again on the new version; none is lost', async () => {
    const org = `org_${t.uniqueEmail('x').split('@')[0]}`;
    const first = changeIndex(t.deps, org, 'ws-a', 'kd_1', (index) => {
      index.add('kd_1', [passage('kd_1', 'parcels leave at noon')]);
      return true;
    });
    const second = changeIndex(t.deps, org, 'ws-a', 'kd_2', (index) => {
      index.add('kd_2', [passage('kd_2', 'refunds take five days')]);
      return true;
    });
    const outcomes = await Promise.allSettled([first, second]);
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(IndexMovedError);
    // Tried again, as the job does, on the version the winner wrote.
    const again = outcomes[0]?.status === 'rejected' ? 'kd_1' : 'kd_2';
    await changeIndex(t.deps, org, 'ws-a', again, (index) => {
      index.add(again, [passage(again, again === 'kd_1' ? 'parcels leave at noon' : 'refunds take five days')]);
      return true;
    });
    const manifest = await readManifest(t.deps, org, 'ws-a', true);
    expect(manifest).toMatchObject({ version: 2, documents: 2, passages: 2 });
    const index = await loadIndex(t.deps, manifest);
    expect(index.query('refunds', 5).map((found) => found.document_id)).toEqual(['kd_2']);
    expect(index.query('parcels', 5).map((found) => found.document_id)).toEqual(['kd_1']);
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
      await changeIndex(t.deps, org, 'ws-b', 'kd_1', (index) => {
        index.add('kd_1', [passage('kd_1', 'parcels leave at noon')]);
        return true;
      });
    } finally {
      table.put = put;
    }
    const manifest = await readManifest(t.deps, org, 'ws-b', true);
    expect(manifest?.version).toBe(1);
    expect(await t.deps.blobs.get(manifest?.shards[0]?.blob ?? '')).toBeDefined();
    const index = await loadIndex(t.deps, manifest);
    expect(index.query('parcels', 5)).toHaveLength(1);
  });
});

describe('the knowledge index in shards', () => {
  const org = 'org_shards';
  const documents = 80;

  /** Blob writes of the index, counted as the store takes them. */
  const indexWrites: string[] = [];

  beforeAll(async () => {
    const blobs = sharded.deps.blobs;
    const put = blobs.put.bind(blobs);
    blobs.put = async (key, bytes) => {
      if (key.includes('/index/')) indexWrites.push(key);
      return put(key, bytes);
    };
    for (let n = 0; n < documents; n += 1) {
      await changeIndex(sharded.deps, org, 'ws-big', `kd_${n}`, (index) => {
        index.add(`kd_${n}`, documentOf(n));
        return true;
      });
    }
  });

  it('splits past its limit into shards of at most that many passages, and a change writes only its own shard', async () => {
    const manifest = await readManifest(sharded.deps, org, 'ws-big', true);
    expect(manifest).toMatchObject({ version: documents, documents, passages: documents * 5 });
    const shards = manifest?.shards ?? [];
    expect(shards.length).toBeGreaterThanOrEqual(4);
    expect(shards.every((shard) => shard.passages <= 100 && shard.passages > 0)).toBe(true);
    expect(shards.reduce((sum, shard) => sum + shard.passages, 0)).toBe(documents * 5);
    // Prefixes cover every id once: none is the beginning of another.
    for (const a of shards) for (const b of shards) if (a !== b) expect(b.prefix.startsWith(a.prefix)).toBe(false);
    // One blob a change, two at a split: far fewer than a shard per change.
    expect(indexWrites.length).toBeLessThan(documents + 2 * shards.length);
    // The blobs the changes replaced are gone but for the last change's (kept for searches a moment behind).
    const stored = await Promise.all(indexWrites.map(async (key) => ((await sharded.deps.blobs.get(key)) ? key : undefined)));
    expect(stored.filter(Boolean).length).toBeLessThanOrEqual(shards.length + 2);
  });

  it('finds every document through all its shards, as one index of them all ranks it', async () => {
    const index = await loadIndex(sharded.deps, await readManifest(sharded.deps, org, 'ws-big', true));
    expect(index.passages).toBe(documents * 5);
    const whole = PassageIndex.empty();
    for (let n = 0; n < documents; n += 1) whole.add(`kd_${n}`, documentOf(n));
    for (const n of [0, 17, 42, documents - 1]) {
      const [best] = index.query(`when does parcel ${wordOf(n)} leave`, 3);
      expect(best).toMatchObject({ document_id: `kd_${n}`, position: 0 });
      expect(whole.query(`when does parcel ${wordOf(n)} leave`, 1)[0]?.document_id).toBe(best?.document_id);
    }
    expect(index.passage('kd_42', 0)?.text).toContain(wordOf(42));
  });

  it('removes a document from its own shard only, and it is no longer found', async () => {
    const before = await readManifest(sharded.deps, org, 'ws-big', true);
    await changeIndex(sharded.deps, org, 'ws-big', 'kd_17', (index) => {
      index.remove('kd_17');
      return true;
    });
    const after = await readManifest(sharded.deps, org, 'ws-big', true);
    expect(after).toMatchObject({ documents: documents - 1, passages: (documents - 1) * 5 });
    const changedShards = after?.shards.filter((shard) => !before?.shards.some((old) => old.blob === shard.blob)) ?? [];
    expect(changedShards).toHaveLength(1);
    const index = await loadIndex(sharded.deps, after);
    expect(index.has('kd_17')).toBe(false);
    expect(index.query(`parcel ${wordOf(17)}`, 5).map((found) => found.document_id)).not.toContain('kd_17');
    expect(index.query(`parcel ${wordOf(18)}`, 1)[0]?.document_id).toBe('kd_18');
  });
});
