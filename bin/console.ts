import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { CONSOLE_CSP } from '../shared/http/console-policy.js';

/** Where `npm run build:web` (and `npm start`, on its first run) puts the console. */
export const CONSOLE_DIST = join(import.meta.dirname, '..', 'web', 'dist');

/** A request URL's path and query: from the first slash after the scheme's `//` (cheaper than parsing a URL per request). */
export function pathOf(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/**
 * Whether a request's URL is one the API answers (/api…, /scim/…, /hooks/… (routines' webhooks), /health, the MCP gateway's
 * authorization server: /oauth/… but the console's consent page, /.well-known/oauth-…); every other
 * path is the console's.
 */
export function isApiUrl(url: string): boolean {
  const path = pathOf(url);
  if (path.startsWith('/oauth/')) return !path.startsWith('/oauth/consent/');
  return (
    path.startsWith('/api/') ||
    path === '/api' ||
    path.startsWith('/api?') ||
    path.startsWith('/scim/') ||
    path.startsWith('/hooks/') ||
    path.startsWith('/health') ||
    path.startsWith('/.well-known/oauth-')
  );
}

/** Scripts, stylesheets and the page: what the build precompresses (web/build.ts). */
const COMPRESSIBLE = /^(text\/|application\/javascript)/;

/**
 * Serves the built console: hashed assets cached for a year, and `index.html` (never cached) for
 * every other path, so the single-page app's own routes (/workspaces/ws-1/dashboard) load on a
 * refresh or a shared link. As CloudFront does on AWS, a browser that accepts Brotli or gzip gets
 * the build's `.br` or `.gz` of a file, and every answer that could have been compressed says
 * `Vary: Accept-Encoding`, so a cache keeps the two apart.
 */
export function consoleApp(dist = CONSOLE_DIST) {
  const app = new Hono();
  app.use('*', secureHeaders({ contentSecurityPolicy: CONSOLE_CSP, crossOriginResourcePolicy: 'same-origin' }));
  app.use('*', async (c, next) => {
    await next();
    const vary = c.res.headers.get('Vary') ?? '';
    if (c.res.status === 200 && COMPRESSIBLE.test(c.res.headers.get('Content-Type') ?? '') && !/accept-encoding/i.test(vary)) {
      c.header('Vary', 'Accept-Encoding', { append: true });
    }
  });
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.get('/assets/*', serveStatic({ root: dist, precompressed: true }));
  app.get('/assets/*', (c) => c.text('not found', 404));
  const index = join(dist, 'index.html');
  const serveIndex = serveStatic({ path: index, precompressed: true });
  app.get('*', async (c, next) => {
    // Checked on each request: the console may be built after the runtime started.
    if (!existsSync(index)) {
      return c.text('The web console is not built yet: run `npm run build:web` (npm start builds it on its first run).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    return serveIndex(c, next);
  });
  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  return app;
}
