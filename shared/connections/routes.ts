import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE, readSession } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { DomainError } from '../platform/errors.js';
import { deleteConnection, saveConnection, testConnection } from './connections.js';
import { authorizeConnection, finishGrant, redirectUrlOf, saveOAuthConnection } from './oauth-flow.js';
import { refreshConnection } from './refresh.js';
import { connectionRouteDefinitions as routes } from './route-definitions.js';
import { updateConnection } from './update.js';

/** The callback's page: plain text in a minimal document (what it shows is escaped). */
function page(title: string, text: string): string {
  const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
}

export function connectionRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.test.route, async (c) => c.json(await testConnection(deps, orgIdOf(c), c.req.valid('json')), 200))
    .openapi(routes.save.route, async (c) => {
      const input = c.req.valid('json');
      if (input.auth !== 'oauth') return c.json(await saveConnection(deps, orgIdOf(c), input), 201);
      const grant = { redirectUrl: redirectUrlOf(deps, new URL(c.req.url).origin), userId: c.get('principal').userId };
      return c.json(await saveOAuthConnection(deps, orgIdOf(c), input, grant), 201);
    })
    .openapi(routes.update.route, async (c) =>
      c.json(await updateConnection(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(routes.refresh.route, async (c) => c.json(await refreshConnection(deps, c.get('principal'), c.req.valid('param').id), 200))
    .openapi(routes.authorize.route, async (c) => c.json(await authorizeConnection(deps, c.get('principal'), c.req.valid('param').id), 200))
    .openapi(routes.callback.route, async (c) => {
      const { code, state, error } = c.req.valid('query');
      if (error || !code || !state)
        return c.html(page('Not connected', `The authorization was not granted${error ? ` (${error})` : ''}.`), 400);
      const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
      try {
        const done = await finishGrant(deps, { code, state }, principal?.userId);
        return c.html(page('Connected', `"${done.name}" is connected with ${done.tools} tools. You can close this page.`), 200);
      } catch (thrown) {
        if (!(thrown instanceof DomainError)) throw thrown;
        const status = thrown.status === 403 || thrown.status === 404 ? thrown.status : 400;
        return c.html(page('Not connected', thrown.message), status);
      }
    })
    .openapi(routes.remove.route, async (c) => {
      await deleteConnection(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
