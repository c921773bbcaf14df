import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeModel, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { standardTools, startHttpMcpServer } from '../support/mcp-servers.js';
import { wallClock } from '../support/clock.js';

/*
 * The cap on connections per tool-server origin (MCP_MAX_CONNECTIONS_PER_ORIGIN) is per
 * organisation: one organisation's calls that hang on a shared origin hold its own connections,
 * never another's. With one pool for all, the second organisation's call waited in the queue behind
 * them until it timed out.
 */

type Server = Awaited<ReturnType<typeof startHttpMcpServer>>;

let t: TestContext;
let model: FakeModel;
let shared: Server;
beforeAll(async () => {
  model = await startFakeModel();
  // One origin both organisations use; its slow_tool answers after 8 s.
  shared = await startHttpMcpServer({ tools: standardTools({ hangMs: 8_000 }) });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MCP_MAX_CONNECTIONS_PER_ORIGIN: '2' } });
});
afterAll(async () => {
  await t.close();
  await shared.stop();
  await model.stop();
});

async function organisationUsing(name: string) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'Shared', transport: 'http', url: shared.url });
  const set = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { tool_timeout_seconds: 3 } });
  expect(set.status, set.text).toBe(200);
  return { cookie: admin.cookie, workspaceId: workspace.id as string };
}

const toolResultOf = (index: number) => {
  const content = model.requests[index]?.body.messages.at(-1)?.content;
  return (Array.isArray(content) ? content[0] : undefined) as { content?: string; is_error?: boolean } | undefined;
};

describe('connections per tool-server origin', () => {
  it("are capped per organisation: one organisation's hanging calls do not hold another's", async () => {
    const hog = await organisationUsing('Hog');
    const other = await organisationUsing('Other');
    model.reset();
    // Two calls of the first organisation hang on the shared origin: both its connections are held.
    model.reply(toolUseReply([{ name: 'slow_tool' }]), toolUseReply([{ name: 'slow_tool' }]));
    const hanging = [1, 2].map(() =>
      t.request('POST', `/api/workspaces/${hog.workspaceId}/query`, { cookie: hog.cookie, body: { query: 'wait' } }),
    );
    const callsBefore = shared.stats.toolCalls;
    for (let tries = 0; tries < 300 && shared.stats.toolCalls < callsBefore + 2; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(shared.stats.toolCalls).toBe(callsBefore + 2);

    // The second organisation's call goes through at once, not after the first's.
    model.handle((request) => {
      const last = request.body.messages.at(-1)?.content;
      const answered = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
      return answered ? textReply('done') : toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }]);
    });
    const started = wallClock.ms();
    const answered = await t.request('POST', `/api/workspaces/${other.workspaceId}/query`, {
      cookie: other.cookie,
      body: { query: 'vpn?' },
    });
    expect(answered.status, answered.text).toBe(200);
    expect(wallClock.ms() - started).toBeLessThan(2_500);
    const index = model.requests.findIndex((request) => JSON.stringify(request.body.messages).includes('results for vpn'));
    expect(toolResultOf(index)).toMatchObject({ content: 'results for vpn', is_error: false });
    await Promise.all(hanging);
  }, 20_000);
});
