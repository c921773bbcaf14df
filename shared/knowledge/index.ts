/**
 * Knowledge: the entries and their search.
 *
 * The public file of `shared/knowledge/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
export * from './knowledge.js';
