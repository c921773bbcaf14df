import { approvalAgentRoutes } from '../agent/approvals/agent-routes.js';
import { chatAgentRoutes } from '../chat/agent-routes.js';
import { connectionRoutes } from '../connections/routes.js';
import { consumerAgentRoutes } from '../agent/consumer-routes.js';
import type { Deps } from '../deps.js';
import { queryRoutes } from '../agent/routes.js';
import { modelAgentRoutes } from '../org-admin/model-routes.js';

/**
 * The routes that run the agent (the query) or reach outside services (MCP servers, the team-chat
 * API, the model's provider when a key is tested): mounted by the
 * processes that carry the agent — the local runtime and the agent function on AWS.
 */
export function agentRoutes(deps: Deps) {
  return [
    queryRoutes(deps),
    connectionRoutes(deps),
    chatAgentRoutes(deps),
    consumerAgentRoutes(deps),
    approvalAgentRoutes(deps),
    modelAgentRoutes(deps),
  ];
}
