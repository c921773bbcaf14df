import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SERVICE_ROUTES, startAgentService, type AgentService } from '../../functions/agent-service/server.js';
import { STREAMABLE_ROUTES } from '../../shared/wiring/route-table.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * The agent loop as a service (functions/agent-service/server.ts, for Fargate): the app on a Node
 * HTTP server on loopback, answering the agent's routes only, reporting its queries in flight, and
 * stopping without losing a query it has started.
 */

let model: FakeModel;
let t: TestContext;
let service: AgentService;
const reports: number[] = [];
let base: string;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => ({ ...textReply('Use the reset link on the sign-in page.'), delayMs: 300 }));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  service = await startAgentService(
    { app: t.app, inFlight: t.deps.inFlight, logger: t.deps.logger },
    { port: 0, host: '127.0.0.1', reportEveryMs: 50, report: (running) => reports.push(running) },
  );
  base = `http://127.0.0.1:${service.port}`;
});
afterAll(async () => {
  await service.stop();
  await t.close();
  await model.stop();
});

async function workspace() {
  const admin = await t.signUp();
  const created = await t.createWorkspace(admin.cookie, { name: `Service ${t.uniqueEmail('ws')}` });
  return { cookie: admin.cookie, orgId: admin.org.id as string, workspaceId: created.id as string };
}

const ask = (cookie: string, workspaceId: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/workspaces/${workspaceId}/query`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: 'How do I reset my password?' }),
  });

describe('the agent service', () => {
  it('serves the agent routes and the streamable ones, and nothing else', async () => {
    const { cookie, workspaceId } = await workspace();
    // The streamable routes, which CloudFront sends here, are among the agent's.
    for (const entry of STREAMABLE_ROUTES) expect(AGENT_SERVICE_ROUTES).toContain(entry);

    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', queries_in_flight: 0 });

    const answered = await ask(cookie, workspaceId);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ answer: 'Use the reset link on the sign-in page.', error: null });

    // A route of the API function is not a door through the service.
    const other = await fetch(`${base}/api/workspaces`, { headers: { cookie } });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: 'no route for GET /api/workspaces' });
  });

  it('answers CORS as the HTTP API does, for the origins allowed, and nothing to another', async () => {
    const cors = await startAgentService(
      { app: t.app, inFlight: t.deps.inFlight, logger: t.deps.logger },
      { port: 0, host: '127.0.0.1', reportEveryMs: 60_000, report: () => {}, corsOrigins: ['https://app.example.com'] },
    );
    try {
      const { cookie, workspaceId } = await workspace();
      const preflight = (origin: string) =>
        fetch(`http://127.0.0.1:${cors.port}/api/workspaces/${workspaceId}/query`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
      const allowed = await preflight('https://app.example.com');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
      const refused = await preflight('https://evil.example.net');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const answered = await fetch(`http://127.0.0.1:${cors.port}/api/workspaces/${workspaceId}/query`, {
        method: 'POST',
        headers: { cookie, origin: 'https://app.example.com', 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'From the other origin' }),
      });
      expect(answered.status).toBe(200);
      expect(answered.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      // Without origins configured (the default service above), no CORS at all.
      const none = await fetch(`${base}/api/workspaces/${workspaceId}/query`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(none.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await cors.stop();
    }
  });

  it('reports its queries in flight while one runs', async () => {
    const { cookie, workspaceId } = await workspace();
    reports.length = 0;
    const answered = ask(cookie, workspaceId);
    await expect.poll(() => reports.includes(1), { timeout: 2000, interval: 20 }).toBe(true);
    expect((await answered).status).toBe(200);
    await expect.poll(() => reports.at(-1), { timeout: 2000, interval: 20 }).toBe(0);
  });

  it('stops taking requests at once, and keeps a streamed query whose client left until it is stored', async () => {
    const { cookie, orgId, workspaceId } = await workspace();
    const controller = new AbortController();
    const streamed = await fetch(`${base}/api/workspaces/${workspaceId}/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'Streamed, then left' }),
      signal: controller.signal,
    });
    expect(streamed.status).toBe(200);
    const reader = streamed.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: start');
    const conversationId = JSON.parse(first.split('data: ')[1]!.split('\n')[0]!).conversation_id as string;
    controller.abort(); // the client hangs up; the model has not answered yet

    const stopping = service.stop();
    const health = await fetch(`${base}/health`).catch(() => undefined);
    // Either the server has closed its door already, or it says it is stopping.
    if (health) expect(health.status).toBe(503);
    await stopping;
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    // The query went on to its end and was stored.
    const stored = await t.deps.table.get<{ message_count: number }>(conversationKey(orgId, workspaceId, conversationId), true);
    expect(stored?.message_count).toBe(2);
  });
});
