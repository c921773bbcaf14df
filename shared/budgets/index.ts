/**
 * Budgets: the admission check before a question, the spend store it holds and settles, and its items.
 *
 * The public file of `shared/budgets/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './admission.js';
export * from './entities.js';
export * from './store.js';
