import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { queriesSettled } from '../../shared/http/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { gatewayClient, personPrincipal, textOf } from '../support/mcp-gateway.js';
import { startTicketsServer, type TicketsServer } from '../support/mcp-servers.js';
import { wallClock } from '../support/clock.js';

/*
 * A write tool that needs approval, called by a person through the MCP gateway (issue 48, item 4):
 * the call waits for the decision (MCP_GATEWAY_APPROVAL_WAIT_SECONDS, here 2 s), runs once on an
 * approval of exactly its arguments, and a decision only records itself (no query resumes).
 */

const WAIT_SECONDS = 2;

let t: TestContext;
let tickets: TicketsServer;
beforeAll(async () => {
  tickets = await startTicketsServer({ search: true });
  t = await createTestContext({ env: { MCP_GATEWAY_APPROVAL_WAIT_SECONDS: String(WAIT_SECONDS) } });
});
afterAll(async () => {
  await t.close();
  await tickets.stop();
});

/** An organisation whose workspace asks approval of write tools (by admins), and a member's gateway client. */
async function setup() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Gateway approvals ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'tickets', url: tickets.url });
  const approval = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
  const put = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { approval } });
  expect(put.status, put.text).toBe(200);
  const member = await t.addMember(admin.cookie, { name: 'Mia Member' });
  const principal = personPrincipal(t, member.user, { orgId: admin.org.id, role: 'member' }, workspace.id);
  const client = await gatewayClient(t.deps, principal, workspace.id);
  return { admin, member, workspaceId: workspace.id as string, client };
}

type Listed = { id: string; status: string; tool: string; input: Record<string, unknown>; source: string; requested_by: string };

async function approvals(cookie: string, workspaceId: string, status = ''): Promise<Listed[]> {
  const listed = await t.request('GET', `/api/workspaces/${workspaceId}/approvals${status ? `?status=${status}` : ''}`, { cookie });
  expect(listed.status, listed.text).toBe(200);
  return listed.body.approvals;
}

