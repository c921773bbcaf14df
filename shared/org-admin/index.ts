/**
 * Organisation administration: a person's standing (removing one's records when they leave).
 *
 * The public file of `shared/org-admin/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './standing.js';
