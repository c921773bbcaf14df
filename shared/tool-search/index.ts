/**
 * Tool search: the agent's `search_tools` tool. The ranking itself (`tool-index.ts`) loads lazily
 * behind it.
 *
 * The public file of `shared/tool-search/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './agent-tool.js';
