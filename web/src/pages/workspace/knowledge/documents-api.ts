import { api, postUndescribed, type Schemas, useRefresh } from '../../../api/client';

export type KnowledgeDocument = Schemas['KnowledgeDocument'];

/** The largest document the service takes (its 413 says so too): a larger file is refused before it is sent. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/**
 * The documents list shows a new or deleted document, and its status as it is read; deleting an
 * entry's document deletes the entry, which the entries list and the workspace's counts show.
 */
export const useRefreshDocuments = () =>
  useRefresh('/api/workspaces/{id}/knowledge/documents', '/api/workspaces/{id}/knowledge', '/api/workspaces/{id}', '/api/workspaces');

/**
 * `POST …/knowledge/documents` with `{ url }` or `{ upload_id }` as JSON. The OpenAPI document
 * leaves this body undescribed (one route takes a multipart form too), so it is sent beside the
 * typed client, with its error handling.
 */
export function addDocument(workspaceId: string, body: { url: string } | { upload_id: string }): Promise<unknown> {
  return postUndescribed(`/api/workspaces/${encodeURIComponent(workspaceId)}/knowledge/documents`, body);
}

/** What the upload's URL answered when it refused the file: the service's JSON `error`, or S3's XML `<Message>`. */
async function sendRefusal(response: Response): Promise<{ error: string; http_status: number }> {
  const text = await response.text().catch(() => '');
  let said: string | undefined;
  try {
    said = (JSON.parse(text) as { error?: string }).error;
  } catch {
    said = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  }
  const status = response.status;
  return { error: said ?? `The file could not be sent (${status}).`, http_status: status };
}

/**
 * A file made a document, as every client of large files does (docs/knowledge.md, "Large files"):
 * an upload asked for, the file sent to its URL (the bucket itself on AWS, where a request to the
 * API is at most 6 MB; the service locally), then the document made of the upload.
 */
export async function uploadDocument(workspaceId: string, file: File): Promise<unknown> {
  const asked = await api.POST('/api/workspaces/{id}/knowledge/uploads', {
    params: { path: { id: workspaceId } },
    body: { filename: file.name || 'document', bytes: file.size, ...(file.type ? { content_type: file.type } : {}) },
  });
  if (asked.error) throw asked.error;
  const { upload } = asked.data;
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', file, file.name);
  // No cookie: the upload's fields are what lets the file in.
  const sent = await fetch(upload.url, { method: 'POST', body: form, credentials: 'omit' });
  if (!sent.ok) throw await sendRefusal(sent);
  return addDocument(workspaceId, { upload_id: upload.id });
}

/** Whether the service has finished with a document (read, or failed to): it is asked about no more. */
export const isSettled = (document: KnowledgeDocument) => document.status === 'ready' || document.status === 'failed';
