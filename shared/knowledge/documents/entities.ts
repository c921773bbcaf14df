import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { PutItemCommand } from 'dynamodb-toolbox/entity/actions/put';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { number } from 'dynamodb-toolbox/schema/number';
import { list } from 'dynamodb-toolbox/schema/list';
import { map } from 'dynamodb-toolbox/schema/map';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../../platform/updates.js';
import { workspacePartition } from '../../workspaces/index.js';
import type { DocumentKind } from '../ingest/index.js';

/*
 * A workspace's knowledge documents (docs/knowledge.md, docs/data-model.md): one item each in a
 * partition of their own (the query never reads them), and the manifest of the workspace's passage
 * index in the workspace's partition, so a query learns whether there is knowledge to search, and
 * which version of the index, from the read it makes anyway. Files (the upload, its passages, the
 * index) are blobs (platform/blobs.ts), keyed under the organisation and the workspace.
 */

export const DOCUMENT_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const documentsPartition = (orgId: string, workspaceId: string) => `KDOC#${orgId}#${workspaceId}`;
const DOCUMENT_PREFIX = 'DOC#';

/** A knowledge document (`KDOC#<org>#<ws>` / `DOC#<id>`); ids are time-ordered, so the partition lists oldest first. */
export const documentKey = (orgId: string, workspaceId: string, documentId: string): Key => ({
  pk: documentsPartition(orgId, workspaceId),
  sk: `${DOCUMENT_PREFIX}${documentId}`,
});

/** The manifest of the workspace's passage index (`WS#<org>#<ws>` / `KINDEX`), read with the workspace. */
export const indexManifestKey = (orgId: string, workspaceId: string): Key => ({ pk: workspacePartition(orgId, workspaceId), sk: 'KINDEX' });

/** Whether an item of the workspace's partition is its passage index's manifest. */
export const isIndexManifest = (item: { sk: string }) => item.sk === 'KINDEX';

/** A document (its creation sets the first group; its ingestion changes the second). */
const documentEntity = tableEntity('knowledge-document', {
  id: string().optional(),
  org_id: string().optional(),
  workspace_id: string().optional(),
  filename: string().optional(),
  url: string().optional(),
  bytes: number().optional(),
  created_by: string().optional(),
  created_at: string().optional(),
  /** A knowledge entry's document (its id is the entry's): its text is the entry's, not a file. */
  entry: boolean().optional(),
  /** For an entry's document: the digest of the entry's title and text its passages were read from (ingest-job.ts). */
  entry_version: string().optional(),
  status: string().enum(...DOCUMENT_STATUSES),
  error: nullableString.optional(),
  title: string().optional(),
  kind: string().enum('markdown', 'text', 'html', 'pdf', 'docx').optional(),
  pages: number().optional(),
  passages: number().optional(),
  /** How far its ingestion is, 0–100 (shown as progress). */
  progress: number().optional(),
  updated_at: string(),
});

