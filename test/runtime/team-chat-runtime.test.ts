import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { FAST_SCRYPT } from '../support/context.js';
import { startFakeChat, type FakeChat } from '../support/fake-chat.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';
import { RecordingLogger } from '../support/logger.js';
import { signUpOver } from '../support/signup.js';
import { wallClock } from '../support/clock.js';

let chat: FakeChat;
let model: FakeModel;
let runtime: LocalRuntime;

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  model.handle(() => textReply('Order 42 has shipped.'));
  const config = parseConfig(
    {
      DATA_DIR: 'memory',
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      SLACK_API_URL: chat.apiUrl,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
    },
    'local',
  );
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
});
afterAll(async () => {
  await runtime.stop();
  await Promise.all([chat.stop(), model.stop()]);
});

async function call(method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('team chat under the local runtime', () => {
  it('connects the bridge within 5 s of connecting the consumer, and answers a mention in its thread', async () => {
    const cookie = await signUpOver(runtime.url, 'chat-admin@example.com', 'Chat admin');
    const workspace = await call('POST', '/api/workspaces', cookie, { name: 'Orders' });
    const connected = await call('POST', '/api/connectors/consumer', cookie, {
      type: 'team-chat',
      workspace_id: workspace.body.id,
      credentials: { bot_token: chat.botToken, app_token: chat.appToken },
      channel_id: 'C1',
    });
    expect(connected.status).toBe(201);
    const started = wallClock.ms();
    await vi.waitFor(() => expect(chat.openSockets).toBe(1), { timeout: 5_000, interval: 50 });
    expect(wallClock.ms() - started).toBeLessThan(5_000);

    chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> where is order 42?', ts: '9000.0001' });
    await vi.waitFor(() => expect(chat.answersIn('9000.0001')).toEqual(['Order 42 has shipped.']), { timeout: 8_000, interval: 50 });
    const conversations = await call('GET', `/api/workspaces/${workspace.body.id}/conversations?consumer=team-chat`, cookie);
    expect(conversations.body.conversations).toHaveLength(1);
    expect(conversations.body.conversations[0]).toMatchObject({
      user_name: 'Ada Lovelace',
      channel: 'support',
      consumer_type: 'team-chat',
    });
  });
});
