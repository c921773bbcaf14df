/**
 * The agent: the query use case (`runAgentQuery`), its loop and events, the tools it offers, and the
 * decision on a paused approval that resumes a run.
 *
 * The public file of `shared/agent/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './approvals/decide.js';
export * from './events.js';
export * from './loop.js';
export * from './query.js';
export * from './query/persist.js';
export * from './query/tools.js';
export * from './query/types.js';