/** A change of a document's ingestion, if the document is still there. */
export function documentProgress(
  orgId: string,
  workspaceId: string,
  documentId: string,
  changes: {
    status: DocumentStatus;
    error?: string | null;
    title?: string;
    kind?: DocumentKind;
    pages?: number;
    passages?: number;
    progress?: number;
    entry_version?: string;
  },
  at: string,
) {
  const command = documentEntity
    .build(UpdateItemCommand)
    .item({ ...documentKey(orgId, workspaceId, documentId), ...changes, updated_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** The condition that a document is there (its delete is 404 otherwise). */
export const documentExists = () => conditionOf(documentEntity, { attr: 'pk', exists: true });

/** A new document, as its entity writes it (`queued`, nothing read yet). */
export function newDocumentItem(fields: {
  orgId: string;
  workspaceId: string;
  id: string;
  title: string;
  kind?: DocumentKind;
  filename?: string;
  url?: string;
  bytes?: number;
  /** A knowledge entry's document. */
  entry?: boolean;
  createdBy: string;
  at: string;
}): Key & Record<string, unknown> {
  const key = documentKey(fields.orgId, fields.workspaceId, fields.id);
  const { Item } = documentEntity
    .build(PutItemCommand)
    .item({
      ...key,
      id: fields.id,
      org_id: fields.orgId,
      workspace_id: fields.workspaceId,
      title: fields.title,
      kind: fields.kind,
      filename: fields.filename,
      url: fields.url,
      bytes: fields.bytes,
      entry: fields.entry,
      status: 'queued',
      created_by: fields.createdBy,
      created_at: fields.at,
      updated_at: fields.at,
    })
    .params();
  return { ...(Item as Record<string, unknown>), ...key };
}

/** A shard of the index as the manifest names it (search/sharded-index.ts). */
export interface ShardRef {
  /** The bits of its documents' ids' digests it holds ('' for all: the first shard). */
  prefix: string;
  /** The blob of its version. */
  blob: string;
  documents: number;
  passages: number;
}

/** A shard as the item keeps it: its prefix after an `s` (`s` for the first shard: no empty strings in the table). */
const shardAttributes = map({
  shard: string(),
  blob: string(),
  documents: number(),
  passages: number(),
});

/** The manifest of a workspace's passage index (`KINDEX`), as its version moves. */
const indexManifestEntity = tableEntity('knowledge-index', {
  version: number(),
  /** Every shard, at this version. */
  shards: list(shardAttributes),
  /** The blobs this version replaced, kept for searches that read the manifest a moment earlier; deleted by the next. */
  previous_blobs: list(string()).optional(),
  documents: number(),
  passages: number(),
  updated_at: string(),
});

/** Every manifest of a passage index of one blob, as versions before 12 wrote them: a scan's filter (migration 012). */
export const everyUnshardedManifest = () =>
  conditionOf(indexManifestEntity, {
    and: [
      { attr: 'pk', beginsWith: 'WS#' },
      { attr: 'sk', eq: 'KINDEX' },
      { attr: 'shards', exists: false },
    ],
  });

/** The shards of a manifest item; undefined when it is not one of this shape. */
export function shardsOf(item: Record<string, unknown>): ShardRef[] | undefined {
  if (!Array.isArray(item.shards)) return undefined;
  return (item.shards as { shard: string; blob: string; documents: number; passages: number }[]).map((stored) => ({
    prefix: stored.shard.slice(1),
    blob: stored.blob,
    documents: Number(stored.documents),
    passages: Number(stored.passages),
  }));
}

/**
 * The manifest at its next version, written only while it is still at `fromVersion` (0: none yet):
 * of two writers of one version, one wins.
 */
export function manifestMove(
  orgId: string,
  workspaceId: string,
  next: { version: number; shards: ShardRef[]; previousBlobs: string[]; documents: number; passages: number; updatedAt: string },
  fromVersion: number,
) {
  const key = indexManifestKey(orgId, workspaceId);
  const { Item } = indexManifestEntity
    .build(PutItemCommand)
    .item({
      ...key,
      version: next.version,
      shards: next.shards.map(({ prefix, blob, documents, passages }) => ({ shard: `s${prefix}`, blob, documents, passages })),
      previous_blobs: next.previousBlobs.length ? next.previousBlobs : undefined,
      documents: next.documents,
      passages: next.passages,
      updated_at: next.updatedAt,
    })
    .params();
  const write =
    fromVersion === 0
      ? conditionOf(indexManifestEntity, { attr: 'pk', exists: false })
      : conditionOf(indexManifestEntity, { attr: 'version', eq: fromVersion });
  return { item: { ...(Item as Record<string, unknown>), ...key }, write };
}

/**
 * A file on its way in (`KUPLOAD#<id>` / `UPLOAD`): where a client may send it and how large it
 * said it is, until it expires; kept (TTL) a day. Claimed, and so deleted, by the document made of
 * it. `token_hash` is the SHA-256 of the token the service's own upload route takes (never the
 * token); on AWS the file goes to S3 by a presigned POST instead.
 */
const uploadEntity = tableEntity('knowledge-upload', {
  id: string(),
  org_id: string(),
  workspace_id: string(),
  filename: string(),
  content_type: string().optional(),
  /** The file's size as the client said it: the most the upload takes. */
  bytes: number(),
  token_hash: string(),
  created_by: string(),
  expires_at: string(),
  ttl: number(),
});

export type UploadItem = FormattedItem<typeof uploadEntity>;

export const uploadKey = (uploadId: string): Key => ({ pk: `KUPLOAD#${uploadId}`, sk: 'UPLOAD' });

/** A new upload, as its entity writes it. */
export function newUploadItem(fields: Omit<UploadItem, 'pk' | 'sk'>): Key & Record<string, unknown> {
  const key = uploadKey(fields.id);
  const { Item } = uploadEntity
    .build(PutItemCommand)
    .item({ ...key, ...fields })
    .params();
  return { ...(Item as Record<string, unknown>), ...key };
}

/** The condition that an upload is still there and unexpired at `now`: of two claims, one wins. */
export const uploadUnclaimed = (now: string) =>
  conditionOf(uploadEntity, {
    and: [
      { attr: 'pk', exists: true },
      { attr: 'expires_at', gt: now },
    ],
  });

/** Where a workspace's files are (blob keys). */
export const blobKeys = {
  /** A file on its way in, until a document claims it (kept a day at most: lib/knowledge.ts). */
  upload: (orgId: string, workspaceId: string, uploadId: string) => `uploads/${orgId}/${workspaceId}/${uploadId}`,
  source: (orgId: string, workspaceId: string, documentId: string) => `knowledge/${orgId}/${workspaceId}/${documentId}/source`,
  passages: (orgId: string, workspaceId: string, documentId: string) => `knowledge/${orgId}/${workspaceId}/${documentId}/passages.json.gz`,
  /** A version of a shard of the index (`name`: the version, the shard's prefix and the writer's own uuid). */
  index: (orgId: string, workspaceId: string, name: string) => `knowledge/${orgId}/${workspaceId}/index/${name}.json.gz`,
};

// --- Access patterns ---

/** A workspace's documents, oldest first, a page at a time. */
export const documentsOfWorkspace = (orgId: string, workspaceId: string): QueryInput => ({
  pk: documentsPartition(orgId, workspaceId),
  sk: { beginsWith: DOCUMENT_PREFIX },
});
