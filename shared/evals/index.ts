/**
 * Evaluations: the items other domains read (the run a case job reports to).
 *
 * The public file of `shared/evals/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
