import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationKey, conversationList } from '../../shared/conversations/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * A matrix generated from the OpenAPI document, so a route added later is covered without
 * touching this file (or fails here until it gets a valid body below).
 */

interface Operation {
  method: string;
  path: string;
  secured: boolean;
  adminOnly: boolean;
  hasBody: boolean;
  /** Only a consumer's Bearer key can use it (no session): covered by the consumer tests. */
  keyOnly: boolean;
}

/** A valid body for each operation that takes one, so the answer is decided by who asks, not by validation. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/signup': { name: 'Body Test', email: 'body-test@example.com', password: 'long enough' },
  'POST /api/auth/login': { email: 'nobody@example.com', password: 'whatever' },
  'PUT /api/org': { name: 'Renamed' },
  'PUT /api/org/settings/{key}': { value: 'anthropic' },
  'POST /api/org/users': { name: 'New', email: 'matrix-new@example.com', password: 'long enough', org_role: 'member' },
  'PUT /api/org/users/{id}': { org_role: 'member' },
  'PUT /api/org/users/{id}/password': { password: 'long enough' },
  'PUT /api/me': { name: 'Matrix Me' },
  // The member of the roles matrix (test/support/context.ts addMember) changing their own password.
  'POST /api/me/password': { current_password: 'member password', new_password: 'member password 2' },
  'POST /api/org/invitations': { email: 'matrix-invited@example.com', org_role: 'member' },
  'POST /api/invitations/{token}/accept': { name: 'Matrix Invited', password: 'long enough' },
  'POST /api/org/budgets': { scope: 'org', period: 'day', limit_usd: 5 },
  'POST /api/org/sso/test': { issuer: 'http://127.0.0.1:9/nowhere', client_id: 'wap' },
  'PUT /api/org/sso': {
    issuer: 'https://login.matrix.test',
    client_id: 'wap',
    client_secret: 'matrix secret',
    domains: ['matrix.test'],
    default_role: 'member',
    required: false,
  },
  'PUT /api/org/budgets/{id}': { limit_usd: 50 },
  'POST /api/workspaces/{id}/evals': { name: 'Matrix eval', cases: [{ question: 'hello?', expect: { contains: ['hi'] } }] },
  'PUT /api/workspaces/{id}/evals/{eval_id}': { name: 'Matrix eval 2' },
  'POST /api/workspaces/{id}/evals/{eval_id}/runs': {},
  'POST /api/workspaces/{id}/routines': { name: 'Matrix routine', prompt: 'hello?', trigger: { schedule: '0 8 * * *' } },
  'PUT /api/workspaces/{id}/routines/{routine_id}': { name: 'Matrix routine 2' },
  'POST /api/workspaces/{id}/routines/{routine_id}/secret': { keep_old_for_minutes: 5 },
  'POST /api/teams': { name: 'Matrix team' },
  'POST /api/workspaces': { name: 'Matrix workspace' },
  'PUT /api/workspaces/{id}': { name: 'Renamed workspace' },
  'POST /api/workspaces/{id}/query': { query: 'hello?' },
  // The test environment's catalogue entry whose script is missing: fails fast, starts nothing lasting.
  'POST /api/connectors/mcp/test': { transport: 'stdio', command: 'node', args: ['test/fixtures/no-such-server.mjs'] },
  'PUT /api/connections/{id}': { name: 'Renamed matrix' },
  'POST /api/connectors/mcp': {
    workspace_id: 'ws-filled-per-test',
    name: 'Matrix',
    transport: 'stdio',
    command: 'node',
    args: ['test/fixtures/no-such-server.mjs'],
  },
  'POST /api/org/integrations/test': { type: 'team-chat', credentials: { bot_token: 'xoxb-matrix' } },
  'PATCH /api/workspaces/{id}/conversations/{cid}': { title: 'Renamed chat', pinned: true },
  'POST /api/org/settings/model': { provider: 'anthropic', api_key: 'sk-ant-matrix' },
  'POST /api/oauth/interactions/{uid}': { decision: 'deny' },
  'POST /api/connectors/consumer': {
    type: 'team-chat',
    workspace_id: 'ws-filled-per-test',
    credentials: { bot_token: 'xoxb-m', app_token: 'xapp-m' },
  },
  'POST /api/connectors/consumer/channel': { type: 'team-chat', workspace_id: 'ws-filled-per-test', channel_id: 'CMATRIX1' },
  'POST /api/workspaces/{id}/knowledge': { title: 'Matrix', content: 'entry' },
  'PUT /api/workspaces/{id}/knowledge/{kid}': { title: 'Matrix 2' },
  'POST /api/workspaces/{id}/knowledge/documents': { url: 'https://docs.example.com/handbook.md' },
  'POST /api/workspaces/{id}/knowledge/uploads': { filename: 'matrix.md', bytes: 100 },
  'POST /api/workspaces/{id}/guardrails': { preset: 'email' },
  'PUT /api/workspaces/{id}/guardrails/{gid}': { enabled: false },
  'PUT /api/workspaces/{id}/permissions/{role}': { tool_patterns: ['search_*'] },
  'POST /api/consumers/{id}/messages': { user: 'Matrix', text: 'hello', thread_id: 't-1' },
  'POST /api/workspaces/{id}/conversations/{cid}/messages/{seq}/feedback': { rating: 'up', comment: 'Helpful.' },
  'POST /api/workspaces/{id}/approvals/{approval_id}': { decision: 'approve' },
};

/** A valid query string for each route that needs one (by path), for the same reason. */
const VALID_QUERIES: Record<string, string> = {
  '/api/workspaces/{id}/tools/search': 'q=create%20a%20ticket',
  '/api/workspaces/{id}/knowledge/search': 'q=refunds',
};

