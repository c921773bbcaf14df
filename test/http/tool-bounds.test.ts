import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import MiniSearch from 'minisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../shared/platform/errors.js';
import { IndexBuilds } from '../../shared/tool-search/index-builds.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startLowLevelMcpServer } from '../support/mcp-servers.js';

/*
 * Audit 4 (issue 45): a tool server is not trusted, and neither is the size of what it lists. Tools
 * per connection and per workspace, and each tool's description and input schema, are bounded when
 * they are listed; the tool search index is built in slices that yield, one build per organisation
 * at a time, so another organisation's requests are served while the largest allowed index builds.
 */

/** The defaults (docs/connections.md, "What a tool server's answers may take"). */
const PER_CONNECTION = 500;
const DESCRIPTION_BYTES = 8 * 1024;
const SCHEMA_BYTES = 32 * 1024;

/** A listed tool as a server sends it. */
interface RawTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown> };
}

/** Words of no language, from a generator of a few tens of thousands (many distinct terms: a large index). */
function wordSource(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return `w${state.toString(36)}`;
  };
}

/** Text of exactly `bytes` ASCII bytes. */
function textOf(next: () => string, bytes: number): string {
  let text = '';
  while (text.length < bytes) text += `${next()} `;
  return text.slice(0, bytes);
}

/** A schema of described parameters, as close to `bytes` of JSON as it gets without passing it. */
function schemaOf(next: () => string, bytes: number): RawTool['inputSchema'] {
  const schema: RawTool['inputSchema'] = { type: 'object', properties: {} };
  let size = JSON.stringify(schema).length;
  for (let n = 0; ; n += 1) {
    const name = `field_${n}`;
    const property = { type: 'string', description: textOf(next, 600) };
    // `"name":{…}` and the comma before it (none before the first).
    const added = JSON.stringify(name).length + 1 + JSON.stringify(property).length + (n > 0 ? 1 : 0);
    if (size + added > bytes) return schema;
    schema.properties[name] = property;
    size += added;
  }
}

/** `count` tools of the largest allowed size: descriptions and schemas at their bounds. */
function largestTools(prefix: string, count: number, seed: number): RawTool[] {
  const next = wordSource(seed);
  return Array.from({ length: count }, (_, n) => ({
    name: `${prefix}_tool_${n}`,
    description: textOf(next, DESCRIPTION_BYTES),
    inputSchema: schemaOf(next, SCHEMA_BYTES),
  }));
}

/** A tool server that lists `tools`, `pageSize` a page (an answer stays under the 8 MiB answer limit). */
async function startListingServer(tools: RawTool[], pageSize = 100) {
  return startLowLevelMcpServer(() => {
    const server = new Server({ name: 'many-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const end = start + pageSize;
      return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
    });
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'done' }] }));
    return server;
  });
}

const alphaTools = largestTools('alpha', PER_CONNECTION, 7);
const betaTools = largestTools('beta', PER_CONNECTION, 11);
const alpha = await startListingServer(alphaTools);
const beta = await startListingServer(betaTools);
/** 150 and 120 tools of the largest size: indexes that take a few hundred milliseconds to build. */
const gamma = await startListingServer(largestTools('gamma', 150, 13));
const delta = await startListingServer(largestTools('delta', 120, 19));
/** More tools than a connection keeps, one of each kind a listing drops or cuts, and a tool listed twice. */
const unruly = await startListingServer([
  { name: 'huge_schema', description: 'Its schema is too large', inputSchema: schemaOf(wordSource(17), 40_000) },
  { name: 'long_description', description: `Starts well. ${'é'.repeat(20_000)}`, inputSchema: { type: 'object', properties: {} } },
  { name: 'n'.repeat(200), description: 'A name past 128 characters', inputSchema: { type: 'object', properties: {} } },
  { name: 'long_description', description: 'The same name again', inputSchema: { type: 'object', properties: {} } },
  ...Array.from({ length: PER_CONNECTION + 20 }, (_, n) => ({
    name: `plain_${String(n).padStart(3, '0')}`,
    description: `Plain tool ${n}`,
    inputSchema: { type: 'object' as const, properties: {} },
  })),
]);
/** Six small tools. */
const small = await startListingServer(
  Array.from({ length: 6 }, (_, n) => ({
    name: `small_${n}`,
    description: `Small tool ${n}`,
    inputSchema: { type: 'object' as const, properties: {} },
  })),
);

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
  await Promise.all([alpha, beta, gamma, delta, unruly, small].map((server) => server.stop()));
});

