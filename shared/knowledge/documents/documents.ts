import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { Deps } from '../../deps.js';
import type { StoredPassage } from '../search/passage-index.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { assertUrlAllowed, UrlRefusedError } from '../../platform/url-policy.js';
import { conditionHeld, onConditionFailed } from '../../platform/table.js';
import { type DocumentKind, kindOf } from '../ingest/kinds.js';
import { addWorkspaceCounters, getWorkspaceItem } from '../../workspaces/index.js';
import { knowledgeExists, knowledgeKey } from '../entities.js';
import {
  blobKeys,
  documentExists,
  documentKey,
  documentProgress,
  documentsOfWorkspace,
  type DocumentStatus,
  newDocumentItem,
} from './entities.js';

/*
 * A workspace's knowledge documents (docs/knowledge.md): an upload or a URL becomes a document
 * item (`queued`) and an ingestion job (`documents/ingest-job.ts`) that reads it, cuts it into
 * passages and adds them to the workspace's index. The upload itself is kept as a blob.
 */

export interface DocumentItem {
  pk: string;
  sk: string;
  id: string;
  org_id: string;
  workspace_id: string;
  title: string;
  /** What it was read as, once known. */
  kind?: DocumentKind;
  filename?: string;
  url?: string;
  bytes?: number;
  /** A knowledge entry's document (its id is the entry's). */
  entry?: boolean;
  /** For an entry's document: the digest of the entry's title and text its passages were read from. */
  entry_version?: string;
  status: DocumentStatus;
  error?: string | null;
  pages?: number;
  passages?: number;
  progress?: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A document as the API shows it. */
function toDocument(item: DocumentItem) {
  return {
    id: item.id,
    title: item.title,
    source: item.entry ? ('entry' as const) : item.url ? ('url' as const) : ('upload' as const),
    kind: item.kind ?? null,
    filename: item.filename ?? null,
    url: item.url ?? null,
    bytes: item.bytes ?? null,
    status: item.status,
    error: item.error ?? null,
    pages: item.pages ?? null,
    passages: item.passages ?? null,
    progress: item.progress ?? (item.status === 'ready' ? 100 : 0),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/**
 * The ingestion job of a document (its id is the job's idempotency key; an entry is read again at
 * each change, so each change's job has an id of its own: `change`).
 */
const ingestJob = (orgId: string, workspaceId: string, documentId: string, action: 'ingest' | 'remove', change?: string) => ({
  jobId: `knowledge-${action}-${documentId}${change ? `-${change}` : ''}`,
  queue: 'knowledge' as const,
  orgId,
  data: { workspace_id: workspaceId, document_id: documentId, action },
});

const titleOfFile = (filename: string) =>
  filename
    .replace(/\.[A-Za-z0-9]{1,8}$/, '')
    .trim()
    .slice(0, 200) || 'Untitled';

async function saveQueued(deps: Deps, item: DocumentItem) {
  await deps.table.put(item);
  await deps.jobs.enqueue(ingestJob(item.org_id, item.workspace_id, item.id, 'ingest'));
  return toDocument(item);
}

function newDocument(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  userId: string,
  fields: { title: string; kind?: DocumentKind; filename?: string; url?: string; bytes?: number },
): DocumentItem {
  const now = deps.clock.now();
  const id = newId('kd', now);
  const at = now.toISOString();
  return newDocumentItem({ orgId, workspaceId, id, createdBy: userId, at, ...fields }) as unknown as DocumentItem;
}

/** A file as it came: its bytes, its name and the media type it was sent with. */
export interface UploadedFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string | undefined;
}

/** What a file is read as; a file that is empty or of a kind the service does not read is 400. */
export function kindOfUpload(upload: UploadedFile): DocumentKind {
  if (upload.bytes.length === 0) throw new ValidationError('the file is empty', [{ path: 'file', message: 'must not be empty' }]);
  const kind = kindOf(upload.bytes, upload.filename, upload.contentType);
  if (!kind) {
    throw new ValidationError('this kind of file is not read', [
      { path: 'file', message: 'must be Markdown, plain text, HTML, PDF or DOCX' },
    ]);
  }
  return kind;
}

/** An uploaded file: kept as it came, then queued. A kind the service does not read is 415-like 400 before anything is written. */
export async function createUploadedDocument(deps: Deps, orgId: string, workspaceId: string, userId: string, upload: UploadedFile) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const kind = kindOfUpload(upload);
  const filename = upload.filename.slice(0, 200);
  const item = newDocument(deps, orgId, workspaceId, userId, { title: titleOfFile(filename), kind, filename, bytes: upload.bytes.length });
  await deps.blobs.put(blobKeys.source(orgId, workspaceId, item.id), upload.bytes);
  return saveQueued(deps, item);
}

/** A document at a URL: checked against the address policy now (and each redirect when it is fetched), then queued. */
export async function createUrlDocument(deps: Deps, orgId: string, workspaceId: string, userId: string, url: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  try {
    await assertUrlAllowed(url, deps.config.mcpAllowPrivateUrls);
  } catch (error) {
    if (error instanceof UrlRefusedError) throw new ValidationError('this URL is not allowed', [{ path: 'url', message: error.message }]);
    throw error;
  }
  const parsed = new URL(url);
  const title = (decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? '') || parsed.host).slice(0, 200);
  return saveQueued(deps, newDocument(deps, orgId, workspaceId, userId, { title: titleOfFile(title), url: parsed.href }));
}

