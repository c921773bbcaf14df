import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf, type AppEnv } from '../http/router.js';
import { ValidationError } from '../platform/errors.js';
import {
  createUploadedDocument,
  createUrlDocument,
  deleteDocument,
  documentPassages,
  getDocument,
  listDocuments,
} from './documents/documents.js';
import { documentRouteDefinitions as routes, DocumentUploadBody, DocumentUrlBody } from './documents-route-definitions.js';
import { createDocumentOfUpload, createUpload, receiveUpload } from './documents/uploads.js';
import { publicOriginOf } from '../http/public-origin.js';
import { searchPassages } from './search/search.js';
import { getWorkspaceItem } from '../workspaces/index.js';

/** The form field `file` of a multipart body (and the form, for its other fields). */
async function formFile(c: Context<AppEnv>): Promise<{ file: File; form: Record<string, unknown> }> {
  const form = await c.req.parseBody().catch(() => {
    throw new ValidationError('the form could not be read', [{ path: 'file', message: 'must be a multipart form with a file' }]);
  });
  const file = form.file;
  if (!(file instanceof File))
    throw new ValidationError('give the document as the form field `file`', [{ path: 'file', message: 'required' }]);
  return { file, form };
}

/** The document of a `POST …/knowledge/documents`: its file (multipart) or its URL (JSON). */
async function createDocument(deps: Deps, c: Context<AppEnv>, workspaceId: string) {
  const orgId = orgIdOf(c);
  const userId = c.get('principal').userId ?? '';
  // Another organisation's workspace is 404 whatever the body.
  await getWorkspaceItem(deps, orgId, workspaceId);
  const contentType = c.req.header('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    const json: unknown = await c.req.json().catch(() => undefined);
    const upload = DocumentUploadBody.safeParse(json);
    if (upload.success) return createDocumentOfUpload(deps, orgId, workspaceId, userId, upload.data.upload_id);
    const body = DocumentUrlBody.safeParse(json);
    if (!body.success)
      throw new ValidationError('give a file (multipart field `file`), { url } or { upload_id }', [
        { path: 'url', message: 'must be a URL' },
      ]);
    return createUrlDocument(deps, orgId, workspaceId, userId, body.data.url);
  }
  const { file } = await formFile(c);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return createUploadedDocument(deps, orgId, workspaceId, userId, {
    bytes,
    filename: file.name || 'document',
    contentType: file.type || undefined,
  });
}

export function documentRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create.route, async (c) => {
      const document = await createDocument(deps, c as unknown as Context<AppEnv>, c.req.valid('param').id);
      return c.json({ document }, 202);
    })
    .openapi(routes.upload.route, async (c) => {
      const upload = await createUpload(
        deps,
        orgIdOf(c),
        c.req.valid('param').id,
        c.get('principal').userId ?? '',
        c.req.valid('json'),
        publicOriginOf(deps.config.publicBaseUrl, c.req.raw),
      );
      return c.json({ upload }, 201);
    })
    .openapi(routes.receive.route, async (c) => {
      const declared = Number(c.req.header('content-length') ?? '0') || 0;
      await receiveUpload(deps, c.req.valid('param').upload_id, declared, async () => {
        const { file, form } = await formFile(c as unknown as Context<AppEnv>);
        return { token: typeof form.token === 'string' ? form.token : '', bytes: new Uint8Array(await file.arrayBuffer()) };
      });
      return c.body(null, 204);
    })
    .openapi(routes.list.route, async (c) => c.json({ documents: await listDocuments(deps, orgIdOf(c), c.req.valid('param').id) }, 200))
    .openapi(routes.get.route, async (c) => {
      const { id, doc_id } = c.req.valid('param');
      return c.json({ document: await getDocument(deps, orgIdOf(c), id, doc_id) }, 200);
    })
    .openapi(routes.remove.route, async (c) => {
      const { id, doc_id } = c.req.valid('param');
      await deleteDocument(deps, orgIdOf(c), id, doc_id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.passages.route, async (c) => {
      const { id, doc_id } = c.req.valid('param');
      return c.json(await documentPassages(deps, orgIdOf(c), id, doc_id), 200);
    })
    .openapi(routes.search.route, async (c) => {
      const { q, limit } = c.req.valid('query');
      return c.json({ passages: await searchPassages(deps, orgIdOf(c), c.req.valid('param').id, q, limit ?? 10) }, 200);
    });
}
