import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { wallClock } from './clock.js';

/** A Web API call the fake received. */
interface ChatCall {
  method: string;
  token: string | undefined;
  params: Record<string, string>;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface FakeChatOptions {
  botToken?: string;
  appToken?: string;
  botUserId?: string;
  teamName?: string;
  /** Whether the app may use the streaming message methods (`chat.startStream`…); default true. */
  streaming?: boolean;
  /** Whether the app may set the assistant status of a thread; default true. */
  assistantStatus?: boolean;
}

/** A message as the platform shows it: its text so far, its blocks, and whether it is still streaming. */
export interface ShownMessage {
  ts: string;
  channel: string;
  threadTs: string | undefined;
  text: string;
  blocks: unknown[];
  streaming: boolean;
  /** The text after each write (post, update, start, append, stop), to see it grow. */
  versions: string[];
}

type Answer = { status?: number; headers?: Record<string, string>; body: Record<string, unknown> };

/**
 * A fake team-chat platform on 127.0.0.1, for the real Bolt and Web API clients: the Web API
 * methods the service uses (`auth.test`, `apps.connections.open`, `chat.postMessage`, `chat.update`,
 * `chat.delete`, `chat.postEphemeral`, the streaming `chat.startStream/appendStream/stopStream`,
 * `assistant.threads.setStatus`, `reactions.add/remove`, `users.info` (with the profile's e-mail, the user's team and guest flags),
 * `conversations.info`, `conversations.replies`) over
 * a model of the messages as the platform would show them, and a socket-mode WebSocket server
 * that says `hello`, delivers `events_api` and `interactive` (button) envelopes and records the acks.
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
  let clock = 0;
  const messages = new Map<string, ShownMessage>();
  const statuses: { channel: string; threadTs: string; status: string }[] = [];
  const nextTs = () => `${Math.floor(wallClock.ms() / 1000)}.${String(++clock).padStart(6, '0')}`;
  const blocksOf = (value: unknown): unknown[] => (typeof value === 'string' ? JSON.parse(value) : ((value as unknown[]) ?? []));

  const users: Record<string, string> = { U1: 'Ada Lovelace', U2: 'Grace Hopper' };
  /** The e-mail address of a user's profile (shown to an app with `users:read.email`). */
  const emails: Record<string, string> = { U1: 'ada@example.com', U2: 'grace@example.com' };
  /** A user's home chat team (default `T1`, the team the app is installed in): another's is a Slack Connect guest. */
  const teams: Record<string, string> = {};
  /** Flags of a user's account as `users.info` shows them (`is_restricted`, `is_ultra_restricted`, `is_stranger`…). */
  const userFlags: Record<string, Record<string, boolean>> = {};
  const ephemerals: { channel: string; user: string; threadTs: string | undefined; text: string }[] = [];
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
      calls.push({ method, token, params, at: wallClock.ms() });
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
      case 'chat.postMessage': {
        const ts = nextTs();
        const text = params.text ?? '';
        messages.set(ts, {
          ts,
          channel: params.channel ?? '',
          threadTs: params.thread_ts,
          text,
          blocks: blocksOf(params.blocks),
          streaming: false,
          versions: [text],
        });
        return { body: { ok: true, channel: params.channel, ts, message: { text } } };
      }
      case 'chat.update': {
        const message = messages.get(params.ts ?? '');
        if (!message) return { body: { ok: false, error: 'message_not_found' } };
        message.text = params.text ?? '';
        message.blocks = blocksOf(params.blocks);
        message.versions.push(message.text);
        return { body: { ok: true, channel: message.channel, ts: message.ts, text: message.text } };
      }
      case 'chat.delete':
        return messages.delete(params.ts ?? '') ? { body: { ok: true } } : { body: { ok: false, error: 'message_not_found' } };
      case 'chat.startStream': {
        if (options.streaming === false) return { body: { ok: false, error: 'not_allowed_token_type' } };
        if (!params.recipient_user_id) return { body: { ok: false, error: 'missing_recipient_user_id' } };
        const ts = nextTs();
        const text = params.markdown_text ?? '';
        messages.set(ts, {
          ts,
          channel: params.channel ?? '',
          threadTs: params.thread_ts,
          text,
          blocks: [],
          streaming: true,
          versions: [text],
        });
        return { body: { ok: true, channel: params.channel, ts } };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const message = messages.get(params.ts ?? '');
        if (!message?.streaming) return { body: { ok: false, error: 'message_not_in_streaming_state' } };
        message.text += params.markdown_text ?? '';
        message.versions.push(message.text);
        if (method === 'chat.stopStream') {
          message.streaming = false;
          message.blocks = blocksOf(params.blocks);
        }
        return { body: { ok: true, channel: message.channel, ts: message.ts } };
      }
      case 'chat.postEphemeral':
        ephemerals.push({ channel: params.channel ?? '', user: params.user ?? '', threadTs: params.thread_ts, text: params.text ?? '' });
        return { body: { ok: true, message_ts: nextTs() } };
      case 'assistant.threads.setStatus':
        if (options.assistantStatus === false) return { body: { ok: false, error: 'not_allowed_token_type' } };
        statuses.push({ channel: params.channel_id ?? '', threadTs: params.thread_ts ?? '', status: params.status ?? '' });
        return { body: { ok: true } };
      case 'reactions.add':
      case 'reactions.remove':
        return { body: { ok: true } };
      case 'users.info': {
        const name = users[params.user ?? ''];
        const email = emails[params.user ?? ''];
        const profile = { real_name: name, ...(email ? { email } : {}) };
        return name
          ? {
              body: {
                ok: true,
                user: {
                  id: params.user,
                  team_id: teams[params.user ?? ''] ?? 'T1',
                  name: name.toLowerCase(),
                  real_name: name,
                  profile,
                  ...userFlags[params.user ?? ''],
                },
              },
            }
          : { body: { ok: false, error: 'user_not_found' } };
      }
      case 'conversations.replies': {
        // The bot's messages of the thread (the fake keeps no one else's), one page.
        const replies = [...messages.values()]
          .filter((message) => message.channel === params.channel && message.threadTs === params.ts)
          .sort((a, b) => a.ts.localeCompare(b.ts))
          .map((message) => ({ type: 'message', ts: message.ts, thread_ts: message.threadTs, text: message.text, blocks: message.blocks }));
        return { body: { ok: true, messages: replies, has_more: false } };
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
    emails,
    teams,
    userFlags,
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
    /** The thread's messages as the platform shows them now (posted, updated, streamed), oldest first. */
    messagesIn(threadTs: string): ShownMessage[] {
      return [...messages.values()].filter((message) => message.threadTs === threadTs).sort((a, b) => a.ts.localeCompare(b.ts));
    },
    /** The messages posted in the channel itself (not in a thread), as the platform shows them now, oldest first. */
    messagesInChannel(channel: string): ShownMessage[] {
      return [...messages.values()]
        .filter((message) => message.channel === channel && !message.threadTs)
        .sort((a, b) => a.ts.localeCompare(b.ts));
    },
    /** The texts of the thread's finished messages (posted, or streamed and stopped), oldest first. */
    answersIn(threadTs: string): string[] {
      return this.messagesIn(threadTs)
        .filter((message) => !message.streaming)
        .map((message) => message.text);
    },
    /** The private messages (`chat.postEphemeral`) shown to a user, oldest first. */
    ephemeralsFor(user: string): string[] {
      return ephemerals.filter((message) => message.user === user).map((message) => message.text);
    },
    /** Forgets the messages shown so far (between tests). */
    clearMessages() {
      messages.clear();
      statuses.length = 0;
      ephemerals.length = 0;
    },
    /** Assistant statuses set in a thread, in order. */
    statusesIn(threadTs: string): string[] {
      return statuses.filter((status) => status.threadTs === threadTs).map((status) => status.status);
    },
    /** Sets whether the app may stream messages and set statuses (as an app without the AI features may not). */
    allow(features: { streaming?: boolean; assistantStatus?: boolean }) {
      Object.assign(options, features);
    },
    /** Delivers an interactive payload (a button press) over every open socket; returns the envelope id. */
    pressButton(press: {
      user: string;
      channel: string;
      messageTs: string;
      threadTs?: string;
      actionId: string;
      value: string;
      blockId?: string;
    }): string {
      const envelopeId = randomUUID();
      const envelope = {
        envelope_id: envelopeId,
        type: 'interactive',
        accepts_response_payload: false,
        payload: {
          type: 'block_actions',
          token: 'verification',
          api_app_id: 'A1',
          team: { id: 'T1', domain: 'example' },
          // The press reaches the app of the team it is installed in; the user's own team may differ.
          user: { id: press.user, username: press.user.toLowerCase(), team_id: teams[press.user] ?? 'T1' },
          channel: { id: press.channel, name: channels[press.channel] ?? press.channel },
          container: { type: 'message', message_ts: press.messageTs, channel_id: press.channel, is_ephemeral: false },
          message: { type: 'message', ts: press.messageTs, thread_ts: press.threadTs, text: '' },
          trigger_id: `trigger-${envelopeId}`,
          response_url: `http://127.0.0.1:${port}/response/${envelopeId}`,
          actions: [
            {
              type: 'button',
              action_id: press.actionId,
              block_id: press.blockId ?? 'feedback',
              value: press.value,
              action_ts: `${wallClock.ms() / 1000}`,
            },
          ],
        },
      };
      for (const socket of sockets) socket.send(JSON.stringify(envelope));
      return envelopeId;
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
          event_time: Math.floor(wallClock.ms() / 1000),
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