/** Items of the workspace's documents, a page at a time (every page read: at most 10 000 documents a workspace). */
async function documentItems(deps: Deps, orgId: string, workspaceId: string): Promise<DocumentItem[]> {
  return deps.table.queryAll<DocumentItem>(documentsOfWorkspace(orgId, workspaceId));
}

export async function listDocuments(deps: Deps, orgId: string, workspaceId: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const items = await documentItems(deps, orgId, workspaceId);
  return items.reverse().map(toDocument);
}

export async function getDocument(deps: Deps, orgId: string, workspaceId: string, documentId: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const item = await deps.table.get<DocumentItem>(documentKey(orgId, workspaceId, documentId));
  if (!item) throw new NotFoundError(`document ${documentId} not found`);
  return toDocument(item);
}

/**
 * A document's passages as the index has them (any member: a citation opens its passage): its
 * title and status, and the passages in order, once it is read.
 */
export async function documentPassages(deps: Deps, orgId: string, workspaceId: string, documentId: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const item = await deps.table.get<DocumentItem>(documentKey(orgId, workspaceId, documentId));
  if (!item) throw new NotFoundError(`document ${documentId} not found`);
  const stored = item.status === 'ready' ? await deps.blobs.get(blobKeys.passages(orgId, workspaceId, documentId)) : undefined;
  const passages = stored ? (JSON.parse(gunzipSync(stored).toString('utf8')) as StoredPassage[]) : [];
  return {
    document: { id: item.id, title: item.title, status: item.status },
    passages: passages.map((passage) => ({
      position: passage.position,
      section: passage.section,
      text: passage.text,
      page: passage.page ?? null,
    })),
  };
}

/**
 * Deletes the document at once (it is no longer listed) and queues its passages' removal from the
 * index and its files'. An entry's document goes with its entry (entries.ts `deleteEntry`).
 */
export async function deleteDocument(deps: Deps, orgId: string, workspaceId: string, documentId: string): Promise<void> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const item = await deps.table.get<DocumentItem>(documentKey(orgId, workspaceId, documentId));
  if (item?.entry) return deleteEntry(deps, orgId, workspaceId, documentId);
  if (!(await removeDocument(deps, orgId, workspaceId, documentId))) throw new NotFoundError(`document ${documentId} not found`);
}

/**
 * Deletes a knowledge entry (404 when it is not there) and its document: the entry first, so a
 * failure between leaves a document whose next reading finds no entry and goes.
 */
export async function deleteEntry(deps: Deps, orgId: string, workspaceId: string, entryId: string): Promise<void> {
  await onConditionFailed(
    deps.table.delete(knowledgeKey(orgId, workspaceId, entryId), knowledgeExists()),
    () => new NotFoundError(`knowledge entry ${entryId} not found`),
  );
  await addWorkspaceCounters(deps, orgId, workspaceId, { knowledge_count: -1 });
  await removeDocument(deps, orgId, workspaceId, entryId);
}

/** Takes the document item away and queues its passages' and files' removal; false when it was not there. */
async function removeDocument(deps: Deps, orgId: string, workspaceId: string, documentId: string): Promise<boolean> {
  const removed = await conditionHeld(deps.table.delete(documentKey(orgId, workspaceId, documentId), documentExists()));
  if (removed) await deps.jobs.enqueue(ingestJob(orgId, workspaceId, documentId, 'remove'));
  return removed;
}

/** A new knowledge entry's document (its id is the entry's), queued to be read. */
export async function createEntryDocument(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  entry: { id: string; title: string; updated_at: string },
  createdBy: string,
): Promise<void> {
  const { item, job } = entryDocument(orgId, workspaceId, entry, createdBy);
  await deps.table.put(item);
  await deps.jobs.enqueue(job);
}

/**
 * A changed entry's document, queued to be read again, its title the entry's. The job reads the
 * entry as it is when it runs. (Every entry has its document: migration 011 made those of before.)
 */
export async function requeueEntryDocument(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  entry: { id: string; title: string; updated_at: string },
): Promise<void> {
  const changes = { status: 'queued' as const, error: null, progress: 0, title: entry.title };
  const { key, input } = documentProgress(orgId, workspaceId, entry.id, changes, entry.updated_at);
  // Deleted meanwhile (with its entry): nothing to read.
  if (await conditionHeld(deps.table.update(key, input))) await deps.jobs.enqueue(readEntryJob(orgId, workspaceId, entry.id));
}

/** The job that reads an entry as it is then: one per change, so its id is its own. */
const readEntryJob = (orgId: string, workspaceId: string, entryId: string) =>
  ingestJob(orgId, workspaceId, entryId, 'ingest', randomUUID());

/** A new entry's document item (`queued`) and the job that reads it (also migration 011's). */
export function entryDocument(
  orgId: string,
  workspaceId: string,
  entry: { id: string; title: string; updated_at: string },
  createdBy: string,
) {
  const fields = { orgId, workspaceId, id: entry.id, title: entry.title, kind: 'markdown' as const, entry: true, createdBy };
  return { item: newDocumentItem({ ...fields, at: entry.updated_at }), job: readEntryJob(orgId, workspaceId, entry.id) };
}
