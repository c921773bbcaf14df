import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { conditionHeld } from '../../platform/table.js';
import { getWorkspaceItem } from '../../workspaces/index.js';
import { createUploadedDocument, kindOfUpload } from './documents.js';
import { blobKeys, newUploadItem, type UploadItem, uploadKey, uploadUnclaimed } from './entities.js';
import { FORM_BYTES, MAX_DOCUMENT_BYTES, TOO_LARGE } from './limits.js';

/*
 * Files sent straight to the store (docs/knowledge.md, "Large files"): a Lambda request body is at
 * most 6 MB, so on AWS a document of up to 20 MB cannot pass through the API. The client asks for
 * an upload (`POST …/knowledge/uploads`, with the file's name and size), sends the file to the
 * upload's URL (a presigned POST to the bucket on AWS; the service's own route
 * `POST /api/knowledge-uploads/:id` locally, whose token is a form field), then makes the document
 * of it (`POST …/knowledge/documents { upload_id }`), which claims the upload: once, by the
 * workspace it was made for, within its 15 minutes.
 */

/** How long an upload's URL takes a file. */
const UPLOAD_SECONDS = 15 * 60;
/** An upload's item stays this long (TTL); its file, if never claimed, as long (lib/knowledge.ts). */
const KEPT_SECONDS = 24 * 3600;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The path of the service's own upload route (the route table's `/knowledge-uploads/{upload_id}`, under `/api`). */
const uploadRoutePath = (uploadId: string) => `/api/knowledge-uploads/${uploadId}`;

export async function createUpload(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  userId: string,
  input: { filename: string; bytes: number; content_type?: string },
  origin: string,
) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  if (input.bytes > MAX_DOCUMENT_BYTES) throw new PayloadTooLargeError(TOO_LARGE);
  const now = deps.clock.now();
  const id = newId('ku', now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + UPLOAD_SECONDS * 1000);
  const target = (await deps.blobs.uploadTarget(blobKeys.upload(orgId, workspaceId, id), input.bytes, UPLOAD_SECONDS)) ?? {
    url: `${origin}${uploadRoutePath(id)}`,
    fields: { token },
  };
  await deps.table.put(
    newUploadItem({
      id,
      org_id: orgId,
      workspace_id: workspaceId,
      filename: input.filename,
      content_type: input.content_type,
      bytes: input.bytes,
      token_hash: digest(token),
      created_by: userId,
      expires_at: expiresAt.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + KEPT_SECONDS,
    }),
  );
  return { id, url: target.url, fields: target.fields, max_bytes: input.bytes, expires_at: expiresAt.toISOString() };
}

/** The upload, if it is there and unexpired; undefined otherwise (the callers say 404 either way). */
async function liveUpload(deps: Deps, uploadId: string): Promise<UploadItem | undefined> {
  const item = await deps.table.get<UploadItem>(uploadKey(uploadId), true);
  if (!item || item.expires_at <= deps.clock.now().toISOString()) return undefined;
  return item;
}

const uploadNotFound = (uploadId: string) => new NotFoundError(`upload ${uploadId} not found (or expired)`);

/**
 * The service's own upload route (public: the token is the credential): the file of an upload,
 * kept where the upload says, if the token is the upload's and the file is no larger than it said.
 * An upload that is not there, or a body that declares more than its file and the form around it,
 * is refused before `read` reads a byte of the body. Sent again within the time, a file replaces
 * the one before (as a presigned POST does).
 */
export async function receiveUpload(
  deps: Deps,
  uploadId: string,
  declaredBytes: number,
  read: () => Promise<{ token: string; bytes: Uint8Array }>,
): Promise<void> {
  const item = await liveUpload(deps, uploadId);
  if (!item) throw uploadNotFound(uploadId);
  if (declaredBytes > item.bytes + FORM_BYTES)
    throw new PayloadTooLargeError(`the file is larger than the ${item.bytes} bytes its upload said`);
  const { token, bytes } = await read();
  if (!timingSafeEqual(Buffer.from(digest(token), 'hex'), Buffer.from(item.token_hash, 'hex'))) throw uploadNotFound(uploadId);
  if (bytes.length === 0) throw new ValidationError('the file is empty', [{ path: 'file', message: 'must not be empty' }]);
  if (bytes.length > item.bytes) throw new PayloadTooLargeError(`the file is larger than the ${item.bytes} bytes its upload said`);
  await deps.blobs.put(blobKeys.upload(item.org_id, item.workspace_id, item.id), bytes);
}

/**
 * The document of an upload whose file has arrived: its kind checked before anything is written,
 * then the upload claimed (once: a second claim is 404), the document made and queued, the upload's
 * file deleted.
 */
export async function createDocumentOfUpload(deps: Deps, orgId: string, workspaceId: string, userId: string, uploadId: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const item = await liveUpload(deps, uploadId);
  if (!item || item.org_id !== orgId || item.workspace_id !== workspaceId) throw uploadNotFound(uploadId);
  const key = blobKeys.upload(orgId, workspaceId, uploadId);
  const bytes = await deps.blobs.get(key);
  if (!bytes) {
    throw new ValidationError('the file of this upload has not arrived', [
      { path: 'upload_id', message: "send the file to the upload's url first" },
    ]);
  }
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new PayloadTooLargeError(TOO_LARGE);
  const upload = { bytes, filename: item.filename, contentType: item.content_type };
  kindOfUpload(upload);
  if (!(await conditionHeld(deps.table.delete(uploadKey(uploadId), uploadUnclaimed(deps.clock.now().toISOString())))))
    throw uploadNotFound(uploadId);
  const document = await createUploadedDocument(deps, orgId, workspaceId, userId, upload);
  await deps.blobs.delete(key);
  return document;
}
