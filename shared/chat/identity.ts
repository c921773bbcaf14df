import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import type { AgentDeps } from '../deps.js';
import type { UserItem } from '../org/index.js';
import type { Config } from '../platform/config.js';
import { LINK_REQUEST_MINUTES, linkedUserOf, requestChatLink, type ChatAccount } from './links.js';

/*
 * Who a chat user is to the service, as the bridge tells it (docs/team-chat.md, "Who you are in
 * chat"): someone of another chat team or a guest is a stranger and never acts as a user of the
 * service; a member of the organisation's chat team acts as the user their account is linked to,
 * once it is (`links.ts`) and while that user is active; until then the bot sends them a one-time
 * link. A deactivated user's link acts as nobody; a removed user's links are deleted.
 */

/** The chat team the organisation's bot is installed in (`auth.test` when its socket starts). */
export interface ChatTeam {
  id: string;
  name: string;
}

/**
 * Why a chat user acts for nobody in the organisation: they are of another team, a guest, unknown
 * to the platform, or linked to a user the organisation deactivated.
 */
type StrangerReason = 'another team' | 'guest' | 'unknown' | 'deactivated';

export type ChatPerson =
  | { kind: 'linked'; account: ChatAccount; user: UserItem }
  | { kind: 'unlinked'; account: ChatAccount }
  | { kind: 'stranger'; reason: StrangerReason };

interface PersonContext {
  orgId: string;
  team: ChatTeam;
  client: WebClient;
}

/** What `users.info` says about a chat user that decides who they are. */
interface ChatProfile {
  teamId: string | undefined;
  name: string;
  /** A multi-channel or single-channel guest. */
  guest: boolean;
  /** Of another organisation (shared channels), or a deactivated account or a bot. */
  outside: boolean;
}

/** Profiles for messages, bounded and kept ten minutes; a press always reads a fresh one. */
const profiles = new LRUCache<string, { profile: ChatProfile; until: number }>({ max: 10_000 });

async function readProfile(client: WebClient, user: string): Promise<ChatProfile | undefined> {
  const info = await client.users.info({ user }).catch(() => undefined);
  const found = info?.user;
  if (!found) return undefined;
  return {
    teamId: found.team_id,
    name: found.real_name || found.profile?.real_name || found.name || user,
    guest: found.is_restricted === true || found.is_ultra_restricted === true,
    outside: found.is_stranger === true || found.deleted === true || found.is_bot === true,
  };
}

async function profileOf(deps: AgentDeps, context: PersonContext, user: string, fresh: boolean): Promise<ChatProfile | undefined> {
  const key = `${context.orgId}:${user}`;
  const now = deps.clock.now().getTime();
  const cached = profiles.get(key);
  if (!fresh && cached && cached.until > now) return cached.profile;
  const profile = await readProfile(context.client, user);
  if (profile) profiles.set(key, { profile, until: now + 10 * 60_000 });
  return profile;
}

/**
 * Who a chat user is: the team the platform says they pressed or wrote from (`claimedTeam`) and
 * their profile's team must both be the organisation's; guests and accounts from outside are
 * strangers whatever their profile shows (an e-mail address is whatever its owner typed). A press
 * reads the profile afresh (`fresh`), so a member made a guest a minute ago no longer decides. The
 * link is read afresh always: a chat account linked to a user the organisation deactivated is a
 * stranger too (and gets no new link: it is linked, to someone who may not act).
 */
export async function chatPersonOf(
  deps: AgentDeps,
  context: PersonContext,
  user: string,
  options: { claimedTeam: string | undefined; fresh: boolean },
): Promise<ChatPerson> {
  if (options.claimedTeam !== undefined && options.claimedTeam !== context.team.id) return { kind: 'stranger', reason: 'another team' };
  const profile = await profileOf(deps, context, user, options.fresh);
  if (!profile) return { kind: 'stranger', reason: 'unknown' };
  // Some team must say it is the organisation's: the press's or the profile's; neither may say another.
  const teamId = profile.teamId ?? options.claimedTeam;
  if (profile.outside || teamId !== context.team.id) return { kind: 'stranger', reason: 'another team' };
  if (profile.guest) return { kind: 'stranger', reason: 'guest' };
  const account = { teamId: context.team.id, teamName: context.team.name, userId: user, userName: profile.name };
  const linked = await linkedUserOf(deps, context.orgId, context.team.id, user);
  if (linked === 'deactivated') return { kind: 'stranger', reason: 'deactivated' };
  return linked ? { kind: 'linked', account, user: linked.user } : { kind: 'unlinked', account };
}

/** Why a stranger may not act as a user of the organisation, as the end of a sentence. */
export function strangerReason(reason: StrangerReason): string {
  if (reason === 'another team') return 'people of another chat team never decide or act for this organisation';
  if (reason === 'guest') return 'guests of the chat team never decide or act for this organisation';
  if (reason === 'deactivated') return 'the user of the service your chat account is linked to is deactivated by your organisation';
  return 'I could not check your chat account with the chat platform';
}

/**
 * Where the console is, for the page of a link request: `PUBLIC_BASE_URL`, else (local runtime) the
 * address the service listens on. None on AWS without it: the bridge has no request to take an
 * origin from.
 */
function consoleBaseUrl(config: Config): string | undefined {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return config.publicBaseUrl ?? (config.runtime === 'local' ? `http://${host}:${config.port}` : undefined);
}

/**
 * Sends a chat user a one-time link to the console page that links their account, privately (an
 * ephemeral message only they see), after `lead` (why they get it).
 */
export async function offerLink(
  deps: AgentDeps,
  context: PersonContext,
  account: ChatAccount,
  where: { channel: string; threadTs?: string },
  lead: string,
): Promise<void> {
  const base = consoleBaseUrl(deps.config);
  const how = base
    ? `Open this link (it is only for you and works once, for ${LINK_REQUEST_MINUTES} minutes), sign in to the console and confirm: ` +
      `${base}/chat/link/${await requestChatLink(deps, context.orgId, account)}`
    : "I cannot send you a link: the service's public address (PUBLIC_BASE_URL) is not configured. Ask an admin.";
  await context.client.chat.postEphemeral({
    channel: where.channel,
    user: account.userId,
    text: `${lead} ${how}`,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
  });
}
