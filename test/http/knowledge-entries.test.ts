import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../migrations/index.js';
import { documentKey } from '../../shared/knowledge/documents/entities.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * A knowledge entry is a knowledge document of its own (CONTRACT, "Knowledge documents and
 * search"): its id is the document's, it is read into passages and found by the same search,
 * a change is read again, and deleting either deletes both. Migration 011 makes the document of
 * every entry written before.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

async function workspaceOf() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Entries ${t.uniqueEmail('ws')}` });
  return { admin, workspaceId: workspace.id as string };
}

async function search(cookie: string, workspaceId: string, q: string) {
  const found = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/search?q=${encodeURIComponent(q)}`, { cookie });
  expect(found.status, found.text).toBe(200);
  return found.body.passages as { document_id: string; title: string; text: string }[];
}

async function documents(cookie: string, workspaceId: string) {
  const listed = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie });
  expect(listed.status, listed.text).toBe(200);
  return listed.body.documents as Record<string, unknown>[];
}

async function addEntry(cookie: string, workspaceId: string, title: string, content: string) {
  const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge`, { cookie, body: { title, content } });
  expect(created.status, created.text).toBe(201);
  return created.body.knowledge as { id: string };
}

describe('knowledge entries as documents', () => {
  it('reads an entry into passages under its own id, found and opened like any document', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const entry = await addEntry(admin.cookie, workspaceId, 'Parking', 'Visitors park on level -2 and show their badge at the gate.');
    await t.runner.idle();

    const [document] = await documents(admin.cookie, workspaceId);
    expect(document).toMatchObject({ id: entry.id, title: 'Parking', source: 'entry', kind: 'markdown', status: 'ready', passages: 1 });
    const [found] = await search(admin.cookie, workspaceId, 'where do visitors park');
    expect(found).toMatchObject({ document_id: entry.id, title: 'Parking' });
    expect(found?.text).toContain('level -2');

    const opened = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge/documents/${entry.id}/passages`, {
      cookie: admin.cookie,
    });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.passages[0].text).toContain('show their badge');
  });

  it('reads a changed entry again: the new text is found, the old one no longer', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const entry = await addEntry(admin.cookie, workspaceId, 'Office hours', 'The office opens at eight on weekdays.');
    await t.runner.idle();
    const changed = await t.request('PUT', `/api/workspaces/${workspaceId}/knowledge/${entry.id}`, {
      cookie: admin.cookie,
      body: { title: 'Opening hours', content: 'The office opens at nine, Saturdays included.' },
    });
    expect(changed.status, changed.text).toBe(200);
    // Queued again at once (its reading may have begun already), then read.
    const requeued = (await documents(admin.cookie, workspaceId))[0];
    expect(requeued).toMatchObject({ id: entry.id, title: 'Opening hours' });
    expect(['queued', 'processing']).toContain(requeued?.status);
    await t.runner.idle();

    expect((await documents(admin.cookie, workspaceId))[0]).toMatchObject({ id: entry.id, status: 'ready', title: 'Opening hours' });
    const found = await search(admin.cookie, workspaceId, 'saturdays');
    expect(found.map((passage) => passage.document_id)).toEqual([entry.id]);
    expect(found[0]?.title).toBe('Opening hours');
    expect(await search(admin.cookie, workspaceId, 'weekdays eight')).toEqual([]);
  });

  it('ends with the last change of an entry changed twice before any reading ran', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const entry = await addEntry(admin.cookie, workspaceId, 'Lunch', 'Lunch is served in the canteen.');
    // Changed twice before any reading runs: two jobs, each reading the entry as it is then.
    for (const content of ['Lunch is served on the terrace.', 'Lunch is served in the garden pavilion.']) {
      const changed = await t.request('PUT', `/api/workspaces/${workspaceId}/knowledge/${entry.id}`, {
        cookie: admin.cookie,
        body: { content },
      });
      expect(changed.status, changed.text).toBe(200);
    }
    await t.runner.idle();
    expect((await search(admin.cookie, workspaceId, 'lunch served'))[0]?.text).toContain('garden pavilion');
    expect(await search(admin.cookie, workspaceId, 'terrace')).toEqual([]);
    expect(await search(admin.cookie, workspaceId, 'canteen')).toEqual([]);
  });

  it('deletes the entry with its document, whichever is deleted', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const byDocument = await addEntry(admin.cookie, workspaceId, 'Printer', 'The printer is on the third floor.');
    const byEntry = await addEntry(admin.cookie, workspaceId, 'Coffee', 'Coffee machines are in every kitchen.');
    await t.runner.idle();

    const viaDocuments = await t.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/documents/${byDocument.id}`, {
      cookie: admin.cookie,
    });
    expect(viaDocuments.status, viaDocuments.text).toBe(200);
    const viaEntries = await t.request('DELETE', `/api/workspaces/${workspaceId}/knowledge/${byEntry.id}`, { cookie: admin.cookie });
    expect(viaEntries.status, viaEntries.text).toBe(200);
    await t.runner.idle();

    expect(await documents(admin.cookie, workspaceId)).toEqual([]);
    const knowledge = await t.request('GET', `/api/workspaces/${workspaceId}/knowledge`, { cookie: admin.cookie });
    expect(knowledge.body.knowledge).toEqual([]);
    const listed = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(listed.body.workspaces.find((workspace: { id: string }) => workspace.id === workspaceId).knowledge_count).toBe(0);
    expect(await search(admin.cookie, workspaceId, 'printer third floor coffee kitchen')).toEqual([]);
    // Gone, both ways.
    for (const path of [`knowledge/documents/${byEntry.id}`, `knowledge/${byDocument.id}`]) {
      const again = await t.request('DELETE', `/api/workspaces/${workspaceId}/${path}`, { cookie: admin.cookie });
      expect(again.status, again.text).toBe(404);
    }
  });

  it('migration 011 gives every entry written before its document, and reads it', async () => {
    const { admin, workspaceId } = await workspaceOf();
    const orgId = admin.org.id as string;
    // An entry as the version before wrote it: no document, nothing indexed.
    const id = 'kn-written-before';
    const before = { id, title: 'Badges', content: 'Lost badges are replaced at the front desk.', at: '2026-11-01T00:00:00.000Z' };
    await t.deps.table.put({
      pk: `WS#${orgId}#${workspaceId}`,
      sk: `KNOW#${id}`,
      id,
      title: before.title,
      content: before.content,
      created_at: before.at,
      updated_at: before.at,
    });
    expect(await t.deps.table.get(documentKey(orgId, workspaceId, id), true)).toBeUndefined();
    expect(await search(admin.cookie, workspaceId, 'lost badges')).toEqual([]);

    await t.deps.table.put({ ...SCHEMA_MARKER, version: 10 });
    const report = await runMigrations(
      t.deps.table,
      MIGRATIONS.filter((migration) => migration.version <= 11),
      { clock: t.clock },
    );
    expect(report).toMatchObject({ from: 10, to: 11 });
    expect(report.moved).toBeGreaterThanOrEqual(1);
    // The job is in the ledger, where the local runtime's start finds it.
    expect(await t.runner.resumePending()).toBeGreaterThanOrEqual(1);
    await t.runner.idle();

    expect(await documents(admin.cookie, workspaceId)).toMatchObject([{ id, source: 'entry', status: 'ready', title: 'Badges' }]);
    expect((await search(admin.cookie, workspaceId, 'lost badges'))[0]?.document_id).toBe(id);
  });
});
