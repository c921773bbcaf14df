import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { connectTeamChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startRuntimeProcess } from '../support/runtime-process.js';
import { startFakeChat } from '../support/fake-chat.js';
import {
  errorReply,
  startFakeModel,
  textReply,
  toolUseReply,
  type FakeReply,
  type ModelRequestRecord,
  isStatsRequest,
} from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';

/**
 * Fault injection: parts of the system fail while the service works — an MCP server dies mid
 * call, the model API throttles or fails, the store drops requests, the local runtime is killed
 * with jobs running, the team-chat bridge restarts in a thread. Each test starts its own servers
 * on 127.0.0.1 and stops them itself; none outlives it.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = <T>(check: () => T | Promise<T>, timeout = 8_000) => vi.waitFor(check, { timeout, interval: 25 });

/** The tool_result blocks of the last message of a model request. */
function toolResultsOf(request: ModelRequestRecord | undefined) {
  return (request?.body.messages.at(-1)?.content ?? []) as { type: string; tool_use_id: string; content: string; is_error?: boolean }[];
}

/** Cost in USD of a number of tokens at a tier's per-million prices. */
const priced = (input: number, output: number, inputPerMtok: number, outputPerMtok: number) =>
  (input * inputPerMtok + output * outputPerMtok) / 1e6;

/** A stats reply: the forced tool call the conversation-stats job expects. */
function statsReply(usage = { input_tokens: 1000, output_tokens: 100 }): FakeReply {
  return toolUseReply(
    [
      {
        name: 'record_conversation_stats',
        input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'query', summary: 'Asked a question; got an answer.' },
      },
    ],
    usage,
  );
}

/** Signs up, creates a workspace (with optional HTTP MCP connections) on a test context. */
async function workspaceOn(t: TestContext, connections: { name: string; url: string }[] = []) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Faults ${t.uniqueEmail('ws')}` });
  for (const connection of connections) await t.connectMcp(admin.cookie, workspace.id, connection);
  return { admin, workspaceId: workspace.id };
}

describe('an MCP server that dies', () => {
  it('killed in the middle of a tool call: the failure goes to the model as an error result, the query answers 200, and a later query names the connection unreachable', async () => {
    const model = await startFakeModel();
    const server = await startHttpMcpServer({
      name: 'dying-server',
      tools: [
        {
          name: 'slow_lookup',
          description: 'Looks something up, slowly',
          annotations: { readOnlyHint: true },
          run: () => new Promise((resolve) => setTimeout(() => resolve('found it'), 500)),
        },
      ],
    });
    let serverStopped = false;
    const t = await createTestContext({
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MCP_TIMEOUT_MS: '5000', MODEL_MAX_RETRIES: '0' },
    });
    try {
      const { admin, workspaceId } = await workspaceOn(t, [{ name: 'Lookup', url: server.url }]);
      model.reply(
        toolUseReply([{ name: 'slow_lookup', input: { query: 'order 42' } }]),
        textReply('The lookup service is down right now; please try again later.'),
      );
      const pending = t.request('POST', `/api/workspaces/${workspaceId}/query`, {
        cookie: admin.cookie,
        body: { query: 'Where is order 42?' },
      });
      // The call reached the server and is waiting in the tool: kill the server now.
      await waitFor(() => expect(server.stats.toolCalls).toBe(1), 5_000);
      await server.stop();
      serverStopped = true;
      const response = await pending;

      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        answer: 'The lookup service is down right now; please try again later.',
        tools_called: ['slow_lookup'],
        connections_hit: ['Lookup'],
        error: null,
      });
      expect(model.requests).toHaveLength(2);
      const [result] = toolResultsOf(model.requests[1]);
      expect(result).toMatchObject({ type: 'tool_result', is_error: true });
      expect(result?.content).toMatch(/^tool slow_lookup failed: /);
      expect(result?.content).not.toContain('found it');

      // The server is gone: the next query fails cleanly before the model, naming the connection.
      model.reset();
      model.handle(() => textReply('should not be asked'));
      const later = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
        cookie: admin.cookie,
        body: { query: 'And now?', session_id: response.body.session_id },
      });
      expect(later.status, later.text).toBe(200);
      expect(later.body).toMatchObject({
        answer: '',
        tools_called: [],
        tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
        cost_usd: 0,
      });
      expect(later.body.error).toMatch(/MCP connection "Lookup" is unreachable/);
      expect(model.requests).toHaveLength(0);

      // Both queries are on record, the conversation has the 2 + 1 messages that happened.
      const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
      expect(activity.body.total).toBe(2);
      expect(activity.body.activity.map((entry: { error: string | null }) => entry.error === null)).toEqual([false, true]);
      const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${response.body.conversation_id}`, {
        cookie: admin.cookie,
      });
      expect(detail.body.conversation.message_count).toBe(3);
      expect(detail.body.messages.map((m: { seq: number; role: string }) => [m.seq, m.role])).toEqual([
        [1, 'user'],
        [2, 'assistant'],
        [3, 'user'],
      ]);
    } finally {
      await t.close();
      if (!serverStopped) await server.stop();
      await model.stop();
    }
  });
});

