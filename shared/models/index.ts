/**
 * Models: the model port, the provider catalogue and the settings schemas.
 *
 * The public file of `shared/models/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './catalogue.js';
export * from './key-check.js';
export * from './model.js';
export * from './providers.js';
export * from './schemas.js';
