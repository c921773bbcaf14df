import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, MEMBERS, onApi } from '../http/placement.js';
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

const DocumentResponse = z.object({ document: DocumentSchema });

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
      summary: 'Add a document: a file (multipart field `file`, at most 20 MB) or `{ url }` (admin)',
      description:
        'Markdown, plain text, HTML, PDF or DOCX: a `multipart/form-data` body with the file as field `file`, or a JSON body `{ "url": "https://…" }` (fetched through the address policy). The document is read by a job: poll it until `ready` or `failed`.',
      // The body is read by the handler (documents-routes.ts): a multipart form or JSON, which one
      // route's validators cannot both take.
      request: { params: WorkspaceParams },
      responses: {
        202: jsonResponse(DocumentResponse, 'queued for reading'),
        ...adminErrors,
        ...notFoundError,
        ...validationErrors,
        413: jsonResponse(z.object({ error: z.string() }), 'a file over 20 MB'),
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
