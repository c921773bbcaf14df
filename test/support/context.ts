import { queriesSettled } from '../../shared/http/sse.js';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { PasswordHasher, type ScryptParams } from '../../shared/auth/passwords.js';
import { createAgentParts } from '../../shared/wiring/agent-parts.js';
import type { AgentDeps, Deps } from '../../shared/deps.js';
import { createAgentDeps, createDeps } from '../../shared/wiring/deps.js';
import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { createApp } from '../../shared/wiring/app.js';
import { apiRoutes } from '../../shared/wiring/api-routes.js';
import { jobHandlers } from '../../shared/wiring/job-handlers.js';
import { LocalJobRunner } from '../../shared/jobs/local-runner.js';
import { deliveryOf } from '../../shared/jobs/worker.js';
import { BUNDLED_STDIO_SERVERS, parseConfig, type Config } from '../../shared/platform/config.js';
import { STDIO_SERVER_ARGS } from './mcp-servers.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { inMemorySecrets } from '../../shared/platform/secrets.js';
import { Table } from '../../shared/platform/table.js';
import { ensureTable } from '../../shared/platform/table-create.js';
import { TestClock } from './clock.js';
import type { VectorStore } from '../../shared/platform/vectors.js';
import { RecordingLogger } from './logger.js';
import { RecordingChat } from './chat.js';
import { ManualScheduler } from './scheduler.js';

/** Cheap scrypt for tests that sign up many users; the production parameters have their own test. */
export const FAST_SCRYPT: ScryptParams = { N: 2 ** 10, r: 8, p: 1, keyLength: 64, saltLength: 16 };

export const TEST_SESSION_SECRET = 'test-session-secret-of-at-least-32-characters';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
  /** Raw body (sent as is, without a JSON content type unless given in headers). */
  /** The body as it is: text, or a form (its multipart type and boundary are set from it). */
  raw?: string | FormData;
}

/** A test request's client address (the runtime's socket peer, in production). */
export const TEST_ADDRESS_HEADER = 'x-test-client-address';

/**
 * The environment of a test's service: a laptop's (loopback MCP servers allowed, as `npm start`
 * allows them) with the stdio fixture server in the catalogue beside the bundled one.
 */
const TEST_ENV: Record<string, string> = {
  DATA_DIR: 'memory',
  LOG_LEVEL: 'SILENT',
  TABLE_NAME: 'service-test',
  MCP_ALLOW_PRIVATE_URLS: 'true',
  MCP_STDIO_SERVERS: JSON.stringify({
    ...BUNDLED_STDIO_SERVERS,
    fixture: { command: 'node', args: STDIO_SERVER_ARGS, env: [] },
    // Listed, but its script does not exist: a server that cannot start.
    broken: { command: 'node', args: ['test/fixtures/no-such-server.mjs'], env: [] },
    orders_env: { command: 'node', args: ['test/fixtures/env-mcp-server.mjs'], env: ['ORDERS_API_TOKEN'] },
  }),
};

/** The test's store (dynalite in memory on loopback, as `npm start` has it) and the client to it, through the test's proxy if any. */
async function storeFor(config: Config, storeProxy?: (endpoint: string) => Promise<{ url: string; stop(): Promise<void> }>) {
  const store = await startEmbeddedStore(null);
  if (!storeProxy) return { store, proxy: undefined, client: createDynamoClient(config, store.endpoint) };
  const proxy = await storeProxy(store.endpoint);
  return { store, proxy, client: createDynamoClient(config, proxy.url) };
}

/**
 * A test's service: dynalite in memory on a loopback port, as `npm start` has it (behind the
 * test's proxy when it gives one), the real app, a clock the test moves, a
 * recording logger. One per test file; tests isolate by signing up their own organisations.
 */
