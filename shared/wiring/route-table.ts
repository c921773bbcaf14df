import { createRoute } from '@hono/zod-openapi';
import { queryRouteDefinitions } from '../agent/route-definitions.js';
import { authRouteDefinitions } from '../auth/route-definitions.js';
import { budgetRouteDefinitions } from '../budgets/route-definitions.js';
import { evalRouteDefinitions } from '../evals/route-definitions.js';
import { routineRouteDefinitions } from '../routines/route-definitions.js';
import { ssoRouteDefinitions } from '../auth/sso/route-definitions.js';
import { scimRouteDefinitions } from '../scim/route-definitions.js';
import { chatAgentRouteDefinitions, chatLinkRouteDefinitions, chatRouteDefinitions } from '../chat/route-definitions.js';
import { catalogueRoute, connectionRouteDefinitions } from '../connections/route-definitions.js';
import { consumerAgentRouteDefinitions } from '../agent/consumer-route-definitions.js';
import { consumerRouteDefinitions } from '../workspace-admin/consumer-route-definitions.js';
import { conversationRouteDefinitions } from '../conversations/route-definitions.js';
import { guardrailRouteDefinitions } from '../guardrails/route-definitions.js';
import { invitationRouteDefinitions } from '../invitations/route-definitions.js';
import { queueRouteDefinitions } from '../jobs/route-definitions.js';
import { approvalRouteDefinitions } from '../approvals/route-definitions.js';
import { decisionRouteDefinitions } from '../agent/approvals/route-definitions.js';
import { knowledgeRouteDefinitions } from '../knowledge/route-definitions.js';
import { documentRouteDefinitions } from '../knowledge/documents-route-definitions.js';
import { orgRouteDefinitions } from '../org-admin/route-definitions.js';
import { modelAgentRouteDefinitions } from '../org-admin/model-route-definitions.js';
import { toolSearchRouteDefinitions } from '../tool-search/route-definitions.js';
import { oauthRouteDefinitions } from '../oauth/route-definitions.js';
import { workspaceRouteDefinitions } from '../workspace-admin/route-definitions.js';
import { PUBLIC, onApi, type KeyType, type PlacedRoute } from '../http/placement.js';

/**
 * The route table: every `/api` route with where it runs and who may call it, gathered from the
 * domains' `route-definitions.ts` (docs/architecture.md, "The route table"). The app's split
 * (`createApp`), the key scopes of `authenticate`, the public paths, the API Gateway routes of the
 * CDK stack (`lib/api.ts`) and the stack test are all derived from it.
 */

export const API_PREFIX = '/api';

/** The OpenAPI document, served by `doc31` and public. */
const documentRoute = onApi(
  PUBLIC,
  createRoute({ method: 'get', path: '/openapi.json', responses: { 200: { description: 'the OpenAPI document' } } }),
  'document',
);

export const ROUTE_TABLE: readonly PlacedRoute[] = [
  authRouteDefinitions,
  orgRouteDefinitions,
  invitationRouteDefinitions,
  budgetRouteDefinitions,
  ssoRouteDefinitions,
  scimRouteDefinitions,
  workspaceRouteDefinitions,
  toolSearchRouteDefinitions,
  conversationRouteDefinitions,
  // The query first among the agent's routes: API Gateway names the agent's integration after the first.
  queryRouteDefinitions,
  { catalogueRoute },
  connectionRouteDefinitions,
  chatRouteDefinitions,
  chatAgentRouteDefinitions,
  chatLinkRouteDefinitions,
  consumerRouteDefinitions,
  consumerAgentRouteDefinitions,
  queueRouteDefinitions,
  knowledgeRouteDefinitions,
  documentRouteDefinitions,
  guardrailRouteDefinitions,
  approvalRouteDefinitions,
  decisionRouteDefinitions,
  evalRouteDefinitions,
  routineRouteDefinitions,
  modelAgentRouteDefinitions,
  oauthRouteDefinitions,
  { documentRoute },
].flatMap((domain): PlacedRoute[] => Object.values(domain));

