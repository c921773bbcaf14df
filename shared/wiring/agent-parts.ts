import { McpHub } from '../connections/mcp-hub.js';
import type { Config } from '../platform/config.js';
import type { AppLogger } from '../platform/logger.js';
import { createEmfMetrics } from '../platform/metrics-emf.js';
import type { SecretStore } from '../platform/store.js';
import { TeamChatNotifier } from '../chat-bot/notifier.js';
import { ModelClientCache } from '../models/providers.js';

/** The agent's clients (MCP hub, model clients), for the processes that run the agent loop. */
export function createAgentParts(config: Config, logger: AppLogger) {
  return {
    models: new ModelClientCache(config),
    mcp: new McpHub({
      allowPrivateUrls: config.mcpAllowPrivateUrls,
      stdioServers: config.mcpStdioServers,
      timeoutMs: config.mcpTimeoutMs,
      maxResponseBytes: config.mcpMaxResponseBytes,
      maxConnectionsPerOrigin: config.mcpMaxConnectionsPerOrigin,
      toolLimits: config.mcpToolLimits,
      logger,
    }),
  };
}

/**
 * The agent's clients and the team-chat notifier, for the Lambda functions that run the loop (agent,
 * stream, jobs): a decision or an expiry on a team-chat conversation is told in its thread. Their
 * metrics go to CloudWatch as EMF, written at the end of each invocation (`flushedAfter` in the
 * handlers); the API function records none and keeps the no-op.
 */
export function createAgentProcessParts(config: Config, logger: AppLogger, store: SecretStore) {
  return {
    ...createAgentParts(config, logger),
    chat: new TeamChatNotifier(store, config.slackApiUrl),
    metrics: createEmfMetrics(config.metricsNamespace, { byWorkspace: config.metricsByWorkspace }),
  };
}