let t: TestContext;
let operations: Operation[];
let victim: {
  cookie: string;
  workspaceId: string;
  conversationId: string;
  connectionId: string;
  budgetId: string;
  evalId: string;
  runId: string;
  documentId: string;
  routineId: string;
};

/** An evaluation of the victim's workspace with one finished run. */
async function victimEvaluation(cookie: string, workspaceId: string): Promise<{ evalId: string; runId: string }> {
  const created = await t.request('POST', `/api/workspaces/${workspaceId}/evals`, {
    cookie,
    body: { name: 'Victim eval', cases: [{ question: 'Victim question?', expect: { contains: ['x'] } }] },
  });
  expect(created.status, created.text).toBe(201);
  const run = await t.request('POST', `/api/workspaces/${workspaceId}/evals/${created.body.eval.id}/runs`, { cookie, body: {} });
  expect(run.status, run.text).toBe(202);
  await t.runner.idle();
  return { evalId: created.body.eval.id, runId: run.body.run.id };
}
let attacker: { cookie: string };
let member: { cookie: string; workspaceId: string };

function fill(
  path: string,
  ids: {
    workspaceId: string;
    conversationId?: string;
    connectionId?: string;
    budgetId?: string;
    evalId?: string;
    runId?: string;
    documentId?: string;
    routineId?: string;
  },
): string {
  const query = VALID_QUERIES[path];
  const filled = path
    .replace('/api/connections/{id}', `/api/connections/${ids.connectionId ?? 'conn_none'}`)
    .replace('/api/org/budgets/{id}', `/api/org/budgets/${ids.budgetId ?? 'bud_none'}`)
    .replace('{id}', ids.workspaceId)
    .replace('{cid}', ids.conversationId ?? 'conv-none')
    .replace('{seq}', '2')
    .replace('{approval_id}', 'appr_none')
    .replace('{key}', 'ai_provider')
    .replace('{channel_id}', 'CMATRIX1')
    .replace('{kid}', 'kn_none')
    .replace('{doc_id}', ids.documentId ?? 'kd_none')
    .replace('{gid}', 'gr_none')
    .replace('{role}', 'member')
    .replace('{token}', 'never-issued-link-token-0123456789')
    .replace('{link_id}', 'T0NONE-U0NONE')
    .replace('{eval_id}', ids.evalId ?? 'eval_none')
    .replace('{run_id}', ids.runId ?? 'run_none')
    .replace('{routine_id}', ids.routineId ?? 'rtn_none');
  return query ? `${filled}?${query}` : filled;
}

