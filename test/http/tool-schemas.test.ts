import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspacePartitions } from '../../migrations/004-workspace-partitions.js';
import { toolKey } from '../../shared/connections/entities.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply } from '../support/fake-model.js';
import { startLowLevelMcpServer } from '../support/mcp-servers.js';

/*
 * A tool's input schema is the server's own words, and goes to the model as it was sent. The
 * service keeps it as JSON text: DynamoDB refuses a map nested more than 32 levels (dynalite, the
 * tests' store, does not check, so the test checks the item holds text), and a query reads every
 * tool of its workspace. One cached as a map by an older version is text once migrations/004 ran.
 */

/** 40 levels of objects, deeper than DynamoDB lets a map nest (32). */
function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level += 1) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

const ODD_SCHEMA = {
  type: 'object',
  properties: { '': { type: 'string', description: 'a property with an empty name' }, deep: deepSchema(40) },
  required: [''],
};

/** A server with one tool of that schema (built with the SDK's low-level API, which checks nothing). */
function oddSchemaServer(): Server {
  const server = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'odd_schema', description: 'Takes an odd input', inputSchema: ODD_SCHEMA as { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'done' }] }));
  return server;
}

let t: TestContext;
let model: Awaited<ReturnType<typeof startFakeModel>>;
let odd: Awaited<ReturnType<typeof startLowLevelMcpServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle(() => textReply('fine'));
  odd = await startLowLevelMcpServer(oddSchemaServer);
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([model?.stop(), odd?.stop()]);
});

describe("a tool's input schema", () => {
  it('is stored as JSON text and offered to the model as the server sent it, however deep; one cached as a map before is offered too once migrated', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Schemas' });
    const saved = await t.connectMcp(admin.cookie, workspace.id, { name: 'odd', url: odd.url });
    expect(saved.tools).toBe(1);
    // Stored as JSON text.
    const stored = await t.deps.table.get(toolKey(admin.org.id, workspace.id, saved.id, 'odd_schema'));
    expect(typeof stored?.input_schema).toBe('string');

    // A tool cached by an older version, its schema a map.
    const legacySchema = { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] };
    await t.deps.table.put({
      ...toolKey(admin.org.id, workspace.id, saved.id, 'legacy_tool'),
      id: `${saved.id}:legacy_tool`,
      name: 'legacy_tool',
      description: 'Cached before schemas were text',
      input_schema: legacySchema,
      is_write: false,
      connection_id: saved.id,
    });
    await t.deps.table.delete(SCHEMA_MARKER);
    await runMigrations(t.deps.table, [workspacePartitions], { clock: t.clock });
    expect(typeof (await t.deps.table.get(toolKey(admin.org.id, workspace.id, saved.id, 'legacy_tool')))?.input_schema).toBe('string');

    const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'go' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ answer: 'fine', error: null });
    const offered = Object.fromEntries((model.requests.at(-1)?.body.tools ?? []).map((tool) => [tool.name, tool.input_schema]));
    expect(offered).toEqual({ legacy_tool: legacySchema, odd_schema: ODD_SCHEMA });
  });
});
