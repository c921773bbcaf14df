/** The largest knowledge document, uploaded or fetched (docs/knowledge.md, "Limits"). */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** The route that takes documents as files, for the body rules (http/middleware.ts): a little over the document's limit for the form around it. */
export const DOCUMENT_UPLOADS = [
  {
    path: /^\/api\/workspaces\/[^/]+\/knowledge\/documents\/?$/,
    maxBytes: MAX_DOCUMENT_BYTES + 64 * 1024,
    tooLarge: 'a document is at most 20 MB',
  },
] as const;
