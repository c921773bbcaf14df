import { McpHub } from '../connections/mcp-hub.js';
import type { Config } from '../platform/config.js';
import type { AppLogger } from '../platform/logger.js';
import { ModelClientCache } from './providers.js';

/** The agent's clients (MCP hub, model clients), for the processes that run the agent loop. */
export function createAgentParts(config: Config, logger: AppLogger) {
  return {
    models: new ModelClientCache(config),
    mcp: new McpHub({
      allowPrivateUrls: config.mcpAllowPrivateUrls,
      stdioServers: config.mcpStdioServers,
      timeoutMs: config.mcpTimeoutMs,
      logger,
    }),
  };
}
