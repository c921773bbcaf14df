/**
 * The organisation: its record and settings, people, teams and their members.
 *
 * The public file of `shared/org/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './entities.js';
export * from './organisations.js';
export * from './schemas.js';
export * from './settings.js';
export * from './team-entities.js';
export * from './team-members.js';
export * from './teams.js';
export * from './users.js';
