/**
 * Workspaces: their records, settings, counters and usage, day counts and the activity feed.
 *
 * The public file of `shared/workspaces/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './activity-csv.js';
export * from './activity.js';
export * from './activity-tool-calls.js';
export * from './approval-setting.js';
export * from './counters.js';
export * from './day-counts.js';
export * from './day-range.js';
export * from './entities.js';
export * from './schemas.js';
export * from './stats.js';
export * from './tool-search-setting.js';
export * from './usage-entities.js';
export * from './workspaces.js';
