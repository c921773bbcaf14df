import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { RunLaterError, type JobHandler } from '../../jobs/index.js';
import { errorMessage } from '../../platform/errors.js';
import { Slots } from '../../platform/slots.js';
import { conditionHeld } from '../../platform/table.js';
import { knowledgeKey } from '../entities.js';
import { type DocumentKind, DocumentRejectedError, kindOf, type ParsedDocument, parseDocument, passagesOf } from '../ingest/index.js';
import type { KnowledgeItem } from '../knowledge.js';
import { embedPassages, removeVectors } from '../search/embed.js';
import { changeIndex, IndexMovedError } from '../search/index-store.js';
import type { StoredPassage } from '../search/passage-index.js';
import type { DocumentItem } from './documents.js';
import { blobKeys, documentKey, documentProgress } from './entities.js';
import { fetchDocument } from './fetch-document.js';

/*
 * The `knowledge` queue's job: a document read, cut into passages and added to the workspace's
 * index (`ingest`), or a deleted document's passages and files taken away (`remove`). Both are
 * idempotent: a job delivered twice has one effect.
 */

const KnowledgeJobSchema = z.object({
  workspace_id: z.string(),
  document_id: z.string(),
  action: z.enum(['ingest', 'remove']),
});
type KnowledgeJob = z.infer<typeof KnowledgeJobSchema>;

/**
 * Documents read at once in this process: each is read in a worker of up to 256 MB
 * (ingest/read-in-worker.ts), so more would take the memory a jobs function or a laptop has.
 */
const reading = new Slots({ concurrency: 1 });

/** How often a change of the index is tried again in the job when another ingestion won its version, before the job waits. */
const INDEX_TRIES = 5;

async function setProgress(deps: Deps, orgId: string, data: KnowledgeJob, changes: Parameters<typeof documentProgress>[3]) {
  const { key, input } = documentProgress(orgId, data.workspace_id, data.document_id, changes, deps.clock.now().toISOString());
  return conditionHeld(deps.table.update(key, input));
}

/** Changes the index, tried again at once when another change won its version; past `INDEX_TRIES` the job waits a moment. */
async function changeIndexOf(deps: Deps, orgId: string, data: KnowledgeJob, change: Parameters<typeof changeIndex>[4]) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await changeIndex(deps, orgId, data.workspace_id, data.document_id, change);
    } catch (error) {
      if (!(error instanceof IndexMovedError)) throw error;
      if (attempt >= INDEX_TRIES) throw new RunLaterError(error.message, 500, { cause: error });
    }
  }
}

/** The document's bytes: fetched (and kept) for a URL, else the upload kept at its creation. */
async function sourceOf(deps: Deps, item: DocumentItem): Promise<{ bytes: Uint8Array; contentType?: string }> {
  const key = blobKeys.source(item.org_id, item.workspace_id, item.id);
  const kept = await deps.blobs.get(key);
  if (kept) return { bytes: kept };
  if (!item.url) throw new DocumentRejectedError('unreadable', 'the uploaded file is missing');
  const fetched = await fetchDocument(deps, item.url);
  await deps.blobs.put(key, fetched.bytes);
  return fetched;
}

async function ingest(deps: Deps, orgId: string, data: KnowledgeJob): Promise<void> {
  const item = await deps.table.get<DocumentItem>(documentKey(orgId, data.workspace_id, data.document_id), true);
  if (item?.entry) return ingestEntry(deps, orgId, data, item);
  if (!item || item.status === 'ready' || item.status === 'failed') return;
  await setProgress(deps, orgId, data, { status: 'processing', progress: 10 });
  const { bytes, contentType } = await sourceOf(deps, item);
  const kind = kindOf(bytes, item.filename ?? (item.url ? new URL(item.url).pathname : undefined), contentType);
  if (!kind) throw new DocumentRejectedError('unreadable', 'this kind of file is not read: give Markdown, plain text, HTML, PDF or DOCX');
  const parsed = await reading.run(() => parseDocument(bytes, kind));
  await setProgress(deps, orgId, data, { status: 'processing', progress: 50, pages: parsed.pages });
  const title = (item.url || item.title === 'Untitled') && parsed.title ? parsed.title.slice(0, 200) : item.title;
  await indexDocument(deps, orgId, data, { parsed, title, kind });
  // An HTML page is kept only as its text (the passages): its markup, scripts and all, goes once read.
  if (kind === 'html') await deps.blobs.delete(blobKeys.source(orgId, data.workspace_id, item.id));
}

/** The knowledge entry a document is of, as it is now. */
const entryOf = (deps: Deps, orgId: string, data: KnowledgeJob) =>
  deps.table.get<KnowledgeItem>(knowledgeKey(orgId, data.workspace_id, data.document_id), true);

