/**
 * Jobs: the ledger, its entities, the worker that runs a handler, the scheduler of due work and the
 * drains the operations page reads.
 *
 * The public file of `shared/jobs/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './drains.js';
export * from './entities.js';
export * from './ledger-types.js';
export * from './ledger.js';
export * from './scheduler.js';
export * from './worker.js';