/**
 * The routes that also answer as Server-Sent Events (`Accept: text/event-stream`). On AWS the
 * stream function serves them a second time, behind CloudFront, where API Gateway's 30 s limit
 * does not cut them (`lib/front-door.ts`, docs/deploy.md).
 */
export const STREAMABLE_ROUTES: readonly PlacedRoute[] = [
  queryRouteDefinitions.query,
  consumerAgentRouteDefinitions.message,
  // The coding agent's `ask` answers as an event stream when it sends progress.
  consumerAgentRouteDefinitions.mcp,
  decisionRouteDefinitions.decide,
];

/** `/workspaces/{id}/query` → `/api/workspaces/{id}/query`. */
export function fullPath(entry: PlacedRoute): string {
  return `${API_PREFIX}${entry.route.path}`;
}

/** The API Gateway route key of an entry: `POST /api/workspaces/{id}/query`, `ANY …` for a route served on every method. */
export function routeKeyOf(entry: PlacedRoute): string {
  return `${entry.byHand === 'all-methods' ? 'ANY' : entry.route.method.toUpperCase()} ${fullPath(entry)}`;
}

/** The paths that need no session, as templates (an invitation's link names its token: `/api/invitations/{token}`). */
export function publicPaths(table: readonly PlacedRoute[] = ROUTE_TABLE): Set<string> {
  return new Set(table.filter((entry) => entry.callers.session === 'public').map(fullPath));
}

/** Whether a request path is one of the public paths: exactly, or filling a template's parameters with one segment each. */
export function publicPathMatcher(table: readonly PlacedRoute[] = ROUTE_TABLE): (path: string) => boolean {
  const templates = [...publicPaths(table)];
  const exact = new Set(templates.filter((path) => !path.includes('{')));
  const patterns = templates
    .filter((path) => path.includes('{'))
    .map((path) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`));
  return (path) => exact.has(path) || patterns.some((pattern) => pattern.test(path));
}

/**
 * A request path with the one-time tokens of link routes (a `{token}` parameter: an invitation's, a
 * chat account link's) written as `{token}`, for traces: a token in a path is a secret like one in
 * a query string.
 */
export function pathWithoutTokens(table: readonly PlacedRoute[] = ROUTE_TABLE): (path: string) => string {
  const source = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  const patterns = [...new Set(table.map(fullPath).filter((path) => path.includes('{token}')))].map((template) => {
    const [before = '', after = ''] = template.split('{token}');
    return new RegExp(`^(${source(before)})[^/]+(${source(after)})$`);
  });
  return (path) => {
    const pattern = patterns.find((candidate) => candidate.test(path));
    return pattern ? path.replace(pattern, '$1{token}$2') : path;
  };
}

/** A matcher of a route template: the first parameter captured (the workspace or consumer the key must own), the others any segment. */
function matcherOf(path: string): RegExp {
  let first = true;
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, () => {
    const group = first ? '([^/]+)' : '[^/]+';
    first = false;
    return group;
  });
  return new RegExp(`^${source}$`);
}

/** Whether a request (method, path) is one of `entries`' routes: what a function serving only those lets through. */
export function routeMatcher(entries: readonly PlacedRoute[]): (method: string, path: string) => boolean {
  const routes = entries.map((entry) => ({
    method: entry.byHand === 'all-methods' ? undefined : entry.route.method.toUpperCase(),
    path: matcherOf(fullPath(entry)),
  }));
  return (method, path) => routes.some((route) => (route.method === undefined || route.method === method) && route.path.test(path));
}

/** For each key type, the matchers of the paths it may call (whatever the method: a wrong method is the router's 404). */
export function keyMatchers(table: readonly PlacedRoute[] = ROUTE_TABLE): Record<KeyType, RegExp[]> {
  const matchers: Record<KeyType, RegExp[]> = { api: [], 'coding-agent': [], messaging: [] };
  for (const entry of table) for (const type of entry.callers.keys) matchers[type].push(matcherOf(fullPath(entry)));
  return matchers;
}
