import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { approvalExpiryEntry, approvalKey } from '../../shared/approvals/entities.js';
import { systemClock } from '../../shared/platform/clock.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { Table } from '../../shared/platform/table.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { startTicketsServer, type TicketsServer } from '../support/mcp-servers.js';
import { startRuntimeProcess } from '../support/runtime-process.js';
import { signUpOver } from '../support/signup.js';
import { wallClock } from '../support/clock.js';

/*
 * A query paused for an approval keeps nothing in memory: its whole state is the approval item.
 * These tests stop the local runtime (bin/local.ts in a child process) while a query waits, and
 * go on in a new process on the same DATA_DIR.
 */

type Runtime = ReturnType<typeof startRuntimeProcess>;
type ToolResultBlock = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

let model: FakeModel;
let tickets: TicketsServer;
/** The arguments of every call that reached the write tool. */
let created: TicketsServer['created'];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  model = await startFakeModel();
  tickets = await startTicketsServer();
  created = tickets.created;
});
afterAll(async () => {
  await Promise.all([model.stop(), tickets.stop()]);
});
beforeEach(() => {
  created.length = 0;
  model.reset();
  // Asks for the write first; once its result is back, answers with what it got.
  model.handle((request: ModelRequestRecord) => {
    const results = toolResultsOf(request);
    if (!results.length) return toolUseReply([{ name: 'create_ticket', input: { title: 'VPN down' } }]);
    return textReply(`Done: ${results.map((block) => `${block.is_error ? 'ERROR ' : ''}${String(block.content)}`).join(' | ')}`);
  });
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function toolResultsOf(request: ModelRequestRecord): ToolResultBlock[] {
  const last = request.body.messages.at(-1)?.content;
  return Array.isArray(last) ? (last as ToolResultBlock[]).filter((block) => block.type === 'tool_result') : [];
}

async function stopped(runtime: Runtime): Promise<void> {
  if (runtime.child.exitCode !== null || runtime.child.signalCode !== null) return;
  runtime.child.kill('SIGTERM');
  await runtime.exited;
}

/** A local runtime in a child process on `dataDir`, stopped after the test if it still runs. */
function startOn(dataDir: string): Runtime {
  const runtime = startRuntimeProcess({
    DATA_DIR: dataDir,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'k',
    MODEL_MAX_RETRIES: '0',
    JOB_RETRY_BASE_MS: '50',
  });
  cleanups.push(() => stopped(runtime));
  return runtime;
}

async function dataDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wap-approvals-'));
  cleanups.unshift(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function client(base: string, cookie: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
}

/** Signs up on a fresh runtime, and makes a workspace whose write tools need an admin's approval. */
async function workspaceWithApprovals(base: string) {
  const cookie = await signUpOver(base, 'approver@example.com', 'Ada Admin');
  const call = client(base, cookie);
  const workspace = await call('POST', '/api/workspaces', { name: 'Approvals restart' });
  expect(workspace.status).toBe(201);
  const workspaceId = String(workspace.body.id);
  const connected = await call('POST', '/api/connectors/mcp', { workspace_id: workspaceId, name: 'tickets', url: tickets.url });
  expect(connected.body.tools).toBe(1);
  const setting = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
  expect((await call('PUT', `/api/workspaces/${workspaceId}`, { approval: setting })).status).toBe(200);
  // The organisation the sign-up made: the store's keys of its workspace start with it.
  const session = await call('GET', '/api/auth/session');
  expect(session.body?.user?.org_id).toEqual(expect.any(String));
  const orgId = String(session.body.user.org_id);
  return { cookie, orgId, workspaceId };
}

/**
 * Opens the stopped runtime's store on disk and moves an approval's expiry to `expiresAt`, as the
 * due index holds it (with the service's own `approvalExpiryEntry`). The setting's shortest expiry
 * is a minute; moving it into the past is the same as having stopped the runtime that much longer.
 */
async function moveExpiry(dataDir: string, orgId: string, workspaceId: string, approvalId: string, expiresAt: string): Promise<void> {
  const store = await startEmbeddedStore(join(dataDir, 'dynamodb'));
  const config = parseConfig({}, 'local');
  const dynamo = createDynamoClient(config, store.endpoint);
  try {
    const table = new Table(dynamo, config.tableName, systemClock);
    const due = approvalExpiryEntry(orgId, workspaceId, approvalId, expiresAt);
    await table.update(approvalKey(orgId, workspaceId, approvalId), {
      update: 'SET expires_at = :at, due_at = :at, gsi3sk = :sk',
      condition: '#status = :pending',
      names: { '#status': 'status' },
      values: { ':at': expiresAt, ':sk': due.gsi3sk, ':pending': 'pending' },
    });
  } finally {
    dynamo.destroy();
    await store.close();
  }
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = wallClock.ms() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || wallClock.ms() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a query paused for approval, across a restart of the local runtime', () => {
  it('is approved through a new process: the tool runs once with the stored arguments and the answer is stored', async () => {
    const dataDir = await dataDirectory();
    const first = startOn(dataDir);
    const { cookie, workspaceId } = await workspaceWithApprovals(await first.url);
    const asked = await client(await first.url, cookie)('POST', `/api/workspaces/${workspaceId}/query`, {
      query: 'Open a ticket for the VPN',
    });
    expect(asked.body).toMatchObject({ error: null, pending_approval: { tool: 'create_ticket', input: { title: 'VPN down' } } });
    const approvalId = String(asked.body.pending_approval.id);
    expect(model.requests).toHaveLength(1);
    expect(created).toEqual([]);

    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);

    const second = startOn(dataDir);
    const call = client(await second.url, cookie); // the session secret is kept in DATA_DIR
    const decided = await call('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      error: null,
      pending_approval: null,
      tools_called: ['create_ticket'],
      conversation_id: asked.body.conversation_id,
      answer: 'Done: ticket created: VPN down',
      tokens: { input: 200, output: 40, cache_read: 0, cache_write: 0 },
    });
    expect(created).toEqual([{ title: 'VPN down' }]);
    // The model went on from the stored turn: its own tool_use id, answered by the tool's result.
    expect(model.requests).toHaveLength(2);
    const askedFor = (model.requests[0] as ModelRequestRecord).body.messages.length;
    const resumed = model.requests[1] as ModelRequestRecord;
    expect(resumed.body.messages).toHaveLength(askedFor + 2);
    const [result] = toolResultsOf(resumed);
    expect(result).toMatchObject({ content: 'ticket created: VPN down' });
    const turn = resumed.body.messages.at(-2)?.content as { type: string; id?: string; input?: unknown }[];
    expect(turn.find((block) => block.type === 'tool_use')).toMatchObject({ id: result?.tool_use_id, input: { title: 'VPN down' } });

    const conversation = await call('GET', `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}`);
    expect(conversation.body.messages.map((message: { role: string; content: string }) => [message.role, message.content])).toEqual([
      ['user', 'Open a ticket for the VPN'],
      ['assistant', 'Done: ticket created: VPN down'],
    ]);
    const activity = await call('GET', `/api/workspaces/${workspaceId}/activity`);
    expect(activity.body.activity).toEqual([
      expect.objectContaining({
        tools_called: ['create_ticket'],
        approvals: [expect.objectContaining({ id: approvalId, status: 'approved' })],
      }),
    ]);
    // Decided once: a second decision is refused, and nothing runs again.
    expect((await call('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { decision: 'approve' })).status).toBe(409);
    expect(created).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  }, 60_000);

  it('expires, right after the restart, an approval that fell due while the runtime was stopped, and tells the model', async () => {
    const dataDir = await dataDirectory();
    const first = startOn(dataDir);
    const { cookie, orgId, workspaceId } = await workspaceWithApprovals(await first.url);
    const asked = await client(await first.url, cookie)('POST', `/api/workspaces/${workspaceId}/query`, {
      query: 'Open a ticket for the VPN',
    });
    const approvalId = String(asked.body.pending_approval.id);
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);

    await moveExpiry(dataDir, orgId, workspaceId, approvalId, new Date(wallClock.ms() - 60_000).toISOString());

    const second = startOn(dataDir);
    const call = client(await second.url, cookie);
    const listening = wallClock.ms();
    const expired = await eventually(
      () => call('GET', `/api/workspaces/${workspaceId}/approvals?status=expired`),
      (listed) => listed.body.total === 1,
      5_000,
    );
    expect(expired.body.approvals).toEqual([expect.objectContaining({ id: approvalId, status: 'expired', decided_by: null })]);
    expect(wallClock.ms() - listening).toBeLessThan(3_000);

    // The model was told, and its answer is the conversation's; the tool never ran.
    const conversationPath = `/api/workspaces/${workspaceId}/conversations/${asked.body.conversation_id}`;
    const conversation = await eventually(
      () => call('GET', conversationPath),
      (detail) => detail.body.messages.length === 2,
      5_000,
    );
    const told = 'Nobody approved this call in time; it expired and did not run.';
    expect(toolResultsOf(model.requests.at(-1) as ModelRequestRecord)).toEqual([
      expect.objectContaining({ is_error: true, content: told }),
    ]);
    expect(conversation.body.messages.at(-1)).toMatchObject({ role: 'assistant', content: `Done: ERROR ${told}` });
    expect(created).toEqual([]);
    const late = await call('POST', `/api/workspaces/${workspaceId}/approvals/${approvalId}`, { decision: 'approve' });
    expect(late.status).toBe(409);
    expect(created).toEqual([]);
    const dashboard = await call('GET', `/api/workspaces/${workspaceId}/dashboard`);
    expect(dashboard.body.approvals).toEqual({ pending: 0, approved: 0, denied: 0, expired: 1 });
  }, 60_000);
});
