import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

let t: TestContext;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.signUp();
});
afterAll(async () => {
  await t.close();
});

describe('request bodies', () => {
  it('says a body that is not an object must be an object, in plain English', async () => {
    const list = await t.request('POST', '/api/workspaces', { body: [], cookie: admin.cookie });
    expect(list.status).toBe(400);
    expect(JSON.stringify(list.body)).toContain('must be an object');
  });

  it('answers 415 to a POST or PUT whose Content-Type is not JSON', async () => {
    const form = await t.request('POST', '/api/workspaces', {
      raw: 'name=Support',
      cookie: admin.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ error: 'request body must be application/json' });
    const text = await t.request('PUT', '/api/org', {
      raw: '{"name":"x"}',
      cookie: admin.cookie,
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const signup = await t.request('POST', '/api/signup', { raw: 'x', headers: { 'content-type': 'text/plain' } });
    expect(signup.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const response = await t.request('PUT', '/api/org', {
      raw: JSON.stringify({ name: 'Charset Org' }),
      cookie: admin.cookie,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
  });

  it('answers 400 with details to malformed JSON', async () => {
    const response = await t.request('POST', '/api/workspaces', {
      raw: '{"name": "Support",',
      cookie: admin.cookie,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/malformed json/i);
    expect(Array.isArray(response.body.details)).toBe(true);
  });

  it('answers 400 to a JSON body that is not an object', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const response = await t.request('POST', '/api/workspaces', {
        raw,
        cookie: admin.cookie,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, raw).toBe(400);
      expect(response.body.error).toBeTypeOf('string');
    }
  });

  it('answers 400 to a body-requiring route called without a body', async () => {
    const response = await t.request('POST', '/api/workspaces', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.details.length).toBeGreaterThan(0);
  });

  it('answers 413 to a body over 1 MiB, declared or not, and writes nothing', async () => {
    const huge = JSON.stringify({ name: 'Huge', system_prompt: 'x'.repeat(1024 * 1024) });
    const declared = await t.request('POST', '/api/workspaces', {
      raw: huge,
      cookie: admin.cookie,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(huge)) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ error: 'request body is larger than 1 MiB' });
    const undeclared = await t.request('POST', '/api/workspaces', {
      raw: huge,
      cookie: admin.cookie,
      headers: { 'content-type': 'application/json' },
    });
    expect(undeclared.status).toBe(413);
    const list = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(list.body.workspaces.filter((workspace: { name: string }) => workspace.name === 'Huge')).toEqual([]);
  });

  it('accepts a body just under 1 MiB (and validates it on its merits)', async () => {
    const body = JSON.stringify({ name: 'Big prompt', system_prompt: 'x'.repeat(1024 * 1024 - 200) });
    const response = await t.request('POST', '/api/workspaces', {
      raw: body,
      cookie: admin.cookie,
      headers: { 'content-type': 'application/json' },
    });
    // Under the size limit, so it reaches validation: the prompt is over 100 000 characters.
    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe('system_prompt');
  });
});

describe('routes and errors', () => {
  it('answers 404 with { error } to an unknown route', async () => {
    const response = await t.request('GET', '/api/nothing-here', { cookie: admin.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error).toBeTypeOf('string');
    const outside = await t.request('GET', '/not-api');
    expect(outside.status).toBe(404);
  });

  it('answers 401 to an API route without a session, before validating anything', async () => {
    const response = await t.request('POST', '/api/workspaces', { body: {} });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'authentication required' });
  });

  it('answers 500 with a generic message when something unexpected fails, and logs the details', async () => {
    const failure = new Error('store exploded: secret internals');
    const spy = vi.spyOn(t.deps.table, 'queryAll').mockRejectedValueOnce(failure);
    const response = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    spy.mockRestore();
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'internal server error' });
    expect(response.text).not.toContain('exploded');
    expect(response.text).not.toContain('at ');
    expect(t.logger.text()).toContain('store exploded');
  });

  it('sets security headers and no-store on API answers, and no framework banner', async () => {
    const response = await t.request('GET', '/api/org', { cookie: admin.cookie });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-powered-by')).toBeNull();
    const error = await t.request('GET', '/api/org');
    expect(error.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET /api/openapi.json', () => {
  it('is public, OpenAPI 3.1, and documents every route with its security', async () => {
    const response = await t.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths as Record<string, Record<string, { security?: unknown }>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const expected of [
      'GET /health',
      'POST /api/signup',
      'POST /api/auth/login',
      'GET /api/auth/session',
      'GET /api/auth/logout',
      'GET /api/models',
      'GET /api/org',
      'PUT /api/org',
      'GET /api/org/settings',
      'PUT /api/org/settings/{key}',
      'DELETE /api/org/settings/{key}',
      'GET /api/org/users',
      'POST /api/org/users',
      'GET /api/teams',
      'POST /api/teams',
      'GET /api/workspaces',
      'POST /api/workspaces',
      'GET /api/workspaces/{id}/summary',
      'GET /api/workspaces/{id}',
      'PUT /api/workspaces/{id}',
      'GET /api/workspaces/{id}/dashboard',
      'GET /api/workspaces/{id}/activity',
      'GET /api/workspaces/{id}/connections',
      'GET /api/workspaces/{id}/consumers',
      'GET /api/workspaces/{id}/knowledge',
      'GET /api/workspaces/{id}/compliance',
      'GET /api/workspaces/{id}/conversations',
      'GET /api/workspaces/{id}/conversations/{cid}',
    ]) {
      expect(operations).toContain(expected);
    }
    expect(document.components.securitySchemes.cookieAuth).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'service_session' });
    expect(document.paths['/api/org'].get.security).toEqual([{ cookieAuth: [] }]);
    expect(document.paths['/api/signup'].post.security).toBeUndefined();
    // Bodies reference the same zod schemas that validate them.
    expect(document.components.schemas.CreateWorkspaceRequest.required).toContain('name');
  });
});

describe('createApp without the agent routes (the API function on AWS)', () => {
  it('documents the same operations, and answers 404 to the routes it leaves to the agent function', async () => {
    const { createApp } = await import('../../shared/wiring/app.js');
    const { apiRoutes } = await import('../../shared/wiring/api-routes.js');
    const core = createApp(t.deps, { routes: apiRoutes(t.deps), serves: ['api'] });
    const documented = async (app: { request: (path: string) => Response | Promise<Response> }) => {
      const document = (await (await app.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
      return Object.entries(document.paths)
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
        .sort();
    };
    const coreOperations = await documented(core);
    expect(coreOperations).toEqual(await documented(t.app));
    expect(coreOperations).toContain('post /api/workspaces/{id}/query');
    expect(coreOperations).toContain('post /api/connectors/mcp');
    const query = await core.request('/api/workspaces/ws-x/query', {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'hi' }),
    });
    expect(query.status).toBe(404);
    const org = await core.request('/api/org', { headers: { cookie: admin.cookie } });
    expect(org.status).toBe(200);
  });
});

describe('display names', () => {
  it('refuse lone surrogates', async () => {
    const response = await t.request('POST', '/api/workspaces', { cookie: admin.cookie, body: { name: 'broken \uD800 name' } });
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toMatchObject({ path: 'name', message: expect.stringContaining('well-formed') });
  });
});
