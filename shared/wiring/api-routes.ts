import type { OpenAPIHono } from '@hono/zod-openapi';
import { approvalRoutes } from '../approvals/routes.js';
import { authRoutes } from '../auth/routes.js';
import { budgetRoutes } from '../budgets/routes.js';
import { chatRoutes } from '../chat/routes.js';
import { catalogueRoutes } from '../connections/catalogue-routes.js';
import { consumerRoutes } from '../workspace-admin/consumer-routes.js';
import { conversationRoutes } from '../conversations/routes.js';
import type { Deps } from '../deps.js';
import { evalRoutes } from '../evals/routes.js';
import { routineHookRoutes } from '../routines/hook-routes.js';
import { routineRoutes } from '../routines/routes.js';
import { guardrailRoutes } from '../guardrails/routes.js';
import { atApi, type MountedRoutes } from './app.js';
import type { AppEnv } from '../http/router.js';
import { invitationRoutes } from '../invitations/routes.js';
import { queueRoutes } from '../jobs/routes.js';
import { knowledgeRoutes } from '../knowledge/routes.js';
import { documentRoutes } from '../knowledge/documents-routes.js';
import { orgRoutes } from '../org-admin/routes.js';
import { scimRoutes } from '../scim/protocol-routes.js';
import { scimAdminRoutes } from '../scim/routes.js';
import { SCIM_PATH } from '../scim/token.js';
import { ssoRoutes } from '../auth/sso/routes.js';
import { toolSearchRoutes } from '../tool-search/routes.js';
import { workspaceRoutes } from '../workspace-admin/routes.js';
import { oauthProtocolRoutes, oauthRoutes } from '../oauth/index.js';

/*
 * The composition of the HTTP API: which domains' routers a process mounts. `shared/http` is the
 * toolkit the domains use (router, middleware, schemas) and knows none of them; the entry points
 * pick their routes here: the API function these, the agent and stream functions only the agent's
 * (`agentRoutes`, shared/wiring/agent-routes.ts), so their bundles carry none of the rest; the local
 * runtime both.
 */

/**
 * The API function's routes, in the order they are mounted; the agent's, in a process that
 * carries them, go between (where they always have).
 */
export function apiRoutes(deps: Deps, agent: OpenAPIHono<AppEnv>[] = []): MountedRoutes[] {
  return [
    ...[authRoutes, orgRoutes, invitationRoutes, budgetRoutes, ssoRoutes, scimAdminRoutes].map((routes) => atApi(routes(deps))),
    ...[workspaceRoutes, toolSearchRoutes, conversationRoutes, catalogueRoutes].map((routes) => atApi(routes(deps))),
    ...agent.map(atApi),
    ...[
      queueRoutes,
      chatRoutes,
      consumerRoutes,
      knowledgeRoutes,
      documentRoutes,
      guardrailRoutes,
      approvalRoutes,
      evalRoutes,
      routineRoutes,
      oauthRoutes,
    ].map((routes) => atApi(routes(deps))),
    // Provisioning by the identity provider: its own protocol, token and error form (RFC 7644).
    { path: SCIM_PATH, router: scimRoutes(deps) },
    // Routines' webhooks: public, each request signed with its routine's secret (shared/routines/hook-routes.ts).
    { path: '/hooks', router: routineHookRoutes(deps) },
    // The MCP gateway's authorization server: its metadata and /oauth/* (RFC 8414, RFC 9728; shared/oauth).
    { path: '/', router: oauthProtocolRoutes(deps) },
  ];
}
