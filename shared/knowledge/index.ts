/**
 * Knowledge: the entries and their search.
 *
 * The public file of `shared/knowledge/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
export * from './knowledge.js';
export { DOCUMENT_UPLOADS } from './documents/limits.js';
export { isIndexManifest } from './documents/entities.js';
export { manifestOf, type IndexManifest } from './search/index-store.js';
export { CITE_INSTRUCTION, type Citation, CitationLedger } from './search/citations.js';
export { documentSearch } from './search/knowledge-tool.js';
