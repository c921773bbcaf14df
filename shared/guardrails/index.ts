/**
 * Guardrails: the rules, their compiled patterns and their enforcement on input and output.
 *
 * The public file of `shared/guardrails/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './enforcement.js';
export * from './entities.js';
export * from './guardrails.js';
export * from './patterns.js';
