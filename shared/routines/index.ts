/**
 * Routines: what the lifecycle sweep reads of them (their next runs in the due index) and sends
 * (their fire jobs), and moves (their next run once fired).
 *
 * The public file of `shared/routines/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export { dueRoutines, ROUTINE_DUE_SHARDS } from './entities.js';
export { fireMessage } from './fire-message.js';
export { moveNextRun } from './fire-job.js';
