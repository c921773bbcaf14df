/** The largest knowledge document, uploaded or fetched (docs/knowledge.md, "Limits"). */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** Room for the multipart form around a file: its boundaries, headers and other fields. */
export const FORM_BYTES = 64 * 1024;

/** What a file over the limit is told. */
export const TOO_LARGE = 'a document is at most 20 MB';

/** The routes that take documents as files, for the body rules (http/middleware.ts): a little over the document's limit for the form around it. */
export const DOCUMENT_UPLOADS = [
  {
    path: /^\/api\/workspaces\/[^/]+\/knowledge\/documents\/?$/,
    maxBytes: MAX_DOCUMENT_BYTES + FORM_BYTES,
    tooLarge: TOO_LARGE,
  },
  {
    // The service's own upload route (documents/uploads.ts): the file of an upload.
    path: /^\/api\/knowledge-uploads\/[^/]+\/?$/,
    maxBytes: MAX_DOCUMENT_BYTES + FORM_BYTES,
    tooLarge: TOO_LARGE,
  },
] as const;