beforeAll(async () => {
  t = await createTestContext();
  const document = (await t.request('GET', '/api/openapi.json')).body as {
    paths: Record<
      string,
      Record<string, { security?: object[]; responses: Record<string, { description?: string }>; requestBody?: unknown }>
    >;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      secured: (operation.security?.length ?? 0) > 0,
      // The admin routes' 403 says so; a route may also answer 403 for other reasons (closing another's conversation).
      adminOnly: operation.responses['403']?.description === 'needs the admin role',
      hasBody: operation.requestBody !== undefined,
      keyOnly:
        (operation.security ?? []).length > 0 &&
        (operation.security ?? []).every((scheme) => 'apiKey' in (scheme as object) && !('cookieAuth' in (scheme as object))),
    })),
  );

  const victimAdmin = await t.signUp({ org_name: 'Victim' });
  const workspace = await t.createWorkspace(victimAdmin.cookie, { name: 'Victim workspace' });
  const conversationId = 'conv-victim';
  const now = t.clock.now().toISOString();
  await t.deps.table.put({
    ...conversationKey(victimAdmin.org.id, workspace.id, conversationId),
    id: conversationId,
    workspace_id: workspace.id,
    status: 'open',
    gsi1pk: conversationList(victimAdmin.org.id, workspace.id),
    gsi1sk: `${now}#${conversationId}`,
    first_message_at: now,
    last_activity_at: now,
  });
  const connection = await t.request('POST', '/api/connectors/mcp', {
    cookie: victimAdmin.cookie,
    body: {
      workspace_id: workspace.id,
      name: 'Victim tools',
      transport: 'stdio',
      command: 'node',
      args: ['test/fixtures/no-such-server.mjs'],
    },
  });
  expect(connection.status).toBe(201);
  const budget = await t.request('POST', '/api/org/budgets', {
    cookie: victimAdmin.cookie,
    body: { scope: 'org', period: 'month', limit_usd: 100 },
  });
  expect(budget.status).toBe(201);
  const form = new FormData();
  form.append('file', new File(['# Refunds\n\nRefunds take 5 days.'], 'refunds.md', { type: 'text/markdown' }));
  const knowledgeDocument = await t.request('POST', `/api/workspaces/${workspace.id}/knowledge/documents`, {
    cookie: victimAdmin.cookie,
    raw: form,
  });
  expect(knowledgeDocument.status).toBe(202);
  const routine = await t.request('POST', `/api/workspaces/${workspace.id}/routines`, {
    cookie: victimAdmin.cookie,
    body: { name: 'Victim routine', prompt: 'Victim prompt', trigger: { webhook: true } },
  });
  expect(routine.status, routine.text).toBe(201);
  victim = {
    routineId: routine.body.routine.id,
    documentId: knowledgeDocument.body.document.id,
    cookie: victimAdmin.cookie,
    workspaceId: workspace.id,
    conversationId,
    connectionId: connection.body.id,
    budgetId: budget.body.budget.id,
    ...(await victimEvaluation(victimAdmin.cookie, workspace.id)),
  };
  attacker = { cookie: (await t.signUp({ org_name: 'Attacker' })).cookie };
  const memberAdmin = await t.signUp({ org_name: 'Members' });
  const memberWorkspace = await t.createWorkspace(memberAdmin.cookie, { name: 'Member workspace' });
  member = { cookie: (await t.addMember(memberAdmin.cookie)).cookie, workspaceId: memberWorkspace.id };
});

afterAll(async () => {
  await t.close();
});

function bodyFor(operation: Operation, workspaceId?: string): unknown {
  if (!operation.hasBody) return undefined;
  const key = `${operation.method} ${operation.path}`;
  const body = VALID_BODIES[key];
  if (body === undefined) throw new Error(`add a valid body for ${key} to VALID_BODIES`);
  // Bodies that name a workspace name the one under test.
  return workspaceId && typeof body === 'object' && body !== null && 'workspace_id' in body ? { ...body, workspace_id: workspaceId } : body;
}

describe('tenant isolation', () => {
  it('has routes with ids to check', () => {
    expect(operations.filter((operation) => operation.path.includes('{id}')).length).toBeGreaterThanOrEqual(11);
  });

  it("answers 404 to another organisation's admin on every route that takes a workspace or connection id", async () => {
    const withIds = operations.filter(
      (candidate) => !candidate.keyOnly && (candidate.path.includes('{id}') || candidate.path === '/api/connectors/mcp'),
    );
    for (const operation of withIds) {
      const path = fill(operation.path, victim);
      const response = await t.request(operation.method, path, { cookie: attacker.cookie, body: bodyFor(operation, victim.workspaceId) });
      expect(response.status, `${operation.method} ${path}`).toBe(404);
      expect(response.body.error, `${operation.method} ${path}`).toBeTypeOf('string');
      expect(response.text).not.toContain('Victim workspace');
    }
  });

  it('still answers the owner on the same routes (the 404s above are about tenancy)', async () => {
    for (const operation of operations.filter(
      (candidate) => !candidate.keyOnly && candidate.path.includes('{id}') && candidate.method === 'GET',
    )) {
      const path = fill(operation.path, victim);
      const response = await t.request(operation.method, path, { cookie: victim.cookie });
      expect(response.status, `${operation.method} ${path}`).toBe(200);
    }
  });

  it('leaves the victim workspace unchanged after the attempts', async () => {
    const summary = await t.request('GET', `/api/workspaces/${victim.workspaceId}/summary`, { cookie: victim.cookie });
    expect(summary.body.workspace.name).toBe('Victim workspace');
    const connections = await t.request('GET', `/api/workspaces/${victim.workspaceId}/connections`, { cookie: victim.cookie });
    expect(connections.body.connections.map((c: { id: string }) => c.id)).toEqual([victim.connectionId]);
    const activity = await t.request('GET', `/api/workspaces/${victim.workspaceId}/activity`, { cookie: victim.cookie });
    expect(activity.body.total).toBe(0);
  });
});

