/**
 * Conversations: their items, messages, titles, owners, feedback, listings and the open → cold →
 * closed lifecycle.
 *
 * The public file of `shared/conversations/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
export * from './feedback.js';
export * from './lifecycle.js';
export * from './list.js';
export * from './messages.js';
export * from './owners.js';
export * from './schemas.js';
export * from './title.js';
export * from './visibility.js';
