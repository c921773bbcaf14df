import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

/** The README's first session: the bundled tickets server, run as a user runs it, connected with its key as a header. */
let t: TestContext;
let model: FakeModel;
let tickets: ChildProcess;
let url: string;
const KEY = 'first-session-demo-key-7f3a';

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  tickets = spawn(process.execPath, ['servers/tickets-mcp-server.mjs'], { env: { ...process.env, TICKETS_API_KEY: KEY, PORT: '0' } });
  const [line] = (await once(tickets.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(line.toString())?.[0] ?? '';
  expect(url).not.toBe('');
});
afterAll(async () => {
  tickets.kill('SIGTERM');
  await t.close();
  await model.stop();
});

describe('servers/tickets-mcp-server.mjs', () => {
  it('refuses to start without TICKETS_API_KEY', async () => {
    const bare = spawn(process.execPath, ['servers/tickets-mcp-server.mjs'], { env: { PATH: process.env.PATH ?? '' } });
    const [code] = (await once(bare, 'exit')) as [number];
    expect(code).toBe(1);
  });

  it('is connected with its key as a header, and its tools answer a query', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Support' });
    const body = { workspace_id: workspace.id, name: 'tickets', transport: 'http', url };
    const refused = await t.request('POST', '/api/connectors/mcp', { cookie: admin.cookie, body });
    expect(refused.status).toBe(400);
    const saved = await t.request('POST', '/api/connectors/mcp', {
      cookie: admin.cookie,
      body: { ...body, headers: { Authorization: `Bearer ${KEY}` } },
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ status: 'saved', tools: 2, message: 'Connected "tickets" with 2 tools' });

    model.reply(toolUseReply([{ name: 'list_tickets', input: { status: 'open' } }]), textReply('Two tickets are open.'));
    const answer = await t.request('POST', `/api/workspaces/${workspace.id}/query`, {
      cookie: admin.cookie,
      body: { query: 'Which tickets are open?' },
    });
    expect(answer.body).toMatchObject({
      answer: 'Two tickets are open.',
      tools_called: ['list_tickets'],
      connections_hit: ['tickets'],
      error: null,
    });
    const result = (model.requests[1]?.body.messages.at(-1)?.content as { content: string }[] | undefined)?.[0];
    expect(result?.content).toContain('T-101 [open]');
    expect(JSON.stringify(await t.scanTable())).not.toContain(KEY);
  });
});
