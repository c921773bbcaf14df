import { putNew } from '../platform/updates.js';
import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { runQuery, type Caller } from '../agent/index.js';
import { connectionsOfWorkspace } from '../connections/index.js';
import { conversationKey, teamChatOwner } from '../conversations/index.js';
import type { AgentDeps } from '../deps.js';
import type { Clock } from '../platform/clock.js';
import { ConflictError, NotFoundError, PaymentRequiredError, TooManyRequestsError } from '../platform/errors.js';
import type { Key } from '../platform/table.js';
import { getBinding, chatEventSeenKey, chatMessageSeenKey, chatPersonOf, offerLink, strangerReason, type ChatTeam } from '../chat/index.js';
import { ThreadReply } from './reply.js';
import { finishAnswer, splitForPosting } from './thread-answer.js';

export { splitForPosting } from './thread-answer.js';

/** The fields of a team-chat message event the bridge reads. */
export interface ChatMessageEvent {
  type?: string;
  subtype?: string;
  channel?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  /** The writer's chat team (`user_team` in shared channels). */
  team?: string;
  user_team?: string;
}

export interface ChatContext {
  orgId: string;
  /** The organisation's chat team: its bot's. */
  team: ChatTeam;
  botUserId: string;
  /** The chat team the event came from (streaming a message outside a DM names it). */
  teamId?: string;
  client: WebClient;
}

const DEDUPE_TTL_SECONDS = 2 * 24 * 3600;
const WORKING_REACTION = 'eyes';

export const UNBOUND_REPLY =
  'This channel is not connected to a workspace yet. An admin can bind it with POST /api/connectors/consumer/channel.';
const CLOSED_REPLY = 'This conversation is closed. Mention me in a new thread to start another one.';
const NEEDS_GRANT_REPLY =
  'A tool of this workspace needs your authorization first: I sent you a private link to grant it. Ask again once you have.';
const NEEDS_LINK =
  'A tool of this workspace acts as each person who asks, with their own access: your chat account must be linked to your user of the service first.';
const NEEDS_LINK_REPLY =
  'A tool of this workspace acts as each person who asks: I sent you a private link to link your chat account first. Ask again once you have.';

