import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { atApi, createApp } from '../../shared/wiring/app.js';
import { ROUTE_TABLE, fullPath, keyMatchers, publicPaths, routeKeyOf } from '../../shared/wiring/route-table.js';
import { createRouter } from '../../shared/http/router.js';
import { apiRoutes } from '../../shared/wiring/api-routes.js';
import { createTestContext, type TestContext } from '../support/context.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

/** A path of the template with every parameter filled. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

describe('the route table', () => {
  it('places every documented operation, once', async () => {
    const document = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const placed = ROUTE_TABLE.filter((entry) => entry.byHand !== 'document').map(
      (entry) => `${entry.route.method.toUpperCase()} ${fullPath(entry)}`,
    );
    expect(new Set(placed).size).toBe(placed.length);
    expect(documented.filter((operation) => operation !== 'GET /health').sort()).toEqual(placed.sort());
  });

  it('stops an app that serves a route without a placement, or misses a placed one', () => {
    const strayRouter = createRouter();
    strayRouter.get('/workspaces/:id/stray', (c) => c.json({}));
    const both = (agent: ReturnType<typeof agentRoutes>) => ({ routes: apiRoutes(t.deps, agent), serves: ['api', 'agent'] as const });
    const stray = [...agentRoutes(t.deps), strayRouter];
    expect(() => createApp(t.deps, both(stray))).toThrow('served without a placement [GET /api/workspaces/:id/stray]');
    const missing = agentRoutes(t.deps).slice(1);
    expect(() => createApp(t.deps, both(missing))).toThrow('placed but not served [POST /api/workspaces/:id/query]');
    // The API function's app carries no agent route and documents them instead.
    expect(() => createApp(t.deps, { routes: apiRoutes(t.deps), serves: ['api'] })).not.toThrow();
    // The agent function's carries only the agent's: an API route there is one without a placement.
    expect(() => createApp(t.deps, { routes: agentRoutes(t.deps).map(atApi), serves: ['agent'] })).not.toThrow();
    expect(() => createApp(t.deps, { routes: apiRoutes(t.deps, agentRoutes(t.deps)), serves: ['agent'] })).toThrow(
      'served without a placement [',
    );
  });

  it('derives the public paths and the routes each key type may use', () => {
    expect([...publicPaths()].sort()).toEqual(
      [
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/session',
        '/api/auth/sso',
        '/api/auth/sso/callback',
        '/api/connectors/mcp/oauth/callback',
        '/api/invitations/{token}',
        '/api/invitations/{token}/accept',
        '/api/knowledge-uploads/{upload_id}',
        '/api/models',
        '/api/openapi.json',
        '/api/signup',
      ].sort(),
    );
    const matchers = keyMatchers();
    const matches = (type: keyof typeof matchers, path: string) => matchers[type].some((matcher) => matcher.test(path));
    expect(matches('api', '/api/workspaces/w1/query')).toBe(true);
    expect(matches('api', '/api/workspaces/w1/conversations/c1/close')).toBe(true);
    expect(matches('api', '/api/workspaces/w1/dashboard')).toBe(false);
    // A team's CI runs the workspace's evaluations with its api key.
    expect(matches('api', '/api/workspaces/w1/evals/e1/runs')).toBe(true);
    expect(matches('api', '/api/workspaces/w1/evals/e1/runs/r1')).toBe(true);
    expect(matches('coding-agent', '/api/workspaces/w1/mcp')).toBe(true);
    expect(matches('coding-agent', '/api/workspaces/w1/query')).toBe(false);
    expect(matches('messaging', '/api/consumers/k1/messages')).toBe(true);
    expect(routeKeyOf(ROUTE_TABLE.find((entry) => entry.byHand === 'all-methods')!)).toBe('ANY /api/workspaces/{id}/mcp');
  });

  it('refuses a member on every admin route, before reading the request', async () => {
    const { cookie } = await t.signUp();
    const member = await t.addMember(cookie);
    const adminRoutes = ROUTE_TABLE.filter((entry) => entry.callers.session === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(20);
    for (const entry of adminRoutes) {
      const method = entry.route.method.toUpperCase();
      const response = await t.request(method, concrete(fullPath(entry)), {
        cookie: member.cookie,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      });
      expect({ route: routeKeyOf(entry), status: response.status }).toEqual({ route: routeKeyOf(entry), status: 403 });
    }
  });

  it('refuses a session on a key-only route (the MCP endpoint with its sign-in challenge, 401)', async () => {
    const { cookie } = await t.signUp();
    for (const entry of ROUTE_TABLE.filter((candidate) => candidate.callers.session === 'none')) {
      const response = await t.request('POST', concrete(fullPath(entry)), { cookie, body: {} });
      const status = entry.byHand === 'all-methods' ? 401 : 403;
      expect({ route: routeKeyOf(entry), status: response.status }).toEqual({ route: routeKeyOf(entry), status });
    }
  });
});
