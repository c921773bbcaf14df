import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeChat } from '../test/support/fake-chat.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startHttpMcpServer } from '../test/support/mcp-servers.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { apiOf } from './report.js';
import { startDelayedStore } from './latency-proxy.js';
import { LIMITS_OUT_OF_THE_WAY } from './service-client.js';

/**
 * What the rounds benchmark runs against: `npm start` (bin/local.ts, its own process, INFO logs)
 * with `DYNAMODB_ENDPOINT` at a store behind a latency proxy, a zero-latency fake model, an MCP
 * server with one write tool (for approvals) and a fake team-chat platform. The setup (sign-up, two
 * workspaces, a messaging and a team-chat consumer) is done by a first service process; a second one
 * on the same store and data directory is measured, so its chat bridge connects as it starts and
 * its poll (10 minutes here) stays out of the measurements.
 */

export const ANSWER = 'The ticket is open: the VPN team has it, and you will hear from them within the hour.';

/** The model: in a workspace with the write tool, ask for it, then answer; elsewhere, answer at once. */
function reply(request: ModelRequestRecord) {
  const last = request.body.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
  const hasTool = request.body.tools?.some((tool) => tool.name.endsWith('create_ticket'));
  if (hasTool && !answered) return toolUseReply([{ name: 'create_ticket', input: { title: 'VPN down' } }]);
  return { ...textReply(ANSWER), chunkChars: 8 };
}

export async function startRoundsSetup(delayMs = 0) {
  const store = await startDelayedStore(delayMs);
  const model = await startFakeModel();
  model.handle(reply);
  const tickets = await startHttpMcpServer({
    name: 'bench-tickets',
    tools: [
      {
        name: 'create_ticket',
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => `created: ${String(args.title)}`,
      },
    ],
  });
  const chat = await startFakeChat();
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-rounds-'));
  const env = {
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    SESSION_SECRET: 'a session secret of at least thirty-two characters',
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'bench',
    SLACK_API_URL: chat.apiUrl,
    ...LIMITS_OUT_OF_THE_WAY,
    SWEEP_INTERVAL_MS: '3600000',
    CHAT_BRIDGE_POLL_MS: '600000',
  };
  const stopAll = async (service?: ReturnType<typeof startRuntimeProcess>) => {
    await service?.stop();
    await Promise.all([model.stop(), tickets.stop(), chat.stop()]);
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  const first = startRuntimeProcess(env);
  let ids: Awaited<ReturnType<typeof configure>>;
  try {
    ids = await configure(await first.url, tickets.url, chat);
  } catch (error) {
    await stopAll(first);
    throw error;
  }
  await first.stop();
  const service = startRuntimeProcess(env);
  try {
    const url = await service.url;
    const deadline = Date.now() + 10_000;
    while (chat.openSockets < 1) {
      if (Date.now() > deadline) throw new Error('the chat bridge did not connect within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { url, store, chat, service, ...ids, stop: () => stopAll(service) };
  } catch (error) {
    await stopAll(service);
    throw error;
  }
}

/** Signs up and creates what the requests use; answers the cookie, the ids and the messaging key. */
async function configure(url: string, ticketsUrl: string, chat: { botToken: string; appToken: string }) {
  const cookie = await signUpOver(url, 'bench-rounds@example.com', 'Ada Lovelace');
  const { call } = apiOf(url, cookie);
  const workspaceId = String((await call('POST', '/api/workspaces', { name: 'Rounds' })).id);
  const approvalsId = String((await call('POST', '/api/workspaces', { name: 'Rounds approvals' })).id);
  await call('POST', '/api/connectors/mcp', { workspace_id: approvalsId, name: 'tickets', transport: 'http', url: ticketsUrl });
  await call('PUT', `/api/workspaces/${approvalsId}`, { approval: { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 } });
  const messaging = await call('POST', '/api/connectors/consumer', { type: 'messaging', workspace_id: workspaceId, credentials: {} });
  await call('POST', '/api/connectors/consumer', {
    type: 'team-chat',
    workspace_id: workspaceId,
    credentials: { bot_token: chat.botToken, app_token: chat.appToken },
    channel_id: 'C1',
  });
  return { cookie, workspaceId, approvalsId, messagingId: String(messaging.id), messagingKey: String(messaging.api_key) };
}

export type RoundsSetup = Awaited<ReturnType<typeof startRoundsSetup>>;