/** The question without the bot's mention. */
function stripMention(text: string, botUserId: string): string {
  return text
    .replace(new RegExp(`<@${botUserId}(\\|[^>]*)?>`, 'g'), '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A conditional write with a TTL: true the first time a key is seen. Survives restarts, so a redelivery is dropped too. */
async function firstTime(deps: AgentDeps, key: Key): Promise<boolean> {
  const ttl = Math.floor(deps.clock.now().getTime() / 1000) + DEDUPE_TTL_SECONDS;
  return putNew(deps.table, { ...key, ttl });
}

/** Real names of users and channels, bounded (the bridge runs for months; the least recently used go first). */
const names = new LRUCache<string, { value: string; until: number }>({ max: 10_000 });

/** A user's real name or a channel's name, cached for ten minutes. */
async function cachedName(clock: Clock, key: string, lookup: () => Promise<string | undefined>, fallback: string): Promise<string> {
  const now = clock.now().getTime();
  const cached = names.get(key);
  if (cached && cached.until > now) return cached.value;
  const value = (await lookup().catch(() => undefined)) || fallback;
  names.set(key, { value, until: now + 10 * 60_000 });
  return value;
}

async function postInThread(context: ChatContext, channel: string, threadTs: string, text: string): Promise<void> {
  for (const part of splitForPosting(text)) {
    await context.client.chat.postMessage({ channel, thread_ts: threadTs, text: part });
  }
}

/** The asker's and the channel's display names (cached a while; the id when the platform will not say). */
function namesOf(
  deps: AgentDeps,
  context: ChatContext,
  user: string,
  channel: string,
  knownChannelName: string,
): Promise<[string, string]> {
  return Promise.all([
    cachedName(
      deps.clock,
      `user:${context.orgId}:${user}`,
      async () => {
        const info = await context.client.users.info({ user });
        return info.user?.real_name || info.user?.profile?.real_name || info.user?.name;
      },
      user,
    ),
    cachedName(
      deps.clock,
      `channel:${context.orgId}:${channel}`,
      async () => (await context.client.conversations.info({ channel })).channel?.name,
      knownChannelName,
    ),
  ]);
}

/** Whether a workspace has a connection used with each caller's own grant (`credential: per_user`). */
async function hasPerUserConnection(deps: AgentDeps, orgId: string, workspaceId: string): Promise<boolean> {
  const connections = await deps.table.queryAll<{ credential?: string }>(connectionsOfWorkspace(orgId, workspaceId));
  return connections.some((connection) => connection.credential === 'per_user');
}

/**
 * Whose grant the asker's query uses (`Caller.grantSubject`): the user of the service their chat
 * account is linked to (`user:<id>`, the grant they use through the API too). A workspace with a
 * per-user connection answers nobody else: an unlinked member of the chat team gets a link to link
 * their account (privately), a stranger a reply saying why not; then undefined, and nothing runs.
 * The account of a user the organisation deactivated is answered in no workspace.
 */
async function grantSubjectOf(
  deps: AgentDeps,
  context: ChatContext,
  asker: { user: string; claimedTeam: string | undefined; channel: string; threadTs: string },
  workspaceId: string,
): Promise<string | undefined> {
  const { user, channel, threadTs } = asker;
  const person = await chatPersonOf(deps, context, user, { claimedTeam: asker.claimedTeam, fresh: false });
  if (person.kind === 'linked') return `user:${person.user.id}`;
  if (person.kind === 'stranger' && person.reason === 'deactivated') {
    // The organisation knows who this is and stopped them: they ask nothing, in any workspace.
    await postInThread(context, channel, threadTs, `I cannot answer you: ${strangerReason(person.reason)}.`);
    return undefined;
  }
  if (!(await hasPerUserConnection(deps, context.orgId, workspaceId))) return `chat:${context.orgId}:${user}`;
  if (person.kind === 'unlinked') {
    await offerLink(deps, context, person.account, { channel, threadTs }, NEEDS_LINK);
    await postInThread(context, channel, threadTs, NEEDS_LINK_REPLY);
  } else {
    await postInThread(
      context,
      channel,
      threadTs,
      `A tool of this workspace acts as each person who asks, so I cannot answer you: ${strangerReason(person.reason)}.`,
    );
  }
  return undefined;
}

/** What stopped a query before it ran, said in words (a closed conversation, the rate limit, a removed workspace). */
function refusalOf(error: unknown): string {
  if (error instanceof ConflictError) return CLOSED_REPLY;
  // A budget without room: the bot answers what the API does (the budget, what it spent, when it resets).
  if (error instanceof PaymentRequiredError) return error.message;
  if (error instanceof TooManyRequestsError)
    return `I am answering too many questions right now; ask again in ${error.retryAfterSeconds} seconds.`;
  if (error instanceof NotFoundError) return 'The workspace of this channel no longer exists.';
  throw error;
}

/**
 * Answers in the thread while the agent works (`reply.ts`: a status, then the answer streamed into
 * one message, with 👍/👎 buttons at the end, or the approval message of a call it waits for), or
 * says what stopped it.
 */
async function answerInThread(
  deps: AgentDeps,
  context: ChatContext,
  caller: Caller,
  ask: { workspaceId: string; query: string; conversationId: string; userId: string },
): Promise<void> {
  const { channelId: channel, threadTs } = caller.chat as { channelId: string; threadTs: string };
  const reply = new ThreadReply(context.client, { channel, threadTs, userId: ask.userId, teamId: context.teamId }, deps.logger);
  await reply.start();
  let result: Awaited<ReturnType<typeof runQuery>>;
  try {
    result = await runQuery(
      deps,
      caller,
      ask.workspaceId,
      { query: ask.query, session_id: ask.conversationId },
      {
        onEvent: (event) => reply.onEvent(event),
      },
    );
  } catch (error) {
    await reply.abandon();
    await postInThread(context, channel, threadTs, refusalOf(error));
    return;
  }
  const { response } = result;
  if (response.authorization_url) {
    await reply.abandon();
    // Only that chat user sees the link: it finishes their own grant.
    await context.client.chat.postEphemeral({
      channel,
      user: ask.userId,
      thread_ts: threadTs,
      text: `Grant access, then ask again: ${response.authorization_url}`,
    });
    await postInThread(context, channel, threadTs, NEEDS_GRANT_REPLY);
    return;
  }
  // The answer has streamed; what is left is why it stopped, if it did, or the approval it waits for.
  await finishAnswer(deps, context.client, reply, { channel, threadTs, orgId: context.orgId, workspaceId: ask.workspaceId }, result);
}

/**
 * One message from a bound channel (or not). Duplicates are dropped by event id and by message
 * (the same message arrives as `app_mention` and as `message`); the bot's own messages are
 * ignored. A mention starts or continues the conversation of its thread; a later message in a
 * thread that has a conversation continues it without a mention. The answer is posted in the
 * thread, with a reaction on the question while the agent works.
 */
export async function handleChatMessage(
  deps: AgentDeps,
  context: ChatContext,
  event: ChatMessageEvent,
  eventId: string | undefined,
): Promise<void> {
  const { channel, user, ts } = event;
  if (!channel || !user || !ts) return;
  if (event.bot_id || user === context.botUserId) return;
  if (event.subtype && event.subtype !== 'thread_broadcast' && event.subtype !== 'file_share') return;
  if (eventId && !(await firstTime(deps, chatEventSeenKey(context.orgId, eventId)))) return;
  if (!(await firstTime(deps, chatMessageSeenKey(context.orgId, channel, ts)))) return;

  const text = event.text ?? '';
  const mentioned = text.includes(`<@${context.botUserId}`);
  const threadTs = event.thread_ts ?? ts;
  const binding = await getBinding(deps, context.orgId, channel);
  if (!binding) {
    if (mentioned) await postInThread(context, channel, threadTs, UNBOUND_REPLY);
    return;
  }
  const conversationId = `${channel}-${threadTs}`;
  if (!mentioned) {
    // Plain chatter is not for the bot, unless it continues a thread the bot is in.
    const conversation = await deps.table.get(conversationKey(binding.org_id, binding.workspace_id, conversationId));
    if (!conversation || (conversation.owner !== undefined && conversation.owner !== teamChatOwner(binding.workspace_id))) return;
  }
  const query = stripMention(text, context.botUserId);
  if (!query) {
    await postInThread(context, channel, threadTs, 'Ask me a question after the mention.');
    return;
  }

  await context.client.reactions.add({ channel, timestamp: ts, name: WORKING_REACTION }).catch(() => undefined);
  try {
    const asker = { user, claimedTeam: event.user_team ?? event.team, channel, threadTs };
    const grantSubject = await grantSubjectOf(deps, context, asker, binding.workspace_id);
    if (!grantSubject) return;
    const [userName, channelName] = await namesOf(deps, context, user, channel, binding.channel_name ?? channel);
    const caller: Caller = {
      orgId: context.orgId,
      role: 'member',
      userName,
      consumerType: 'team-chat',
      channel: channelName,
      chat: { channelId: channel, threadTs, userId: user },
      owner: teamChatOwner(binding.workspace_id),
      grantSubject,
    };
    await answerInThread(deps, context, caller, { workspaceId: binding.workspace_id, query, conversationId, userId: user });
  } finally {
    await context.client.reactions.remove({ channel, timestamp: ts, name: WORKING_REACTION }).catch(() => undefined);
  }
}