/** What an entry's passages are read from, as a digest: the same title and text read again would give the same passages. */
const versionOf = (entry: { title: string; content: string } | undefined) =>
  entry ? createHash('sha256').update(`${entry.title}\u0000${entry.content}`).digest('base64url').slice(0, 22) : undefined;

/**
 * An entry's document: its text read as Markdown, as the entry is when the job runs. What was read
 * already is not read again; an entry changed meanwhile is left to the job of its change (the check
 * is made again as the index changes, so an older reading never replaces a newer).
 */
async function ingestEntry(deps: Deps, orgId: string, data: KnowledgeJob, item: DocumentItem): Promise<void> {
  const entry = await entryOf(deps, orgId, data);
  const version = versionOf(entry);
  if (!entry || !version || (item.status === 'ready' && item.entry_version === version)) return;
  await setProgress(deps, orgId, data, { status: 'processing', progress: 10 });
  const parsed = await reading.run(() => parseDocument(new TextEncoder().encode(entry.content), 'markdown'));
  const current = async () => versionOf(await entryOf(deps, orgId, data)) === version;
  await indexDocument(deps, orgId, data, { parsed, title: entry.title, kind: 'markdown', entryVersion: version, current });
}

/**
 * A read document's passages kept (the passage view reads them) and put in the workspace's index,
 * and the document marked ready. `current`: whether what was read is still the document's text,
 * asked as the index changes (an entry's: false leaves it to the job of its newer version).
 */
async function indexDocument(
  deps: Deps,
  orgId: string,
  data: KnowledgeJob,
  read: { parsed: ParsedDocument; title: string; kind: DocumentKind; entryVersion?: string; current?: () => Promise<boolean> },
): Promise<void> {
  const { parsed, title } = read;
  const passages: StoredPassage[] = passagesOf(parsed).map((passage) => ({
    document_id: data.document_id,
    title,
    section: passage.section,
    text: passage.text,
    position: passage.position,
    ...(passage.page === undefined ? {} : { page: passage.page }),
  }));
  await deps.blobs.put(blobKeys.passages(orgId, data.workspace_id, data.document_id), gzipSync(JSON.stringify(passages)));
  await setProgress(deps, orgId, data, { status: 'processing', progress: 70 });
  const embedded = await embedPassages(deps, orgId, data.workspace_id, data.document_id, passages);
  if (embedded) await setProgress(deps, orgId, data, { status: 'processing', progress: 85 });
  let stale = false;
  await changeIndexOf(deps, orgId, data, async (index) => {
    stale = read.current ? !(await read.current()) : false;
    if (stale) return false;
    index.add(data.document_id, passages, embedded);
    return true;
  });
  if (stale) return;
  const done = {
    status: 'ready' as const,
    progress: 100,
    passages: passages.length,
    pages: parsed.pages,
    title,
    kind: read.kind,
    ...(read.entryVersion ? { entry_version: read.entryVersion } : {}),
  };
  // Deleted meanwhile: its removal may have run before its passages were added, so they go now.
  if (!(await setProgress(deps, orgId, data, done))) await remove(deps, orgId, data);
}

async function remove(deps: Deps, orgId: string, data: KnowledgeJob): Promise<void> {
  // Before the index forgets how many passages it had: a job tried again then still finds them.
  await removeVectors(deps, orgId, data.workspace_id, data.document_id);
  await changeIndexOf(deps, orgId, data, (index) => {
    if (!index.has(data.document_id)) return false;
    index.remove(data.document_id);
    return true;
  });
  await deps.blobs.delete(blobKeys.passages(orgId, data.workspace_id, data.document_id));
  await deps.blobs.delete(blobKeys.source(orgId, data.workspace_id, data.document_id));
}

async function fail(deps: Deps, orgId: string, data: KnowledgeJob, reason: string) {
  await setProgress(deps, orgId, data, { status: 'failed', error: reason.slice(0, 500), progress: 0 });
}

/** The `knowledge` queue's handler. A document the readers refuse fails at once, with the reason; any other error is tried again. */
export const knowledgeJobHandler: JobHandler<KnowledgeJob> = {
  schema: KnowledgeJobSchema,
  async run(deps, data, job) {
    if (data.action === 'remove') return remove(deps, job.org_id, data);
    try {
      await ingest(deps, job.org_id, data);
    } catch (error) {
      if (!(error instanceof DocumentRejectedError)) throw error;
      await fail(deps, job.org_id, data, error.message);
    }
  },
  async onFailed(deps, data, job, error) {
    if (data.action === 'ingest') await fail(deps, job.org_id, data, `could not be read: ${errorMessage(error)}`);
  },
};
