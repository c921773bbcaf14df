import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readManifest } from '../../shared/knowledge/search/index-store.js';
import { PassageIndex } from '../../shared/knowledge/search/passage-index.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { S3VectorStore } from '../../shared/platform/vectors-s3.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js';
import { startFakeS3Vectors, type FakeS3Vectors } from '../support/fake-s3vectors.js';

/*
 * Hybrid retrieval (docs/knowledge.md, "Embeddings"): with an OpenAI-compatible embedding provider
 * configured, passages are embedded at ingestion, kept in the workspace's index (the local
 * runtime's embedded vector store), and a search fuses full text with the question's nearest
 * passages by reciprocal rank fusion. The provider is a faithful fake API on loopback whose model
 * knows a few synonyms; the same documents in a service without a provider are the control.
 */

const KEY = 'sk-test-embeddings-key';
let embeddings: FakeEmbeddings;
let hybrid: TestContext;
let plain: TestContext;
let s3vectors: FakeS3Vectors;
let onS3: TestContext;

beforeAll(async () => {
  embeddings = await startFakeEmbeddings({ apiKey: KEY });
  s3vectors = await startFakeS3Vectors();
  const env = { EMBEDDINGS_BASE_URL: embeddings.baseUrl, EMBEDDINGS_API_KEY: KEY, EMBEDDINGS_MODEL: 'fake-embed-1' };
  hybrid = await createTestContext({ env });
  plain = await createTestContext();
  // As on AWS: the vectors in S3 Vectors (the real SDK against a fake of its API), not in the index.
  const vectors = new S3VectorStore('arn:aws:s3vectors:eu-west-1:123456789012:bucket/test-vectors', {
    endpoint: s3vectors.endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  onS3 = await createTestContext({ env, vectors });
});
afterAll(async () => {
  await Promise.all([hybrid.close(), plain.close(), onS3.close()]);
  await embeddings.close();
  await s3vectors.close();
});

const ENTRIES = [
  ['Health services', 'Book an appointment with the company physician through the health portal, any weekday morning.'],
  ['Parking', 'Visitors park on level -2 and show their badge at the gate.'],
  ['Expenses', 'Claim travel expenses within thirty days, with the receipts attached to the claim.'],
  ['Equipment', 'A broken workstation is swapped by the IT desk on the third floor within a day.'],
];

async function workspaceWithEntries(t: TestContext) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Hybrid ${t.uniqueEmail('ws')}` });
  const ids: Record<string, string> = {};
  for (const [title, content] of ENTRIES) {
    const created = await t.request('POST', `/api/workspaces/${workspace.id}/knowledge`, {
      cookie: admin.cookie,
      body: { title, content },
    });
    expect(created.status, created.text).toBe(201);
    ids[title as string] = created.body.knowledge.id;
  }
  await t.runner.idle();
  return { admin, workspaceId: workspace.id as string, ids };
}

async function search(t: TestContext, cookie: string, workspaceId: string, q: string) {
  const found = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=${encodeURIComponent(q)}&limit=3`, { cookie });
  expect(found.status, found.text).toBe(200);
  return found.body.passages as { document_id: string; title: string; section: string; text: string; score: number }[];
}