/**
 * Every index build the test sees (a MiniSearch instance): when its documents were being added
 * (`addAll`, which a build calls once, or once per slice) and how many. The test's evidence of
 * when a build ran.
 */
interface Build {
  first: number;
  last: number;
  slices: number;
  documents: number;
}
const builds = new Map<object, Build>();
const addAll = MiniSearch.prototype.addAll;
MiniSearch.prototype.addAll = function (this: MiniSearch, documents: readonly unknown[]) {
  const started = performance.now();
  try {
    return addAll.call(this, documents);
  } finally {
    const build = builds.get(this) ?? { first: started, last: 0, slices: 0, documents: 0 };
    build.slices += 1;
    build.documents += documents.length;
    build.last = performance.now();
    builds.set(this, build);
  }
};

/** The most builds that ran at once among `seen`. */
function mostAtOnce(seen: Build[]): number {
  const edges = seen.flatMap((build) => [
    { at: build.first, change: 1 },
    { at: build.last, change: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.change - b.change);
  let running = 0;
  let most = 0;
  for (const edge of edges) {
    running += edge.change;
    most = Math.max(most, running);
  }
  return most;
}

/** The value below which 99 in 100 of `samples` fall. */
function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

function search(cookie: string, workspaceId: string, q: string) {
  return t.request('GET', `/api/workspaces/${workspaceId}/tools/search?q=${encodeURIComponent(q)}&limit=50`, { cookie });
}

describe('audit 4 (one tenant stalls the process)', () => {
  it("audit 4 (one tenant stalls the process): another organisation's GET /api/auth/session answers within 100 ms p99 while an index of the largest allowed size builds", async () => {
    const tenant = await t.adminWithWorkspace('Many tools');
    await t.connectMcp(tenant.cookie, tenant.workspaceId, { name: 'alpha', url: alpha.url });
    await t.connectMcp(tenant.cookie, tenant.workspaceId, { name: 'beta', url: beta.url });
    const other = await t.signUp();
    expect((await t.request('GET', '/api/auth/session', { cookie: other.cookie })).status).toBe(200);

    // The tenant's first search builds the index of its 1 000 tools: as many as a workspace may
    // hold, each with a description and a schema at their bounds.
    builds.clear();
    let searched = false;
    const word = alphaTools[0]!.description.split(' ')[0]!;
    const searching = search(tenant.cookie, tenant.workspaceId, word).finally(() => {
      searched = true;
    });
    const samples: { start: number; end: number }[] = [];
    while (!searched) {
      // A client's request waits from when it is sent: the app reads it on the loop's next turn (never
      // in the same one: a session read from the cache answers without I/O, and a loop of them would
      // starve the search).
      const start = performance.now();
      await new Promise((resolve) => setImmediate(resolve));
      const session = await t.request('GET', '/api/auth/session', { cookie: other.cookie });
      samples.push({ start, end: performance.now() });
      expect(session.status).toBe(200);
    }
    const found = await searching;
    expect(found.status, found.text).toBe(200);
    expect(found.body.tools[0]).toMatchObject({ name: 'alpha_tool_0', connection: 'alpha' });

    // One build, of every tool; only the sessions served while it ran count (each overlaps it).
    const [build, ...more] = [...builds.values()];
    expect(more).toEqual([]);
    expect(build?.documents).toBe(2 * PER_CONNECTION);
    const during = samples.filter((sample) => sample.end > build!.first && sample.start < build!.last);
    const latencies = during.map((sample) => sample.end - sample.start);
    console.log(
      `audit 4: build ${(build!.last - build!.first).toFixed(0)} ms in ${build!.slices} slices; ${latencies.length} sessions during it, p99 ${p99(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    expect(p99(latencies)).toBeLessThan(100);
    expect(latencies.length).toBeGreaterThanOrEqual(20);
  }, 180_000);

  it("audit 4 (one tenant stalls the process): an organisation's new workspace of the same tools reuses its index; another organisation builds its own", async () => {
    const tenant = await t.adminWithWorkspace('Shared tools');
    const second = await t.createWorkspace(tenant.cookie, { name: `Shared tools again ${t.uniqueEmail('ws')}` });
    for (const workspaceId of [tenant.workspaceId, second.id])
      await t.connectMcp(tenant.cookie, workspaceId, { name: 'gamma', url: gamma.url });
    const stranger = await t.adminWithWorkspace('Shared tools elsewhere');
    await t.connectMcp(stranger.cookie, stranger.workspaceId, { name: 'gamma', url: gamma.url });

    builds.clear();
    expect((await search(tenant.cookie, tenant.workspaceId, 'gamma')).status).toBe(200);
    expect(builds.size).toBe(1);
    // The second workspace's first search builds nothing: its tools read as the first's.
    const again = await search(tenant.cookie, second.id, 'gamma');
    expect(again.status).toBe(200);
    expect(again.body.tools).toHaveLength(50);
    expect(builds.size).toBe(1);
    // Never shared between organisations.
    expect((await search(stranger.cookie, stranger.workspaceId, 'gamma')).status).toBe(200);
    expect(builds.size).toBe(2);
  }, 60_000);

  it('audit 4 (one tenant stalls the process): an organisation builds one index at a time, and the process at most two', async () => {
    const tenant = await t.adminWithWorkspace('One at a time');
    const second = await t.createWorkspace(tenant.cookie, { name: `One at a time again ${t.uniqueEmail('ws')}` });
    // Another connection name: tools that read otherwise, so an index of their own.
    await t.connectMcp(tenant.cookie, tenant.workspaceId, { name: 'first', url: delta.url });
    await t.connectMcp(tenant.cookie, second.id, { name: 'second', url: delta.url });
    const others = [await t.adminWithWorkspace('Elsewhere'), await t.adminWithWorkspace('Elsewhere too')];
    for (const other of others) await t.connectMcp(other.cookie, other.workspaceId, { name: 'gamma', url: gamma.url });

    builds.clear();
    const answers = await Promise.all([
      search(tenant.cookie, tenant.workspaceId, 'delta'),
      search(tenant.cookie, second.id, 'delta'),
      ...others.map((other) => search(other.cookie, other.workspaceId, 'gamma')),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const seen = [...builds.values()];
    expect(seen).toHaveLength(4);
    // Builds run alongside each other (in slices), two at once and never more.
    expect(mostAtOnce(seen)).toBe(2);
    // The organisation's two builds (of its 120 tools): one after the other.
    const own = seen.filter((build) => build.documents === 120);
    expect(own).toHaveLength(2);
    expect(mostAtOnce(own)).toBe(1);
  }, 60_000);
});

describe('audit 4 (one tenant stalls the process): tools bounded when listed', () => {
  it('audit 4 (one tenant stalls the process): keeps 500 tools of a connection, drops a tool whose schema is over 32 KB or whose name is unusable, cuts a description to 8 KB, and says so', async () => {
    const admin = await t.adminWithWorkspace('Unruly');
    const tested = await t.request('POST', '/api/connectors/mcp/test', {
      cookie: admin.cookie,
      body: { transport: 'http', url: unruly.url },
    });
    expect(tested.body).toMatchObject({ ok: true, tools: PER_CONNECTION });
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { workspace_id: admin.workspaceId, name: 'unruly', transport: 'http', url: unruly.url },
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.tools).toBe(PER_CONNECTION);
    const note: string = saved.body.tools_truncated;
    expect(note).toBe(tested.body.tools_truncated);
    expect(note).toContain(
      `the server lists more than ${PER_CONNECTION} tools: the first ${PER_CONNECTION} are kept (MCP_MAX_TOOLS_PER_CONNECTION)`,
    );
    expect(note).toContain(`1 tool dropped for an input schema over ${SCHEMA_BYTES} bytes (MCP_MAX_TOOL_SCHEMA_BYTES): huge_schema`);
    expect(note).toContain('2 tools dropped for a name that is empty, over 128 characters or listed twice');
    expect(note).toContain(`1 description cut to ${DESCRIPTION_BYTES} bytes (MCP_MAX_TOOL_DESCRIPTION_BYTES)`);
    expect(saved.body.message).toContain(note);
    expect(t.logger.records).toContainEqual(
      expect.objectContaining({ level: 'warn', extra: expect.objectContaining({ connection: 'unruly', tools_truncated: note }) }),
    );

    const listed = await t.request('GET', `/api/workspaces/${admin.workspaceId}/connections`, { cookie: admin.cookie });
    const names = listed.body.tools.map((tool: { name: string }) => tool.name);
    expect(names).toHaveLength(PER_CONNECTION);
    // The connection says what its listing dropped, where its admin sees it.
    expect(listed.body.connections).toEqual([expect.objectContaining({ name: 'unruly', tools_truncated: note })]);
    expect(names).not.toContain('huge_schema');
    expect(names).toContain('plain_498');
    expect(names).not.toContain('plain_499');
    const [cut, ...again] = listed.body.tools.filter((tool: { name: string }) => tool.name === 'long_description');
    expect(again).toEqual([]);
    expect(cut.description.startsWith('Starts well. éé')).toBe(true);
    expect(cut.description.endsWith('é…')).toBe(true);
    expect(Buffer.byteLength(cut.description)).toBeLessThanOrEqual(DESCRIPTION_BYTES);

    const refreshed = await t.request('POST', `/api/connections/${saved.body.id}/refresh`, { cookie: admin.cookie });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body).toMatchObject({ connection: { tool_count: PER_CONNECTION }, tools_truncated: note });
    expect(refreshed.body.tools).toHaveLength(PER_CONNECTION);
  }, 60_000);

  it("audit 4 (one tenant stalls the process): keeps a workspace's tools within MCP_MAX_TOOLS_PER_WORKSPACE, a connection's own tools not counted against it", async () => {
    const bounded = await createTestContext({ env: { MCP_MAX_TOOLS_PER_CONNECTION: '5', MCP_MAX_TOOLS_PER_WORKSPACE: '8' } });
    try {
      const admin = await bounded.adminWithWorkspace('Bounded');
      const connect = (name: string) =>
        bounded.request('POST', '/api/connectors/mcp', {
          cookie: admin.cookie,
          body: { workspace_id: admin.workspaceId, name, transport: 'http', url: small.url },
        });
      const one = await connect('one');
      expect(one.body).toMatchObject({
        tools: 5,
        tools_truncated: 'the server lists more than 5 tools: the first 5 are kept (MCP_MAX_TOOLS_PER_CONNECTION)',
      });
      const two = await connect('two');
      expect(two.body.tools).toBe(3);
      expect(two.body.tools_truncated).toContain(
        "the workspace's other connections hold 5 tools: 3 of this one's 5 are kept (MCP_MAX_TOOLS_PER_WORKSPACE is 8)",
      );
      // A refresh counts the connection's own tools as its room: the same tools are kept.
      for (const [saved, count] of [
        [one, 5],
        [two, 3],
      ] as const) {
        const refreshed = await bounded.request('POST', `/api/connections/${saved.body.id}/refresh`, { cookie: admin.cookie });
        expect(refreshed.body.tools).toHaveLength(count);
      }
      const found = await bounded.request('GET', `/api/workspaces/${admin.workspaceId}/tools/search?q=small&limit=50`, {
        cookie: admin.cookie,
      });
      expect(found.body.tools).toHaveLength(8);
    } finally {
      await bounded.close();
    }
  }, 60_000);
});

describe('IndexBuilds', () => {
  /** A build the test ends when it likes. */
  function held() {
    let end = () => {};
    const ended = new Promise<string>((resolve) => {
      end = () => resolve('built');
    });
    return { build: () => ended, end };
  }

  it("audit 4 (one tenant stalls the process): shares a build of the same tools, queues an organisation's others, refuses past its waiting line and bounds the process", async () => {
    const builds = new IndexBuilds<string>({ waitingPerOrg: 1, atOnce: 2 });
    const first = held();
    const running = builds.run('org_a', 'a1', first.build);
    expect(builds.run('org_a', 'a1', () => Promise.resolve('another'))).toBe(running);
    const waiting = builds.run('org_a', 'a2', () => Promise.resolve('a2 built'));
    await expect(builds.run('org_a', 'a3', () => Promise.resolve('a3 built'))).rejects.toBeInstanceOf(TooManyRequestsError);
    // Another organisation builds meanwhile; a third waits for a place in the process.
    const other = held();
    const alongside = builds.run('org_b', 'b1', other.build);
    let thirdStarted = false;
    const third = builds.run('org_c', 'c1', async () => {
      thirdStarted = true;
      return 'c1 built';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdStarted).toBe(false);
    other.end();
    expect(await alongside).toBe('built');
    expect(await third).toBe('c1 built');
    first.end();
    expect(await running).toBe('built');
    expect(await waiting).toBe('a2 built');
    // The line is free again.
    expect(await builds.run('org_a', 'a3', () => Promise.resolve('a3 built'))).toBe('a3 built');
  });
});
