import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, MEMBERS, PUBLIC, onApi } from '../http/placement.js';
import {
  adminErrors,
  authErrors,
  isoTimestamp,
  jsonResponse,
  notFoundError,
  StatusOkSchema,
  validationErrors,
  WorkspaceParams,
} from '../http/schemas.js';
import { DOCUMENT_STATUSES } from './documents/entities.js';

const tags = ['knowledge'];

const DocumentParams = WorkspaceParams.extend({
  doc_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'doc_id', in: 'path' } }),
});

const DocumentSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    source: z
      .enum(['upload', 'url', 'entry'])
      .openapi({ description: 'an uploaded file, a fetched URL, or a knowledge entry (its id is the entry id)' }),
    kind: z.enum(['markdown', 'text', 'html', 'pdf', 'docx']).nullable(),
    filename: z.string().nullable(),
    url: z.string().nullable(),
    bytes: z.number().int().nullable(),
    status: z.enum(DOCUMENT_STATUSES),
    error: z.string().nullable(),
    pages: z.number().int().nullable(),
    passages: z.number().int().nullable(),
    progress: z.number().int().min(0).max(100),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .openapi('KnowledgeDocument');

/** `{ url }`: a document fetched by the service. */
export const DocumentUrlBody = z
  .object({ url: z.string().trim().url('must be a URL').max(2048) })
  .strict()
  .openapi('KnowledgeDocumentUrl');

/** `{ upload_id }`: a document of a file sent to an upload's URL. */
export const DocumentUploadBody = z
  .object({ upload_id: z.string().trim().min(1).max(100) })
  .strict()
  .openapi('KnowledgeDocumentOfUpload');

const DocumentResponse = z.object({ document: DocumentSchema });

const UploadBody = z
  .object({
    filename: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    bytes: z.number().int().min(1, 'must be at least 1'),
    content_type: z.string().trim().max(200).optional(),
  })
  .strict()
  .openapi('KnowledgeUploadRequest');

const UploadSchema = z
  .object({
    id: z.string(),
    url: z.string().openapi({ description: 'where to POST the file: a multipart form of `fields`, then the file as field `file` (last)' }),
    fields: z.record(z.string(), z.string()),
    max_bytes: z.number().int(),
    expires_at: isoTimestamp,
  })
  .openapi('KnowledgeUpload');

const UploadParams = z.object({
  upload_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'upload_id', in: 'path' } }),
});

const tooLarge = { 413: jsonResponse(z.object({ error: z.string() }), 'a file over 20 MB') };

const SearchQuery = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters'),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be an integer from 1 to 50')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be at least 1').max(50, 'limit must be at most 50'))
    .optional()
    .openapi({ type: 'integer', example: 10 }),
});

const PassageSchema = z
  .object({ document_id: z.string(), title: z.string(), section: z.string(), text: z.string(), score: z.number() })
  .openapi('KnowledgePassage');

export const documentRouteDefinitions = {
  create: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/knowledge/documents',
      tags,
      summary: 'Add a document: a file (multipart field `file`, at most 20 MB), `{ url }` or `{ upload_id }` (admin)',
      description:
        'Markdown, plain text, HTML, PDF or DOCX: a `multipart/form-data` body with the file as field `file` (at most 6 MB on AWS), a JSON body `{ "url": "https://…" }` (fetched through the address policy), or `{ "upload_id": "…" }` for a file sent to an upload (`POST …/knowledge/uploads`, up to 20 MB everywhere). The document is read by a job: poll it until `ready` or `failed`.',
      // The body is read by the handler (documents-routes.ts): a multipart form or JSON, which one
      // route's validators cannot both take.
      request: { params: WorkspaceParams },
      responses: {
        202: jsonResponse(DocumentResponse, 'queued for reading'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...tooLarge,
      },
    }),
  ),
  upload: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/workspaces/{id}/knowledge/uploads',
      tags,
      summary: 'Ask where to send a file of up to 20 MB, then make it a document with `{ upload_id }` (admin)',
      description:
        'For files too large for a request to the API (over 6 MB on AWS): POST the file as a multipart form to `url`, with each of `fields` first and the file as field `file`, within 15 minutes; then `POST …/knowledge/documents` with `{ "upload_id": "<id>" }`.',
      request: { params: WorkspaceParams, body: { content: { 'application/json': { schema: UploadBody } }, required: true } },
      responses: {
        201: jsonResponse(z.object({ upload: UploadSchema }), 'where to send the file'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        ...tooLarge,
      },
    }),
  ),
  receive: onApi(
    PUBLIC,
    createRoute({
      method: 'post',
      path: '/knowledge-uploads/{upload_id}',
      tags,
      summary: "The file of an upload, where the service keeps files itself (the upload's `url` locally)",
      description:
        'A multipart form: the `token` field the upload gave, then the file as field `file`, no larger than the upload said. On AWS an upload points at the bucket instead.',
      // The body is a multipart form, read by the handler (documents-routes.ts).
      request: { params: UploadParams },
      responses: {
        204: { description: 'kept' },
        ...notFoundError,
        ...validationErrors,
        ...tooLarge,
      },
    }),
  ),
  list: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/knowledge/documents',
      tags,
      summary: "The workspace's documents, newest first, with their status (admin)",
      request: { params: WorkspaceParams },
      responses: { 200: jsonResponse(z.object({ documents: z.array(DocumentSchema) }), 'the documents'), ...adminErrors, ...notFoundError },
    }),
  ),
  get: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/knowledge/documents/{doc_id}',
      tags,
      summary: 'One document and its status (admin)',
      request: { params: DocumentParams },
      responses: { 200: jsonResponse(DocumentResponse, 'the document'), ...adminErrors, ...notFoundError },
    }),
  ),
  remove: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/workspaces/{id}/knowledge/documents/{doc_id}',
      tags,
      summary: 'Delete a document: it is no longer found (admin)',
      request: { params: DocumentParams },
      responses: { 200: jsonResponse(StatusOkSchema, 'deleted'), ...adminErrors, ...notFoundError },
    }),
  ),
  passages: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/knowledge/documents/{doc_id}/passages',
      tags,
      summary: "A document's passages in order: what a citation opens (any member)",
      request: { params: DocumentParams },
      responses: {
        200: jsonResponse(
          z.object({
            document: z.object({ id: z.string(), title: z.string(), status: z.enum(DOCUMENT_STATUSES) }),
            passages: z.array(
              z.object({ position: z.number().int(), section: z.string(), text: z.string(), page: z.number().int().nullable() }),
            ),
          }),
          'the passages (none until the document is ready)',
        ),
        ...authErrors,
        ...notFoundError,
      },
    }),
  ),
  search: onApi(
    MEMBERS,
    createRoute({
      method: 'get',
      path: '/workspaces/{id}/knowledge/search',
      tags,
      summary: "The passages of the workspace's knowledge that best match `q`: what `search_knowledge` gives the model",
      request: { params: WorkspaceParams, query: SearchQuery },
      responses: {
        200: jsonResponse(z.object({ passages: z.array(PassageSchema) }), 'best first'),
        ...authErrors,
        ...notFoundError,
        400: validationErrors[400],
      },
    }),
  ),
};