const decide = (cookie: string, workspaceId: string, approvalId: string, decision: 'approve' | 'deny') =>
  t.request('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { cookie, body: { decision } });

/** The pending approvals of the workspace, once there are some (a call waiting in the background asks for one). */
async function pendingOnce(cookie: string, workspaceId: string): Promise<Listed[]> {
  const until = wallClock.ms() + 5_000;
  for (;;) {
    const pending = await approvals(cookie, workspaceId, 'pending');
    if (pending.length || wallClock.ms() > until) return pending;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A call of create_ticket that waits out its bound: its approval's id, from the error it answers. */
async function waitedOut(client: Client, title: string): Promise<string> {
  const result = await client.callTool({ name: 'create_ticket', arguments: { title } });
  expect(result.isError).toBe(true);
  const id = /approval (appr_[a-z0-9]+)/.exec(textOf(result))?.[1];
  expect(id, textOf(result)).toBeDefined();
  return id!;
}

describe('a write tool that needs approval, through the gateway', () => {
  it('waits for the decision with progress; approved meanwhile through the decide API, it runs once and answers its result', async () => {
    const { admin, workspaceId, client } = await setup();
    const progress: string[] = [];
    const calling = client.callTool({ name: 'create_ticket', arguments: { title: 'VPN down' } }, undefined, {
      onprogress: (notification) => progress.push(notification.message ?? ''),
    });
    const [pending] = await pendingOnce(admin.cookie, workspaceId);
    expect(pending).toMatchObject({ tool: 'create_ticket', input: { title: 'VPN down' }, source: 'gateway', requested_by: 'Mia Member' });
    expect(tickets.created).not.toContainEqual({ title: 'VPN down' });
    const decided = await decide(admin.cookie, workspaceId, pending!.id, 'approve');
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.answer).toMatch(/^Approved/);
    const result = await calling;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('ticket created: VPN down');
    expect(tickets.created.filter((args) => args.title === 'VPN down')).toHaveLength(1);
    expect(progress[0]).toMatch(
      new RegExp(`^waiting for approval ${pending!.id} of create_ticket: http://gateway.test/workspaces/${workspaceId}/approvals$`),
    );
    await queriesSettled(); // audit entries are written after the answers
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity[0]).toMatchObject({
      kind: 'tool_call',
      tool: 'create_ticket',
      outcome: 'ok',
      approvals: [{ id: pending!.id, status: 'approved', decided_by: 'Ada Admin', tool: 'create_ticket' }],
    });
  });

  it("past the bound answers an error naming the approval's id and its console link; the call did not run", async () => {
    const { admin, workspaceId, client } = await setup();
    const started = wallClock.ms();
    const result = await client.callTool({ name: 'create_ticket', arguments: { title: 'Too slow' } });
    expect(wallClock.ms() - started).toBeGreaterThanOrEqual(WAIT_SECONDS * 1000 - 50);
    expect(result.isError).toBe(true);
    const [pending] = await approvals(admin.cookie, workspaceId, 'pending');
    expect(textOf(result)).toContain(`approval ${pending!.id}`);
    expect(textOf(result)).toContain(`http://gateway.test/workspaces/${workspaceId}/approvals`);
    expect(tickets.created).not.toContainEqual({ title: 'Too slow' });
    await queriesSettled(); // audit entries are written after the answers
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity[0]).toMatchObject({ outcome: 'approval_pending', approvals: [{ id: pending!.id, status: 'pending' }] });
  });

  it('the same call made again after approval runs once; a third time needs a new approval', async () => {
    const { admin, workspaceId, client } = await setup();
    const first = await waitedOut(client, 'Printer jam');
    expect((await decide(admin.cookie, workspaceId, first, 'approve')).status).toBe(200);
    const again = await client.callTool({ name: 'create_ticket', arguments: { title: 'Printer jam' } });
    expect(textOf(again)).toBe('ticket created: Printer jam');
    expect(tickets.created.filter((args) => args.title === 'Printer jam')).toHaveLength(1);
    const third = await waitedOut(client, 'Printer jam');
    expect(third).not.toBe(first);
    expect(tickets.created.filter((args) => args.title === 'Printer jam')).toHaveLength(1);
    expect((await approvals(admin.cookie, workspaceId)).map((item) => [item.id, item.status])).toEqual([
      [third, 'pending'],
      [first, 'approved'],
    ]);
  });

  it('changed arguments after an approval need an approval of their own', async () => {
    const { admin, workspaceId, client } = await setup();
    const approved = await waitedOut(client, 'Laptop A');
    expect((await decide(admin.cookie, workspaceId, approved, 'approve')).status).toBe(200);
    const other = await waitedOut(client, 'Laptop B');
    expect(other).not.toBe(approved);
    expect(tickets.created).not.toContainEqual({ title: 'Laptop B' });
    // The first approval was not used by the other call: its own call still runs on it.
    expect(textOf(await client.callTool({ name: 'create_ticket', arguments: { title: 'Laptop A' } }))).toBe('ticket created: Laptop A');
  });

  it('denied while waiting, the call answers so and never runs; reads need no approval', async () => {
    const { admin, workspaceId, client } = await setup();
    const calling = client.callTool({ name: 'create_ticket', arguments: { title: 'Denied one' } });
    const [pending] = await pendingOnce(admin.cookie, workspaceId);
    expect((await decide(admin.cookie, workspaceId, pending!.id, 'deny')).status).toBe(200);
    const result = await calling;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Ada Admin denied this call; it did not run/);
    expect(tickets.created).not.toContainEqual({ title: 'Denied one' });
    // A second decision of the same approval is 409, as any.
    expect((await decide(admin.cookie, workspaceId, pending!.id, 'approve')).status).toBe(409);
    expect(textOf(await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } }))).toBe('found tickets about vpn');
    expect(await approvals(admin.cookie, workspaceId, 'pending')).toEqual([]);
  });

  it('expires nobody-decided like any approval, without a query to go on: the same call then asks anew', async () => {
    const { admin, workspaceId, client } = await setup();
    const first = await waitedOut(client, 'Forgotten');
    t.clock.advance(61 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    expect((await approvals(admin.cookie, workspaceId, 'expired')).map((item) => item.id)).toEqual([first]);
    expect(t.logger.records.filter((record) => record.level === 'error')).toEqual([]);
    expect((await decide(admin.cookie, workspaceId, first, 'approve')).status).toBe(409);
    const second = await waitedOut(client, 'Forgotten');
    expect(second).not.toBe(first);
    expect(tickets.created).not.toContainEqual({ title: 'Forgotten' });
  });
});
