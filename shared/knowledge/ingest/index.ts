/**
 * Knowledge documents read and cut: an upload's kind (`kindOf`), its text as headings and paragraphs
 * (`parseDocument`, refusing hostile or oversized documents with a DocumentRejectedError) and its
 * passages for search (`passagesOf`, `indexedTextOf`). Pure: no store, no HTTP.
 */
export { type DocumentKind, kindOf } from './kinds.js';
export { type Block, DocumentRejectedError, type ParsedDocument, parseDocument } from './parse.js';
export { indexedTextOf, type Passage, passagesOf } from './passages.js';
