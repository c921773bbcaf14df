import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { channelBindingKey, channelListing } from '../../shared/chat/entities.js';
import { createTestContext, type TestContext } from './context.js';
import { startFakeModel, type FakeModel } from './fake-model.js';
import { startHttpMcpServer } from './mcp-servers.js';

/*
 * What the routine tests share (test/http/routine*.test.ts): a service on the fake model, a real
 * MCP server whose write tool records what it was asked to write, and a webhook receiver on
 * loopback recording what it got; and the routes' small steps.
 */

export interface RoutineRig {
  t: TestContext;
  model: FakeModel;
  /** The MCP server with the write tool `create_ticket`. */
  tickets: Awaited<ReturnType<typeof startHttpMcpServer>>;
  /** What `create_ticket` was asked to write. */
  created: Record<string, unknown>[];
  /** What the receiver got (a JSON body each). */
  received: { path: string; body: any }[];
  /** The receiver's origin (`http://127.0.0.1:<port>`). */
  receiverOrigin: string;
  close(): Promise<void>;
}

/** Starts the rig; `close` stops all of it. */
export async function startRoutineRig(): Promise<RoutineRig> {
  const created: Record<string, unknown>[] = [];
  const received: RoutineRig['received'] = [];
  const model = await startFakeModel();
  const tickets = await startHttpMcpServer({
    name: 'tickets-server',
    tools: [
      {
        name: 'create_ticket',
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => {
          created.push(args);
          return 'ticket created';
        },
      },
    ],
  });
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  return {
    t,
    model,
    tickets,
    created,
    received,
    receiverOrigin,
    async close() {
      await t.close();
      await Promise.all([model.stop(), tickets.stop(), new Promise((resolve) => receiver.close(resolve))]);
    },
  };
}

export const routinesPath = (workspaceId: string) => `/api/workspaces/${workspaceId}/routines`;

/** Creates a routine (201 expected): the routine, and its secret once for a webhook routine. */
export async function createRoutine(t: TestContext, cookie: string, workspaceId: string, body: Record<string, unknown>) {
  const response = await t.request('POST', routinesPath(workspaceId), { cookie, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { routine: any; secret?: string };
}

/** A routine's runs as the API lists them. */
export async function runsOf(t: TestContext, cookie: string, workspaceId: string, routineId: string) {
  const response = await t.request('GET', `${routinesPath(workspaceId)}/${routineId}/runs`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.runs as any[];
}

/** Write tools of the workspace need the approval of `approvers`. */
export async function requireApprovals(t: TestContext, cookie: string, workspaceId: string, approvers: 'admins' | 'requester') {
  const approval = { mode: 'write_tools', approvers, expires_minutes: 60 };
  expect((await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie, body: { approval } })).status).toBe(200);
}

/** A team-chat channel bound to the workspace, as binding it writes it. */
export async function bindChannel(t: TestContext, where: { orgId: string; workspaceId: string; channelId: string; workspaceName: string }) {
  const { orgId, workspaceId, channelId } = where;
  await t.deps.table.put({
    ...channelBindingKey(orgId, channelId),
    org_id: orgId,
    channel_id: channelId,
    channel_name: 'ops',
    workspace_id: workspaceId,
    workspace_name: where.workspaceName,
    ...channelListing(orgId, workspaceId, channelId),
    created_at: t.clock.now().toISOString(),
  });
}