describe('a model API that throttles and fails', () => {
  it('retries a 429 with retry-after and answers; bounds the retries of 529 and 500 and answers 200 with an error; the records agree', async () => {
    const model = await startFakeModel();
    const t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '2' } });
    try {
      const { admin, workspaceId } = await workspaceOn(t);
      const ask = (query: string, sessionId?: string) =>
        t.request('POST', `/api/workspaces/${workspaceId}/query`, {
          cookie: admin.cookie,
          body: { query, ...(sessionId ? { session_id: sessionId } : {}) },
        });

      // 429 then 200: answered after one retry.
      model.reply(errorReply(429, 'slow down', { 'retry-after-ms': '10' }), textReply('answered after the wait'));
      const throttled = await ask('first question');
      expect(throttled.status, throttled.text).toBe(200);
      expect(throttled.body).toMatchObject({ answer: 'answered after the wait', error: null });
      expect(model.requests).toHaveLength(2);
      const sessionId = throttled.body.session_id as string;
      const answeredCost = throttled.body.cost_usd as number;
      expect(answeredCost).toBeCloseTo(priced(100, 20, 3, 15), 9);

      // 529 for ever: 1 request + MODEL_MAX_RETRIES (2) retries, then a clean error.
      model.reset();
      model.handle(() => errorReply(529, 'overloaded', { 'retry-after-ms': '10' }));
      const overloaded = await ask('second question', sessionId);
      expect(overloaded.status, overloaded.text).toBe(200);
      expect(overloaded.body).toMatchObject({
        answer: '',
        tools_called: [],
        tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
        cost_usd: 0,
        session_id: sessionId,
      });
      expect(overloaded.body.error).toMatch(/model API answered 529/);
      expect(model.requests).toHaveLength(3);

      // 500 for ever, without retry-after (the SDK's own backoff): the same bound.
      model.reset();
      model.handle(() => errorReply(500, 'internal failure'));
      const failing = await ask('third question', sessionId);
      expect(failing.status, failing.text).toBe(200);
      expect(failing.body.error).toMatch(/model API answered 500/);
      expect(failing.body.cost_usd).toBe(0);
      expect(model.requests).toHaveLength(3);

      // Once the model is back, the same conversation goes on.
      model.reset();
      model.handle(() => textReply('back again'));
      const recovered = await ask('fourth question', sessionId);
      expect(recovered.body).toMatchObject({ answer: 'back again', error: null });
      // The history sent holds the questions; the failed turns' empty answers are not sent.
      const sent = model.requests[0]?.body.messages.flatMap((m) => (m.content as { text?: string }[]).map((part) => part.text));
      expect(sent).toEqual(['first question', 'answered after the wait', 'second question', 'third question', 'fourth question']);

      // The records: four queries, two with errors; one conversation of 8 messages costing the two answers.
      const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
      expect(activity.body.total).toBe(4);
      expect(activity.body.activity).toHaveLength(4);
      expect(
        activity.body.activity.map((entry: { query: string; error: string | null }) => [entry.query, entry.error?.slice(0, 24) ?? null]),
      ).toEqual([
        ['fourth question', null],
        ['third question', 'model API answered 500: '],
        ['second question', 'model API answered 529: '],
        ['first question', null],
      ]);
      const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${sessionId}`, { cookie: admin.cookie });
      expect(detail.status).toBe(200);
      expect(detail.body.conversation.message_count).toBe(8);
      expect(detail.body.messages).toHaveLength(8);
      expect(detail.body.messages.map((m: { seq: number; role: string; content: string }) => [m.seq, m.role, m.content])).toEqual([
        [1, 'user', 'first question'],
        [2, 'assistant', 'answered after the wait'],
        [3, 'user', 'second question'],
        [4, 'assistant', ''],
        [5, 'user', 'third question'],
        [6, 'assistant', ''],
        [7, 'user', 'fourth question'],
        [8, 'assistant', 'back again'],
      ]);
      expect(detail.body.conversation.total_cost_usd).toBeCloseTo(answeredCost + recovered.body.cost_usd, 9);
      const workspace = await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie });
      expect(workspace.body.stats).toMatchObject({ today: 4, error_rate: 0.5 });
      const list = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
      expect(list.body.workspaces.find((w: { id: string }) => w.id === workspaceId)).toMatchObject({ queries_today: 4 });
      const conversations = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie: admin.cookie });
      expect(conversations.body.total).toBe(1);
    } finally {
      await t.close();
      await model.stop();
    }
  });

  it('does not follow a redirect: the query answers with the status, and the API key never reaches where it points', async () => {
    const elsewhere = await startFakeModel();
    elsewhere.handle(() => textReply('should not be asked'));
    const model = await startFakeModel();
    model.handle(() => errorReply(307, 'moved', { location: `${elsewhere.url}/v1/messages` }));
    const t = await createTestContext({
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-redirected-key', MODEL_MAX_RETRIES: '2' },
    });
    try {
      const { admin, workspaceId } = await workspaceOn(t);
      const answer = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: admin.cookie, body: { query: 'hello' } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ answer: '', cost_usd: 0 });
      expect(answer.body.error).toMatch(/^model API answered 307/);
      // Asked once (a 3xx is not retried), with the key; the redirect's target never.
      expect(model.requests).toHaveLength(1);
      expect(model.requests[0]?.headers.authorization).toBe('Bearer sk-redirected-key');
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await t.close();
      await model.stop();
      await elsewhere.stop();
    }
  });
});

/**
 * An HTTP proxy in front of the store that answers every `failEvery`-th first attempt with a
 * DynamoDB InternalServerError (500) without forwarding it. Retries (`amz-sdk-request: attempt=N`
 * with N > 1, as the store client and the AWS SDK send it) always pass, so the client's retries
 * absorb every failure.
 */
async function startFaultyStoreProxy(target: string, failEvery: number) {
  const upstream = new URL(target);
  const stats = { requests: 0, injected: 0, retries: 0 };
  let firstAttempts = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      stats.requests += 1;
      const attempt = Number(/attempt=(\d+)/.exec(String(req.headers['amz-sdk-request'] ?? ''))?.[1] ?? '1');
      if (attempt > 1) stats.retries += 1;
      else {
        firstAttempts += 1;
        if (firstAttempts % failEvery === 0) {
          stats.injected += 1;
          res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `injected-${stats.injected}` });
          res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'injected' }));
          return;
        }
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a store that fails some requests', () => {
  it("absorbs the failures with the store client's retries: no 500, and messages, counters, conversations and jobs match the successful queries", async () => {
    const model = await startFakeModel();
    model.handle((request) => (isStatsRequest(request) ? statsReply() : textReply('stored answer')));
    let proxy: Awaited<ReturnType<typeof startFaultyStoreProxy>> | undefined;
    const t = await createTestContext({
      env: {
        TABLE_NAME: 'faults-test',
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'k',
        MODEL_MAX_RETRIES: '0',
        JOB_RETRY_BASE_MS: '10',
      },
      storeProxy: async (endpoint) => (proxy = await startFaultyStoreProxy(endpoint, 4)),
    });
    const statuses: number[] = [];
    async function call(method: string, path: string, cookie?: string, body?: unknown) {
      const response = await t.request(method, path, { cookie, body });
      statuses.push(response.status);
      return response;
    }
    try {
      const signup = await call('POST', '/api/signup', undefined, {
        name: 'Store Faults',
        email: 'store-faults@example.com',
        password: 'a long password',
      });
      expect(signup.status, signup.text).toBe(201);
      const cookie = /service_session=[^;]*/.exec(signup.headers.get('set-cookie') ?? '')?.[0] ?? '';
      const workspace = await call('POST', '/api/workspaces', cookie, { name: 'Flaky store' });
      expect(workspace.status, workspace.text).toBe(201);
      const workspaceId = workspace.body.id as string;
      const ask = (query: string, sessionId: string) =>
        call('POST', `/api/workspaces/${workspaceId}/query`, cookie, { query, session_id: sessionId });

      // 20 queries: 10 conversations of two turns, each round five at a time, with reads in between.
      const sessions = Array.from({ length: 10 }, (_, index) => `flaky-${index}`);
      const answered: { session_id: string; cost_usd: number }[] = [];
      for (const turn of [1, 2]) {
        for (let start = 0; start < sessions.length; start += 5) {
          const batch = await Promise.all(sessions.slice(start, start + 5).map((session) => ask(`turn ${turn} of ${session}`, session)));
          for (const response of batch) {
            expect(response.status, response.text).toBe(200);
            expect(response.body.error).toBeNull();
            answered.push(response.body);
          }
          const reads = await Promise.all([
            call('GET', '/api/workspaces', cookie),
            call('GET', `/api/workspaces/${workspaceId}`, cookie),
            call('GET', `/api/workspaces/${workspaceId}/activity`, cookie),
            call('GET', `/api/workspaces/${workspaceId}/conversations`, cookie),
          ]);
          for (const read of reads) expect(read.status, read.text).toBe(200);
        }
      }
      expect(answered).toHaveLength(20);

      // Every turn is stored once, in order, and the counters agree with the items.
      for (const session of sessions) {
        const detail = await call('GET', `/api/workspaces/${workspaceId}/conversations/${session}`, cookie);
        expect(detail.status, detail.text).toBe(200);
        expect(detail.body.conversation.message_count).toBe(4);
        expect(detail.body.messages.map((m: { seq: number; role: string; content: string }) => [m.seq, m.role, m.content])).toEqual([
          [1, 'user', `turn 1 of ${session}`],
          [2, 'assistant', 'stored answer'],
          [3, 'user', `turn 2 of ${session}`],
          [4, 'assistant', 'stored answer'],
        ]);
      }
      const activity = await call('GET', `/api/workspaces/${workspaceId}/activity?limit=100`, cookie);
      expect(activity.body.total).toBe(20);
      expect(activity.body.activity).toHaveLength(20);
      const list = await call('GET', '/api/workspaces', cookie);
      expect(list.body.workspaces.find((w: { id: string }) => w.id === workspaceId)).toMatchObject({ queries_today: 20 });
      const detail = await call('GET', `/api/workspaces/${workspaceId}`, cookie);
      expect(detail.body.stats).toMatchObject({ today: 20, error_rate: 0 });
      const conversations = await call('GET', `/api/workspaces/${workspaceId}/conversations?limit=100`, cookie);
      expect(conversations.body.total).toBe(10);
      expect(conversations.body.conversations).toHaveLength(10);
      const open = await call('GET', `/api/workspaces/${workspaceId}/conversations?status=open`, cookie);
      expect(open.body.total).toBe(10);

      // Jobs through the same flaky store: close three conversations, their stats run once each.
      for (const session of sessions.slice(0, 3)) {
        const closed = await call('POST', `/api/workspaces/${workspaceId}/conversations/${session}/close`, cookie);
        expect(closed.status, closed.text).toBe(200);
      }
      await t.runner.idle();
      const queues = await call('GET', '/api/org/queues', cookie);
      expect(queues.body.queues.find((q: { name: string }) => q.name === 'conversation-stats')).toMatchObject({
        waiting: 0,
        delayed: 0,
        active: 0,
        completed: 3,
        failed: 0,
      });
      for (const session of sessions.slice(0, 3)) {
        const closed = await call('GET', `/api/workspaces/${workspaceId}/conversations/${session}`, cookie);
        expect(closed.body.conversation).toMatchObject({ status: 'closed', stats_status: 'complete' });
        const queryCost = answered.filter((a) => a.session_id === session).reduce((sum, a) => sum + a.cost_usd, 0);
        expect(closed.body.conversation.total_cost_usd).toBeCloseTo(queryCost + priced(1000, 100, 1, 5), 9);
      }
      const dashboard = await call('GET', `/api/workspaces/${workspaceId}/dashboard`, cookie);
      expect(dashboard.status, dashboard.text).toBe(200);
      expect(dashboard.body.tickets).toMatchObject({ open: 7, cold: 0, closed: 3, total: 10 });
      expect(dashboard.body.resolution).toMatchObject({ resolved: 3, unresolved: 0 });
      expect(dashboard.body.categories).toEqual([{ category: 'query', count: 3 }]);
      const byStatus = await call('GET', `/api/workspaces/${workspaceId}/conversations?status=closed`, cookie);
      expect(byStatus.body.total).toBe(3);
      expect((await call('GET', `/api/workspaces/${workspaceId}/conversations?status=open`, cookie)).body.total).toBe(7);

      // The faults happened, and were all retried; nothing answered 500.
      expect(proxy?.stats.injected).toBeGreaterThanOrEqual(20);
      expect(proxy?.stats.retries).toBeGreaterThanOrEqual(proxy?.stats.injected ?? Infinity);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      expect(t.logger.records.filter((record) => record.level === 'error')).toEqual([]);
    } finally {
      await t.close();
      await model.stop();
    }
  });
});

async function killed(child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await exited;
}

describe('the local runtime killed with jobs running', () => {
  it('resumes the interrupted stats jobs after a restart: every job ends, and each conversation is charged for its stats once', async () => {
    const model = await startFakeModel();
    let slowStats = true;
    model.handle((request) => {
      if (isStatsRequest(request)) return { ...statsReply(), delayMs: slowStats ? 2_000 : 20 };
      const question = (request.body.messages.at(-1)?.content as { text?: string }[])?.[0]?.text ?? '';
      return textReply(`answer to ${question}`);
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'wap-faults-'));
    const env = {
      DATA_DIR: dataDir,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      JOB_RETRY_BASE_MS: '50',
      MODEL_MAX_RETRIES: '0',
    };
    const first = startRuntimeProcess(env);
    let second: ReturnType<typeof startRuntimeProcess> | undefined;
    try {
      let base = await first.url;
      let cookie = '';
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, body: (await response.json()) as any, headers: response.headers };
      };
      const signup = await call('POST', '/api/signup', { name: 'Killer', email: 'killer@example.com', password: 'kill -9 survives' });
      expect(signup.status).toBe(201);
      cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const workspace = await call('POST', '/api/workspaces', { name: 'Killed runtime' });
      const workspaceId = workspace.body.id as string;

      const conversations = ['one', 'two', 'three', 'four'];
      const queryCost = new Map<string, number>();
      for (const name of conversations) {
        const asked = await call('POST', `/api/workspaces/${workspaceId}/query`, {
          query: `question of conversation ${name}`,
          session_id: `kill-${name}`,
        });
        expect(asked.status).toBe(200);
        expect(asked.body.error).toBeNull();
        queryCost.set(`kill-${name}`, asked.body.cost_usd);
      }
      for (const name of conversations) {
        expect((await call('POST', `/api/workspaces/${workspaceId}/conversations/kill-${name}/close`)).status).toBe(200);
      }
      // All four stats jobs are running (the model is taking its time): kill the process.
      await waitFor(() => expect(model.requests.filter(isStatsRequest)).toHaveLength(4), 10_000);
      const before = await call('GET', '/api/org/queues');
      expect(before.body.queues.find((q: { name: string }) => q.name === 'conversation-stats')).toMatchObject({ active: 4, completed: 0 });
      await killed(first.child, first.exited, 'SIGKILL');
      expect(first.child.signalCode).toBe('SIGKILL');

      slowStats = false;
      second = startRuntimeProcess(env);
      base = await second.url;
      // The session secret is in DATA_DIR: the cookie still works after the restart.
      let stats: Record<string, number> = {};
      await waitFor(async () => {
        const queues = await call('GET', '/api/org/queues');
        expect(queues.status).toBe(200);
        stats = queues.body.queues.find((q: { name: string }) => q.name === 'conversation-stats');
        expect(stats).toMatchObject({ waiting: 0, delayed: 0, active: 0 });
        expect(stats.completed! + stats.failed!).toBe(4);
      }, 20_000);
      expect(stats).toMatchObject({ completed: 4, failed: 0 });
      // The four were running, claimed in the ledger: the due index sent them again, their claims taken over.
      expect(second.output()).toMatch(/sent again 4 pending stats jobs/);

      // Each conversation: its query plus exactly one stats call, though the model may have been asked twice.
      const statsCost = priced(1000, 100, 1, 5);
      let totalCost = 0;
      for (const name of conversations) {
        const id = `kill-${name}`;
        const detail = await call('GET', `/api/workspaces/${workspaceId}/conversations/${id}`);
        expect(detail.body.conversation).toMatchObject({ status: 'closed', stats_status: 'complete', message_count: 2 });
        expect(detail.body.conversation.total_cost_usd).toBeCloseTo((queryCost.get(id) ?? NaN) + statsCost, 9);
        totalCost += (queryCost.get(id) ?? 0) + statsCost;
        const asked = model.requests.filter(
          (request) => isStatsRequest(request) && JSON.stringify(request.body.messages).includes(`conversation ${name}`),
        );
        expect(asked.length).toBeGreaterThanOrEqual(1);
        expect(asked.length).toBeLessThanOrEqual(2);
      }
      const list = await call('GET', '/api/workspaces');
      expect(list.body.workspaces.find((w: { id: string }) => w.id === workspaceId).cost_mtd).toBeCloseTo(totalCost, 6);
      // The stats' counters moved once per conversation too.
      const dashboard = await call('GET', `/api/workspaces/${workspaceId}/dashboard`);
      expect(dashboard.body.tickets).toMatchObject({ open: 0, closed: 4, total: 4 });
      expect(dashboard.body.sentiment).toMatchObject({ positive: 4, neutral: 0, negative: 0 });
      expect(dashboard.body.sentiment.average).toBeCloseTo(0.5, 9);
      expect(dashboard.body.resolution).toMatchObject({ resolved: 4, unresolved: 0 });
      expect(dashboard.body.categories).toEqual([{ category: 'query', count: 4 }]);
      const failed = await call('GET', '/api/org/queues/conversation-stats/failed');
      expect(failed.body.jobs).toEqual([]);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await killed(first.child, first.exited, 'SIGKILL');
      if (second) await killed(second.child, second.exited, 'SIGKILL');
      await model.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the team-chat bridge restarted in a thread', () => {
  it('continues the thread on the new bridge: the follow-up is answered once in the same conversation, a redelivered event is not answered again', async () => {
    const chat = await startFakeChat();
    const model = await startFakeModel();
    model.handle((request) => {
      const last = request.body.messages.at(-1)?.content as { text?: string }[];
      return textReply(`Answer to: ${last?.[0]?.text ?? ''}`);
    });
    const t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
    const bridges: ChatBridge[] = [];
    try {
      const admin = await t.signUp();
      const workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Chat restarts' })).id;
      const firstBridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat });
      bridges.push(firstBridge);
      const firstEvent = { type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> where is order 7?', ts: '5000.0001' };
      chat.sendEvent(firstEvent, 'EvRESTART1');
      await waitFor(() => expect(chat.answersIn('5000.0001')).toHaveLength(1));
      expect(chat.answersIn('5000.0001')[0]).toBe('Answer to: where is order 7?');

      // The bridge goes down and a new one comes up on the same deps (a redeploy).
      await firstBridge.stop();
      await waitFor(() => expect(chat.openSockets).toBe(0));
      const secondBridge = new ChatBridge(t.deps, { pollMs: 100 });
      bridges.push(secondBridge);
      await secondBridge.start();
      await waitFor(() => expect(chat.openSockets).toBe(1));

      // The platform redelivers the first event (no ack seen before the restart), and the user follows up.
      chat.sendEvent(firstEvent, 'EvRESTART1');
      chat.sendEvent(
        { type: 'message', channel: 'C1', user: 'U1', text: 'and when will it arrive?', ts: '5000.0002', thread_ts: '5000.0001' },
        'EvRESTART2',
      );
      await waitFor(() => expect(chat.answersIn('5000.0001')).toHaveLength(2));
      await sleep(400);
      expect(chat.answersIn('5000.0001')).toEqual(['Answer to: where is order 7?', 'Answer to: and when will it arrive?']);
      expect(model.requests).toHaveLength(2);
      // The follow-up saw the first turn: the same conversation.
      expect(model.requests[1]?.body.messages.map((m) => (m.content as { text: string }[])?.[0]?.text)).toEqual([
        'where is order 7?',
        'Answer to: where is order 7?',
        'and when will it arrive?',
      ]);
      const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/C1-5000.0001`, { cookie: admin.cookie });
      expect(conversation.body.conversation).toMatchObject({ consumer_type: 'team-chat', message_count: 4 });
      const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
      expect(activity.body.total).toBe(2);
    } finally {
      for (const bridge of bridges) await bridge.stop();
      await t.close();
      await Promise.all([chat.stop(), model.stop()]);
    }
  });
});
