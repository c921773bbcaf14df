/**
 * Tool servers: connections and their OAuth grants, the MCP hub that calls them, their discovered
 * tools (the tool cache), per-person grants, tool access rules and the views the API returns.
 *
 * The public file of `shared/connections/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it). What a process
 * keeps of workspaces' tools (`@public ./workspace-tools-cache.js`) is imported by the wiring on its own,
 * so building a process's deps does not load the MCP client.
 */
export * from './connections.js';
export * from './entities.js';
export * from './mcp-hub.js';
export * from './oauth.js';
export * from './tool-access.js';
export * from './tool-cache.js';
export * from './user-grants.js';
export * from './views.js';
