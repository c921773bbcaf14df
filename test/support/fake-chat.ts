import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A Web API call the fake received. */
interface ChatCall {
  method: string;
  token: string | undefined;
  params: Record<string, string>;
}

export interface FakeChatOptions {
  botToken?: string;
  appToken?: string;
  botUserId?: string;
  teamName?: string;
}

type Answer = { status?: number; headers?: Record<string, string>; body: Record<string, unknown> };

/**
 * A fake team-chat platform on 127.0.0.1, for the real Bolt and Web API clients: the Web API
 * methods the service uses (`auth.test`, `apps.connections.open`, `chat.postMessage`, `chat.postEphemeral`,
 * `reactions.add/remove`, `users.info`, `conversations.info`), and a socket-mode WebSocket
 * server that says `hello`, delivers `events_api` envelopes and records the acks.
 */
export async function startFakeChat(options: FakeChatOptions = {}) {
  const botToken = options.botToken ?? 'xoxb-test-bot-token';
  const appToken = options.appToken ?? 'xapp-test-app-token';
  const botUserId = options.botUserId ?? 'UBOT';
  const calls: ChatCall[] = [];
  const acks: string[] = [];
  const sockets = new Set<WebSocket>();
  const overrides: { method: string; answer: Answer; times: number }[] = [];
  let connectionsOpened = 0;
  let socketCount = 0;

  const users: Record<string, string> = { U1: 'Ada Lovelace', U2: 'Grace Hopper' };
  const channels: Record<string, string> = { C1: 'support', C2: 'random', C3: 'billing' };

  const web = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const raw = Buffer.concat(chunks).toString('utf8');
      let params: Record<string, string> = {};
      if ((req.headers['content-type'] ?? '').includes('application/json')) {
        params = raw ? (JSON.parse(raw) as Record<string, string>) : {};
      } else {
        params = Object.fromEntries(new URLSearchParams(raw));
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '') || params.token;
      calls.push({ method, token, params });
      const answer = answerFor(method, token, params);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });

  function answerFor(method: string, token: string | undefined, params: Record<string, string>): Answer {
    const override = overrides.find((candidate) => candidate.method === method && candidate.times > 0);
    if (override) {
      override.times -= 1;
      return override.answer;
    }
    const expected = method === 'apps.connections.open' ? appToken : botToken;
    if (token !== expected) return { body: { ok: false, error: 'invalid_auth' } };
    switch (method) {
      case 'auth.test':
        return {
          body: {
            ok: true,
            url: 'https://example.slack.com/',
            team: options.teamName ?? 'Example Team',
            user: 'assistant',
            team_id: 'T1',
            user_id: botUserId,
            bot_id: 'BBOT',
          },
        };
      case 'apps.connections.open':
        connectionsOpened += 1;
        return { body: { ok: true, url: `ws://127.0.0.1:${socketPort}/link?ticket=${randomUUID()}` } };
      case 'chat.postMessage':
        return { body: { ok: true, channel: params.channel, ts: `${Date.now() / 1000}`, message: { text: params.text } } };
      case 'chat.postEphemeral':
        return { body: { ok: true, message_ts: `${Date.now() / 1000}` } };
      case 'reactions.add':
      case 'reactions.remove':
        return { body: { ok: true } };
      case 'users.info': {
        const name = users[params.user ?? ''];
        return name
          ? { body: { ok: true, user: { id: params.user, name: name.toLowerCase(), real_name: name, profile: { real_name: name } } } }
          : { body: { ok: false, error: 'user_not_found' } };
      }
      case 'conversations.info': {
        const name = channels[params.channel ?? ''];
        return name ? { body: { ok: true, channel: { id: params.channel, name } } } : { body: { ok: false, error: 'channel_not_found' } };
      }
      default:
        return { body: { ok: false, error: 'unknown_method' } };
    }
  }

  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const socketPort = (wss.address() as AddressInfo).port;
  wss.on('connection', (socket) => {
    socketCount += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: string };
      if (message.envelope_id) acks.push(message.envelope_id);
    });
    socket.send(
      JSON.stringify({ type: 'hello', num_connections: sockets.size, debug_info: { host: 'fake' }, connection_info: { app_id: 'A1' } }),
    );
  });

  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const { port } = web.address() as AddressInfo;

  return {
    /** The Web API base URL, as SLACK_API_URL takes it. */
    apiUrl: `http://127.0.0.1:${port}/api/`,
    botToken,
    appToken,
    botUserId,
    calls,
    acks,
    users,
    channels,
    get connectionsOpened() {
      return connectionsOpened;
    },
    get openSockets() {
      return sockets.size;
    },
    get socketsEverOpened() {
      return socketCount;
    },
    callsOf(method: string) {
      return calls.filter((call) => call.method === method);
    },
    /** Answers the next `times` calls of `method` with `answer` (a 429, an error…). */
    override(method: string, answer: Answer, times = 1) {
      overrides.push({ method, answer, times });
    },
    /** Delivers an Events API event over every open socket; returns the envelope id. */
    sendEvent(event: Record<string, unknown>, eventId = `Ev${randomUUID().slice(0, 8)}`): string {
      const envelopeId = randomUUID();
      const envelope = {
        envelope_id: envelopeId,
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: 0,
        retry_reason: '',
        payload: {
          token: 'verification',
          team_id: 'T1',
          api_app_id: 'A1',
          type: 'event_callback',
          event_id: eventId,
          event_time: Math.floor(Date.now() / 1000),
          authorizations: [{ team_id: 'T1', user_id: botUserId, is_bot: true }],
          event: { event_ts: String(event.ts ?? ''), ...event },
        },
      };
      for (const socket of sockets) socket.send(JSON.stringify(envelope));
      return envelopeId;
    },
    /** Drops every open socket (as the platform does on refresh); clients reconnect. */
    dropSockets() {
      for (const socket of sockets) socket.terminate();
    },
    async stop() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

export type FakeChat = Awaited<ReturnType<typeof startFakeChat>>;
