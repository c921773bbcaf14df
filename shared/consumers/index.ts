/**
 * Consumers: API keys and their items.
 *
 * The public file of `shared/consumers/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
export * from './keys.js';
export * from './schemas.js';
