import { postUndescribed, type Schemas, useRefresh } from '../../../api/client';

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
 * `POST …/knowledge/documents`: a file as the multipart form's `file`, or `{ url }` as JSON. The
 * OpenAPI document leaves this body undescribed (one route cannot validate both), so it is sent
 * beside the typed client, with its error handling.
 */
export function addDocument(workspaceId: string, body: FormData | { url: string }): Promise<unknown> {
  return postUndescribed(`/api/workspaces/${encodeURIComponent(workspaceId)}/knowledge/documents`, body);
}

/** Whether the service has finished with a document (read, or failed to): it is asked about no more. */
export const isSettled = (document: KnowledgeDocument) => document.status === 'ready' || document.status === 'failed';