export async function createTestContext(
  options: {
    env?: Record<string, string>;
    /** Puts something between the service and its store (the fault tests' failing proxy): given the store's endpoint, answers the one to use. */
    storeProxy?: (endpoint: string) => Promise<{ url: string; stop(): Promise<void> }>;
    /** The password hasher (default: cheap scrypt parameters, since tests sign up many users). */
    passwords?: PasswordHasher;
    /** Where passages' vectors go outside the index (the S3 Vectors tests); by default the index keeps them. */
    vectors?: VectorStore;
  } = {},
) {
  const config = parseConfig({ ...TEST_ENV, ...options.env }, 'local');
  const { store, proxy, client } = await storeFor(config, options.storeProxy);
  await ensureTable(client, config.tableName);
  const clock = new TestClock();
  const logger = new RecordingLogger();
  const core = { table: new Table(client, config.tableName, clock), clock, secrets: inMemorySecrets() };
  const settings = { maxAttempts: config.jobMaxAttempts, retryBaseMs: config.jobRetryBaseMs };
  const runner = new LocalJobRunner({ ...core, logger }, { concurrency: 4, ...settings });
  const scheduler = new ManualScheduler(runner);
  const chat = new RecordingChat();
  const deps: AgentDeps = createAgentDeps({
    ...createAgentParts(config, logger),
    ...core,
    config,
    logger,
    passwords: options.passwords ?? new PasswordHasher(FAST_SCRYPT),
    sessionSecret: TEST_SESSION_SECRET,
    jobs: runner,
    scheduler,
    chat,
    vectors: options.vectors,
  });
  runner.start(deliveryOf(deps, jobHandlers, settings));
  // Each request comes from an address of its own unless it names one in TEST_ADDRESS_HEADER, so
  // per-address limits stay out of the way of tests that do not test them.
  let addresses = 0;
  const app = createApp(deps, {
    routes: apiRoutes(deps, agentRoutes(deps)),
    serves: ['api', 'agent'],
    clientAddress: (c) => {
      addresses = (addresses % 250) + 1;
      return c.req.header(TEST_ADDRESS_HEADER) ?? `198.51.100.${addresses}`;
    },
  });
  let counter = 0;

  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | FormData | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.cookie) headers.cookie = options.cookie;
    const response = await app.request(path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  /** The `service_session=<jwt>` pair of a response's Set-Cookie. */
  function cookieOf(response: ApiResponse): string {
    const setCookie = response.headers.get('set-cookie') ?? '';
    const match = /service_session=([^;]*)/.exec(setCookie);
    if (!match?.[1]) throw new Error(`no session cookie in response ${response.status}: ${response.text}`);
    return `service_session=${match[1]}`;
  }

  function uniqueEmail(prefix = 'user'): string {
    counter += 1;
    return `${prefix}-${crypto.randomUUID().slice(0, 8)}-${counter}@example.com`;
  }

  /** Signs up a new organisation; returns its admin's cookie, user and org. */
  async function signUp(overrides: Record<string, unknown> = {}) {
    const body = { name: 'Ada Admin', email: uniqueEmail('admin'), password: 'correct horse battery', ...overrides };
    const response = await request('POST', '/api/signup', { body });
    if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
    return { cookie: cookieOf(response), user: response.body.user, org: response.body.org, email: body.email as string };
  }

  /** Adds a member to the admin's organisation and logs them in. */
  async function addMember(adminCookie: string, overrides: Record<string, unknown> = {}) {
    const body = { name: 'Max Member', email: uniqueEmail('member'), password: 'member password', org_role: 'member', ...overrides };
    const created = await request('POST', '/api/org/users', { body, cookie: adminCookie });
    if (created.status !== 201) throw new Error(`adding a member failed: ${created.status} ${created.text}`);
    const login = await request('POST', '/api/auth/login', { body: { email: body.email, password: body.password } });
    return { cookie: cookieOf(login), user: created.body.user };
  }

  async function createWorkspace(cookie: string, body: Record<string, unknown> = { name: 'Support' }) {
    const response = await request('POST', '/api/workspaces', { body, cookie });
    if (response.status !== 201) throw new Error(`workspace create failed: ${response.status} ${response.text}`);
    return response.body as { id: string; name: string; status: string };
  }

  /** A new organisation with one workspace named `<label> <unique>`: its admin's cookie, the organisation's and the workspace's ids. */
  async function adminWithWorkspace(label: string) {
    const admin = await signUp();
    const created = await createWorkspace(admin.cookie, { name: `${label} ${uniqueEmail('ws')}` });
    return { cookie: admin.cookie as string, orgId: admin.org.id as string, workspaceId: created.id };
  }

  /** Connects an MCP server (HTTP unless `transport` says otherwise) to a workspace; answers the saved connection. */
  async function connectMcp(cookie: string, workspaceId: string, connection: Record<string, unknown>) {
    const response = await request('POST', '/api/connectors/mcp', {
      cookie,
      body: { workspace_id: workspaceId, transport: 'http', ...connection },
    });
    if (response.status !== 201) throw new Error(`MCP connect failed: ${response.status} ${response.text}`);
    return response.body as { status: string; id: string; tools: number };
  }

  return {
    app,
    deps,
    runner,
    scheduler,
    chat,
    clock,
    logger,
    request,
    cookieOf,
    uniqueEmail,
    signUp,
    addMember,
    createWorkspace,
    adminWithWorkspace,
    connectMcp,
    /** Deps over this context's store, clock and fakes with another job delivery (a second runner, an SQS adapter): a second process's. */
    depsWithJobs(jobs: Deps['jobs'], metrics?: Deps['metrics']): Deps {
      return createDeps({
        config,
        table: core.table,
        secrets: core.secrets,
        blobs: deps.blobs,
        clock,
        logger,
        passwords: deps.passwords,
        sessionSecret: TEST_SESSION_SECRET,
        jobs,
        scheduler,
        chat,
        ...(metrics ? { metrics } : {}),
      });
    },
    /** Every item of the table as stored (a raw Scan: the service itself never scans), for at-rest checks. */
    async scanTable(): Promise<Record<string, unknown>[]> {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await core.table.documents.send(new ScanCommand({ TableName: config.tableName, ExclusiveStartKey: start }));
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async close() {
      // Writes made after an answer (a gateway tool call's audit entry) finish before the store goes.
      await queriesSettled();
      await runner.stop(1000);
      await deps.mcp.closeAll();
      client.destroy();
      await proxy?.stop();
      await store.close();
    },
  };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;
