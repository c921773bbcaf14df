import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { queriesSettled } from '../../shared/http/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { textOf } from '../support/mcp-gateway.js';
import { consentThroughApi, MemoryOAuthClient } from '../support/mcp-oauth.js';
import { startTicketsServer, type TicketsServer } from '../support/mcp-servers.js';
import { serveOnLoopback } from '../support/served.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';
import { wallClock } from '../support/clock.js';

/*
 * The MCP gateway end to end (issue 48, "Real parts"): the MCP SDK's own client with its OAuth
 * provider against the served app: discovery from the 401, registration, consent (through the
 * console's API; test/browser/mcp-gateway.test.ts gives it on the page), token, then tools listed
 * and called through real MCP servers behind the workspace: a write tool that waits for an
 * approval given meanwhile, a per-user connection without the person's grant, a refresh that
 * rotates the refresh token, and every call in the activity log.
 */

let t: TestContext;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let base: string;
let tickets: TicketsServer;
const mailbox = await startOAuthMcpServer();
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let member: { cookie: string; user: { id: string } };
let workspaceId: string;
let oauth: MemoryOAuthClient;
let client: Client;

const CALLBACK = 'http://127.0.0.1:33418/callback';

async function connectAsMember(): Promise<Client> {
  const mcpUrl = new URL(`${base}/api/workspaces/${workspaceId}/mcp`);
  oauth = new MemoryOAuthClient(CALLBACK, 'Claude Code');
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth });
  // The first request meets the 401; the SDK finds the metadata, registers and sends the person to sign in.
  await expect(new Client({ name: 'e2e', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const callback = await consentThroughApi(base, oauth.authorizationUrl as URL, member.cookie);
  await first.finishAuth(callback.searchParams.get('code') ?? '');
  const connected = new Client({ name: 'e2e', version: '1' });
  await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
  return connected;
}

beforeAll(async () => {
  tickets = await startTicketsServer({ search: true });
  t = await createTestContext({ env: { MCP_GATEWAY_APPROVAL_WAIT_SECONDS: '10' } });
  admin = await t.signUp({ name: 'Ada Admin' });
  member = await t.addMember(admin.cookie, { name: 'Mia Member' });
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Gateway e2e' })).id;
  await t.connectMcp(admin.cookie, workspaceId, { name: 'tickets', url: tickets.url });
  const saved = await t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspaceId, name: 'Mailbox', transport: 'http', url: mailbox.url, auth: 'oauth', credential: 'per_user' },
  });
  expect(saved.status, saved.text).toBe(201);
  const location = new URL(await mailbox.login(saved.body.authorization_url, 'alice'));
  expect((await t.request('GET', `${location.pathname}${location.search}`, { cookie: admin.cookie })).status).toBe(200);
  const approval = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
  expect((await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { approval } })).status).toBe(200);
  served = await serveOnLoopback(t);
  base = served.base;
  client = await connectAsMember();
});
afterAll(async () => {
  await client?.close();
  await served.close();
  await t.close();
  await tickets.stop();
  await mailbox.close();
});

describe('an MCP client signed in as a person', () => {
  it("lists the workspace's tools under the agent's names, and ask", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    // create_ticket is on both servers: each goes by its connection's name too, as the agent sees them.
    expect(names).toEqual(expect.arrayContaining(['ask', 'tickets__create_ticket', 'Mailbox__create_ticket', 'search_tickets', 'whoami']));
  });

  it('waits for the approval of a write tool given meanwhile in the console, then answers its result', async () => {
    const call = client.callTool({ name: 'tickets__create_ticket', arguments: { title: 'Printer on fire' } });
    const until = wallClock.ms() + 8_000;
    let pending: { id: string; tool: string; requested_by: string }[] = [];
    while (!pending.length && wallClock.ms() < until) {
      const listed = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie: admin.cookie });
      pending = listed.body.approvals;
      if (!pending.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pending).toEqual([expect.objectContaining({ tool: 'tickets__create_ticket', requested_by: 'Mia Member' })]);
    expect(tickets.created).toHaveLength(0);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${pending[0]?.id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    const result = await call;
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toBe('ticket created: Printer on fire');
    expect(tickets.created).toEqual([expect.objectContaining({ title: 'Printer on fire' })]);
  });

  it("answers a per-user connection's tool with the person's own connect link while they have no grant", async () => {
    const calls = mailbox.toolCalls.length;
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/"Mailbox" needs your own authorization/);
    expect(textOf(result)).toContain('code_challenge=');
    expect(mailbox.toolCalls.length).toBe(calls);
  });

  it('refreshes through the SDK (the refresh token rotated), goes on with the new token, and the old refresh token is refused', async () => {
    const before = oauth.saved;
    expect(await auth(oauth, { serverUrl: `${base}/api/workspaces/${workspaceId}/mcp` })).toBe('AUTHORIZED');
    expect(oauth.saved?.access_token).not.toBe(before?.access_token);
    expect(oauth.saved?.refresh_token).not.toBe(before?.refresh_token);
    const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'printer' } });
    expect(result.isError ?? false).toBe(false);
    const reused = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before?.refresh_token ?? '',
        client_id: oauth.information?.client_id ?? '',
      }).toString(),
    });
    expect(reused.status).toBe(400);
  });

  it('audits every call with the person, the client, the tool, the outcome and the duration', async () => {
    await queriesSettled(); // audit entries are written after the answers
    const listed = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(listed.status, listed.text).toBe(200);
    const calls = (listed.body.activity as Record<string, unknown>[]).filter((entry) => entry.kind === 'tool_call');
    expect(calls.map((entry) => [entry.tool, entry.outcome, entry.client, entry.user_id]).sort()).toEqual(
      [
        ['tickets__create_ticket', 'ok', 'Claude Code', member.user.id],
        ['search_tickets', 'ok', 'Claude Code', member.user.id],
        ['whoami', 'needs_authorization', 'Claude Code', member.user.id],
      ].sort(),
    );
    for (const entry of calls) expect(entry.duration_ms).toEqual(expect.any(Number));
  });
});
