import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { bearerToken, limitBodies } from '../http/middleware.js';
import { clientErrorOf } from '../http/error-body.js';
import { scimRefusal, scimTypeOf } from './errors.js';
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from './groups.js';
import { resourceTypes, serviceProviderConfig } from './discovery.js';
import { ScimGroupInput, ScimListQuery, ScimPatchInput, ScimUserInput, SCHEMA } from './schemas.js';
import { scimBaseUrl, scimOrgOf } from './token.js';
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from './users.js';

/*
 * `/scim/v2`: provisioning by the organisation's identity provider (RFC 7644), authenticated by the
 * organisation's SCIM token, answered in `application/scim+json` with SCIM's error form. Not in the
 * OpenAPI document: the RFC is its reference (docs/sso.md, "Provisioning").
 */

interface ScimEnv {
  Variables: { orgId: string; baseUrl: string };
}

const MEDIA_TYPE = 'application/scim+json; charset=utf-8';

function scimJson(c: Context<ScimEnv>, body: unknown, status: ContentfulStatusCode = 200) {
  return c.body(JSON.stringify(body), status, { 'content-type': MEDIA_TYPE });
}

function errorBody(status: number, detail: string, scimType?: string) {
  return { schemas: [SCHEMA.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** A request body or query checked against its schema: 400 `invalidValue` (or `invalidSyntax` for unreadable JSON). */
async function bodyOf<S extends z.ZodTypeAny>(c: Context<ScimEnv>, schema: S): Promise<z.infer<S>> {
  const raw = await c.req.json().catch(() => {
    throw scimRefusal('unreadable_body', 'the request body is not JSON');
  });
  return parsed(schema, raw);
}

function parsed<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw scimRefusal('invalid', `${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`);
}

const queryOf = (c: Context<ScimEnv>) => parsed(ScimListQuery, c.req.query());
const withoutMembers = (c: Context<ScimEnv>) => /\bmembers\b/i.test(c.req.query('excludedAttributes') ?? '');

export function scimRoutes(deps: Deps) {
  const app = new Hono<ScimEnv>();
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    c.set('orgId', await scimOrgOf(deps, bearerToken(c.req.header('authorization'))));
    c.set('baseUrl', scimBaseUrl(deps, new URL(c.req.url).origin));
    return next();
  });
  app.use('*', limitBodies());

  app.get('/ServiceProviderConfig', (c) => scimJson(c, serviceProviderConfig(c.get('baseUrl'))));
  app.get('/ResourceTypes', (c) => scimJson(c, resourceTypes(c.get('baseUrl'))));

  app.get('/Users', async (c) => scimJson(c, await listScimUsers(deps, c.get('orgId'), queryOf(c), c.get('baseUrl'))));
  app.post('/Users', async (c) =>
    scimJson(c, await createScimUser(deps, c.get('orgId'), await bodyOf(c, ScimUserInput), c.get('baseUrl')), 201),
  );
  app.get('/Users/:id', async (c) => scimJson(c, await getScimUser(deps, c.get('orgId'), c.req.param('id'), c.get('baseUrl'))));
  app.put('/Users/:id', async (c) =>
    scimJson(c, await replaceScimUser(deps, c.get('orgId'), c.req.param('id'), await bodyOf(c, ScimUserInput), c.get('baseUrl'))),
  );
  app.patch('/Users/:id', async (c) => {
    const { Operations } = await bodyOf(c, ScimPatchInput);
    return scimJson(c, await patchScimUser(deps, c.get('orgId'), c.req.param('id'), Operations, c.get('baseUrl')));
  });
  app.delete('/Users/:id', async (c) => {
    await deleteScimUser(deps, c.get('orgId'), c.req.param('id'));
    return c.body(null, 204);
  });

  const shown = (c: Context<ScimEnv>) => ({ baseUrl: c.get('baseUrl'), withoutMembers: withoutMembers(c) });
  app.get('/Groups', async (c) => scimJson(c, await listScimGroups(deps, c.get('orgId'), queryOf(c), shown(c))));
  app.post('/Groups', async (c) =>
    scimJson(c, await createScimGroup(deps, c.get('orgId'), await bodyOf(c, ScimGroupInput), shown(c)), 201),
  );
  app.get('/Groups/:id', async (c) => scimJson(c, await getScimGroup(deps, c.get('orgId'), c.req.param('id'), shown(c))));
  app.put('/Groups/:id', async (c) =>
    scimJson(c, await replaceScimGroup(deps, c.get('orgId'), c.req.param('id'), await bodyOf(c, ScimGroupInput), shown(c))),
  );
  app.patch('/Groups/:id', async (c) => {
    const { Operations } = await bodyOf(c, ScimPatchInput);
    await patchScimGroup(deps, c.get('orgId'), c.req.param('id'), Operations);
    return c.body(null, 204);
  });
  app.delete('/Groups/:id', async (c) => {
    await deleteScimGroup(deps, c.get('orgId'), c.req.param('id'));
    return c.body(null, 204);
  });

  app.all('*', (c) => scimJson(c, errorBody(404, `no SCIM resource at ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    const known = clientErrorOf(error);
    if (known) return scimJson(c, errorBody(known.status, known.body.error, scimTypeOf(error)), known.status);
    deps.logger.error('unhandled SCIM error', { error, method: c.req.method, path: c.req.path });
    return scimJson(c, errorBody(500, 'internal server error'), 500);
  });
  return app;
}