describe('roles', () => {
  it('answers 403 to a member on every admin-only route', async () => {
    const adminOnly = operations.filter((operation) => operation.adminOnly && !operation.keyOnly);
    expect(adminOnly.length).toBeGreaterThanOrEqual(8);
    for (const operation of adminOnly) {
      const path = fill(operation.path, { workspaceId: member.workspaceId });
      const response = await t.request(operation.method, path, { cookie: member.cookie, body: bodyFor(operation, member.workspaceId) });
      expect(response.status, `${operation.method} ${path}`).toBe(403);
      expect(response.body).toEqual({ error: 'this action needs the admin role' });
    }
  });

  it('lets a member use every route that is not admin-only', async () => {
    const open = operations.filter((operation) => operation.secured && !operation.adminOnly && !operation.keyOnly);
    for (const operation of open) {
      const path = fill(operation.path, { workspaceId: member.workspaceId, conversationId: 'conv-none' });
      const response = await t.request(operation.method, path, { cookie: member.cookie, body: bodyFor(operation) });
      // No conversation, approval, connection, chat link, link request, MCP sign-in request, document or routine of the member's organisation is named here.
      const named = ['{cid}', '{approval_id}', '{token}', '{link_id}', '{eval_id}', '{uid}', '{doc_id}', '{routine_id}'].some((param) =>
        operation.path.includes(param),
      );
      const noneOfTheirs = operation.path.startsWith('/api/connections/{id}') || operation.path.startsWith('/api/me/clients/{id}');
      const expected = named || noneOfTheirs ? 404 : 200;
      expect(response.status, `${operation.method} ${path}`).toBe(expected);
    }
  });
});

describe('authentication', () => {
  it('answers 401 without a cookie on every secured route', async () => {
    const secured = operations.filter((operation) => operation.secured);
    expect(secured.length).toBeGreaterThan(20);
    for (const operation of secured) {
      const path = fill(operation.path, victim);
      const response = await t.request(operation.method, path, { body: bodyFor(operation) });
      expect(response.status, `${operation.method} ${path}`).toBe(401);
    }
  });

  it('marks as public exactly the public endpoints of docs/api-decisions.md', () => {
    const publicOperations = operations.filter((operation) => !operation.secured).map((o) => `${o.method} ${o.path}`);
    expect(publicOperations.sort()).toEqual(
      [
        'GET /health',
        'POST /api/signup',
        'GET /api/signup',
        'POST /api/auth/login',
        'GET /api/auth/session',
        'GET /api/auth/logout',
        'POST /api/auth/logout',
        'GET /api/models',
        'GET /api/connectors/mcp/oauth/callback',
        'GET /api/auth/sso',
        'GET /api/auth/sso/callback',
        'GET /api/invitations/{token}',
        'POST /api/invitations/{token}/accept',
        'POST /api/knowledge-uploads/{upload_id}',
      ].sort(),
    );
  });
});

describe('secrets', () => {
  it('never appear in full in any GET answer or in the log, once set', async () => {
    const secrets = {
      ai_api_key: 'sk-ant-sweep-0123456789-abcdefghijklmnop',
      chat_bot_token: 'xoxb-sweep-9876543210-zyxwvutsrq',
      chat_app_token: 'xapp-sweep-1357924680-qwertyuiop',
    };
    for (const [key, value] of Object.entries(secrets)) {
      const saved = await t.request('PUT', `/api/org/settings/${key}`, { cookie: victim.cookie, body: { value } });
      expect(saved.status).toBe(200);
      expect(saved.text).not.toContain(value);
    }
    const gets = operations.filter((operation) => operation.method === 'GET');
    expect(gets.length).toBeGreaterThan(15);
    for (const operation of gets) {
      const response = await t.request('GET', fill(operation.path, victim), { cookie: victim.cookie });
      for (const value of Object.values(secrets)) {
        expect(response.text, `${operation.path}`).not.toContain(value);
        // Not even a long fragment of it.
        expect(response.text, `${operation.path}`).not.toContain(value.slice(0, 12));
      }
    }
    const settings = await t.request('GET', '/api/org/settings', { cookie: victim.cookie });
    expect(settings.body.settings.ai_api_key).toBe('••••••••mnop');
    for (const value of Object.values(secrets)) expect(t.logger.text()).not.toContain(value);
  });
});
