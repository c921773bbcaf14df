import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { catalogueRoute } from './route-definitions.js';

/**
 * `GET /api/connectors/mcp/catalogue`: the stdio servers of `MCP_STDIO_SERVERS`. It reads only the
 * configuration, so every process serves it (apart from the agent routes, and without the MCP code).
 */
export function catalogueRoutes(deps: Deps) {
  return createRouter().openapi(catalogueRoute.route, (c) => {
    const servers = Object.entries(deps.config.mcpStdioServers).map(([name, entry]) => ({ name, ...entry }));
    return c.json({ servers }, 200);
  });
}
