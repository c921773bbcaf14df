/**
 * Invitations: creating and accepting one.
 *
 * The public file of `shared/invitations/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './invitations.js';
