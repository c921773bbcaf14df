/**
 * Approvals: the pending requests a write tool's call waits on, who may decide them, their expiry and
 * how a request is described to the person deciding.
 *
 * The public file of `shared/approvals/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './after-decision.js';
export * from './approvals.js';
export * from './deciders.js';
export * from './describe.js';
export * from './entities.js';
export * from './expiry.js';
export * from './gateway.js';
export * from './request.js';
export * from './schemas.js';