describe('hybrid knowledge search', () => {
  it('finds by meaning what full text misses: "doctor" finds the physician', async () => {
    const withVectors = await workspaceWithEntries(hybrid);
    const [best] = await search(hybrid, withVectors.admin.cookie, withVectors.workspaceId, 'doctor');
    expect(best).toMatchObject({ document_id: withVectors.ids['Health services'], title: 'Health services' });
    expect(Object.keys(best ?? {}).sort()).toEqual(['document_id', 'score', 'section', 'text', 'title']);

    // The control: full text alone finds no passage with that word.
    const control = await workspaceWithEntries(plain);
    const found = await search(plain, control.admin.cookie, control.workspaceId, 'doctor');
    expect(found.map((passage) => passage.document_id)).not.toContain(control.ids['Health services']);
  });

  it('embeds each passage with its title, asks with the configured model and key, and keeps the vectors in the index', async () => {
    const before = embeddings.requests.length;
    const { admin, workspaceId, ids } = await workspaceWithEntries(hybrid);
    const sent = embeddings.requests.slice(before);
    expect(sent.every((request) => request.model === 'fake-embed-1' && request.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(sent.flatMap((request) => request.input)).toContainEqual(expect.stringMatching(/^Parking\n\nVisitors park on level -2/));

    const manifest = await readManifest(hybrid.deps, admin.org.id, workspaceId, true);
    expect(manifest).toBeDefined();
    const index = PassageIndex.fromBytes((await hybrid.deps.blobs.get(manifest?.shards[0]?.blob ?? '')) as Uint8Array);
    const space = hybrid.deps.embedder?.space as string;
    expect(index.vectors.documentsIn(space)).toBe(ENTRIES.length);
    expect(index.vectors.has(space, ids.Parking as string)).toBe(true);
  });

  it('ranks by full text alone, and says so in the log, while the provider fails', async () => {
    const { admin, workspaceId, ids } = await workspaceWithEntries(hybrid);
    embeddings.failNext(3); // the first try and the SDK's two retries
    const found = await search(hybrid, admin.cookie, workspaceId, 'where do visitors park');
    expect(found[0]?.document_id).toBe(ids.Parking);
    expect(hybrid.logger.records.some((record) => record.level === 'warn' && /ranked by full text alone/.test(record.message))).toBe(true);
  });

  it('retries a document whose embedding failed, and it becomes ready once the provider answers', async () => {
    const admin = await hybrid.signUp();
    const workspace = await hybrid.createWorkspace(admin.cookie, { name: `Retry ${hybrid.uniqueEmail('ws')}` });
    embeddings.failNext(3);
    const created = await hybrid.request('POST', `/api/workspaces/${workspace.id}/knowledge`, {
      cookie: admin.cookie,
      body: { title: 'Leave', content: 'Ask your manager for vacation two weeks ahead.' },
    });
    expect(created.status, created.text).toBe(201);
    // The job's first attempt fails; the queue tries it again a moment later (JOB_RETRY_BASE_MS).
    await vi.waitFor(
      async () => {
        await hybrid.runner.idle();
        const path = `/api/workspaces/${workspace.id}/knowledge/documents/${created.body.knowledge.id}`;
        const document = await hybrid.request('GET', path, { cookie: admin.cookie });
        expect(document.body.document).toMatchObject({ status: 'ready', passages: 1 });
      },
      { timeout: 15_000, interval: 200 },
    );
    const [best] = await search(hybrid, admin.cookie, workspace.id, 'how much holiday do I get');
    expect(best?.title).toBe('Leave');
  });

  it('forgets a deleted document’s vectors with its passages', async () => {
    const { admin, workspaceId, ids } = await workspaceWithEntries(hybrid);
    const deleted = await hybrid.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/${ids['Health services']}`, {
      cookie: admin.cookie,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await hybrid.runner.idle();
    const found = await search(hybrid, admin.cookie, workspaceId, 'doctor');
    expect(found.map((passage) => passage.document_id)).not.toContain(ids['Health services']);
    // The vectors themselves are gone from the stored index, not only unreachable through its passages.
    const manifest = await readManifest(hybrid.deps, admin.org.id, workspaceId, true);
    const index = PassageIndex.fromBytes((await hybrid.deps.blobs.get(manifest?.shards[0]?.blob ?? '')) as Uint8Array);
    const space = hybrid.deps.embedder?.space as string;
    expect(index.vectors.has(space, ids['Health services'] as string)).toBe(false);
    expect(index.vectors.documentsIn(space)).toBe(ENTRIES.length - 1);
  });
});

describe('hybrid knowledge search with the vectors in S3 Vectors (AWS)', () => {
  it('puts each passage vector in an index of the workspace, finds by meaning, and deletes them with the document', async () => {
    const { admin, workspaceId, ids } = await workspaceWithEntries(onS3);
    const [best] = await search(onS3, admin.cookie, workspaceId, 'doctor');
    expect(best?.document_id).toBe(ids['Health services']);
    const workspaceIndexes = [...s3vectors.indexes.values()].filter((index) =>
      [...index.vectors.keys()].some((key) => key.startsWith(ids.Parking as string)),
    );
    expect(workspaceIndexes).toHaveLength(1);
    expect(workspaceIndexes[0]?.vectors.size).toBe(ENTRIES.length);
    expect(workspaceIndexes[0]?.dimension).toBe(64);

    // The index keeps which documents have vectors, not the vectors.
    const manifest = await readManifest(onS3.deps, admin.org.id, workspaceId, true);
    const stored = PassageIndex.fromBytes((await onS3.deps.blobs.get(manifest?.shards[0]?.blob ?? '')) as Uint8Array).vectors.toStored();
    expect(Object.values(stored?.documents ?? {})).toEqual([null, null, null, null]);

    const deleted = await onS3.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/${ids['Health services']}`, {
      cookie: admin.cookie,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await onS3.runner.idle();
    expect(workspaceIndexes[0]?.vectors.size).toBe(ENTRIES.length - 1);
    expect(await search(onS3, admin.cookie, workspaceId, 'doctor')).toEqual([]);
  });

  it('gives another workspace an index of its own', async () => {
    const first = await workspaceWithEntries(onS3);
    const before = s3vectors.indexes.size;
    const second = await workspaceWithEntries(onS3);
    expect(s3vectors.indexes.size).toBe(before + 1);
    const [best] = await search(onS3, second.admin.cookie, second.workspaceId, 'doctor');
    expect(best?.document_id).toBe(second.ids['Health services']);
    expect(best?.document_id).not.toBe(first.ids['Health services']);
  });
});
