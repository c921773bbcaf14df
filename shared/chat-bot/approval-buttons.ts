import type { WebClient } from '@slack/web-api';
import { callerOf, getApproval, toApprovalView, type ApprovalItem, mayDecide, type Decider } from '../approvals/index.js';
import { approvalOf, decideApproval } from '../agent/index.js';
import type { AgentDeps } from '../deps.js';
import { DomainError, NotFoundError, PaymentRequiredError, errorMessage, TooManyRequestsError } from '../platform/errors.js';
import { APPROVAL_ACTIONS, approvalRefOf } from './approval-messages.js';
import { channelApprovalIn, getBinding, chatPersonOf, offerLink, strangerReason, type ChatTeam } from '../chat/index.js';
import { ThreadReply } from './reply.js';
import { finishAnswer, showDecision } from './thread-answer.js';

/** A press of an Approve / Deny button, as the bridge reads it from the interactive payload. */
export interface ApprovalPress {
  user: string;
  /** The chat team of the user who pressed, as the payload says (`user.team_id`, else `team.id`). */
  userTeam: string | undefined;
  channel: string;
  /** The approval message the button is on. */
  messageTs: string | undefined;
  actionId: string;
  value: string | undefined;
}

interface PressContext {
  orgId: string;
  /** The organisation's chat team: its bot's. */
  team: ChatTeam;
  /** The chat team the press came from (streaming a message outside a DM names it). */
  teamId: string | undefined;
  client: WebClient;
}

const NOT_HERE = 'This request is not one of a workspace bound to this channel, so nothing was decided.';
const GONE_WRONG = 'Sorry, the decision is recorded but I could not go on with the answer. Ask again in this thread.';
const UNLINKED =
  'You may not decide this yet: your chat account is not linked to a user of the service. Link it, then press the button again.';

/**
 * The presser as a decider, by the link of their chat account, never by their profile's e-mail
 * address (which anyone can set): the linked user of the service with their role now, who is also
 * the asker of their own questions (`chatUser`). Anyone else is told why not, privately, and
 * decides nothing: people of another chat team, guests and the account of a deactivated user never;
 * an unlinked member gets a link.
 */
async function linkedDecider(
  deps: AgentDeps,
  context: PressContext,
  press: ApprovalPress,
  tell: (text: string) => Promise<unknown>,
  threadTs: string | undefined,
): Promise<Decider | undefined> {
  const person = await chatPersonOf(deps, context, press.user, { claimedTeam: press.userTeam, fresh: true });
  if (person.kind === 'linked') {
    const { user } = person;
    return {
      orgId: context.orgId,
      role: user.org_role,
      owner: `user:${user.id}`,
      name: user.name,
      chatUser: `chat:${context.orgId}:${press.user}`,
    };
  }
  if (person.kind === 'unlinked') await offerLink(deps, context, person.account, { channel: press.channel, threadTs }, UNLINKED);
  else await tell(`You may not decide this: ${strangerReason(person.reason)}.`);
  return undefined;
}

/**
 * The approval of a button pressed in this channel: of the organisation and of the workspace bound
 * to the channel, asked in a thread of the channel (`threadTs`: the answer goes on there) or, for a
 * conversation without a thread (a routine's run), posted in the channel as the very message pressed
 * (`threadTs` undefined: the routine delivers what follows).
 */
async function pressedApproval(deps: AgentDeps, orgId: string, press: ApprovalPress, ref: { workspaceId: string; approvalId: string }) {
  const item = await approvalOf(deps, orgId, ref.workspaceId, ref.approvalId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  const caller = item && callerOf(item);
  if (!item || !caller || (caller.chat && caller.chat.channelId !== press.channel)) return undefined;
  const binding = await getBinding(deps, orgId, press.channel);
  if (binding?.workspace_id !== item.workspace_id) return undefined;
  if (caller.chat) return { item, caller, threadTs: caller.chat.threadTs };
  const posted = await channelApprovalIn(deps, orgId, item.id, press.channel);
  return posted && posted.ts === press.messageTs ? { item, caller, threadTs: undefined } : undefined;
}

/** Why a press on an approval no longer pending decides nothing. */
function decidedNotice(item: ApprovalItem | undefined): string {
  if (item?.status === 'approved' || item?.status === 'denied')
    return `This call was already ${item.status} by ${item.decided_by ?? 'someone'}.`;
  return 'This request has expired: nobody decided it in time, and the call did not run.';
}

/** Who may decide, for someone who may not. */
function mayNotNotice(item: ApprovalItem): string {
  if (item.approvers === 'requester') return `You may not decide this: only the person who asked (${item.requested_by}) may.`;
  return 'You may not decide this: only an admin of the organisation may.';
}

/** What the presser is told when a decision failed before it was written (nothing decided); undefined for any other failure. */
async function nothingDecided(deps: AgentDeps, item: ApprovalItem, error: unknown): Promise<string | undefined> {
  // No place among the organisation's queries in flight: nothing was decided, press again later.
  if (error instanceof TooManyRequestsError)
    return `Nothing was decided: ${error.message}. Press again in ${error.retryAfterSeconds} seconds.`;
  // A budget without room: nothing was decided; the approval waits for the budget's reset or a higher limit.
  if (error instanceof PaymentRequiredError) return `Nothing was decided: ${error.message}`;
  // Decided by someone else a moment before (of two decisions exactly one wins).
  if (error instanceof DomainError) return decidedNotice(await getApproval(deps, item.org_id, item.workspace_id, item.id));
  return undefined;
}

/**
 * An Approve / Deny press on an approval message. A press on one decided or expired already, or by
 * someone who may not decide it, is answered with a private notice and nothing else happens.
 * Otherwise the message shows the decision and the query goes on: in the thread like any answer
 * (status, streamed text, 👍/👎 buttons; or the next approval message), or, for an approval posted
 * in the channel itself (a routine's run), where the routine delivers (routines/resumed-run.ts).
 */
export async function handleApprovalPress(deps: AgentDeps, context: PressContext, press: ApprovalPress): Promise<void> {
  const ref = approvalRefOf(press.value);
  if (!ref) return;
  const tell = (text: string, threadTs?: string) =>
    context.client.chat.postEphemeral({ channel: press.channel, user: press.user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
  const pressed = await pressedApproval(deps, context.orgId, press, ref);
  if (!pressed) {
    await tell(NOT_HERE);
    return;
  }
  const { item, caller, threadTs } = pressed;
  if (item.status !== 'pending' || item.expires_at <= deps.clock.now().toISOString()) {
    await tell(decidedNotice(item), threadTs);
    return;
  }
  const decider = await linkedDecider(deps, context, press, (text) => tell(text, threadTs), threadTs);
  if (!decider) return;
  if (!mayDecide(item, decider)) {
    await tell(mayNotNotice(item), threadTs);
    return;
  }

  const status = press.actionId === APPROVAL_ACTIONS.approve ? ('approved' as const) : ('denied' as const);
  // The answer goes on for the one who asked (a stream names its recipient); not named (before they were kept): the presser.
  const asker = caller.chat?.userId ?? press.user;
  const thread = threadTs ? { channel: press.channel, threadTs, userId: asker, teamId: context.teamId } : undefined;
  const reply = thread ? new ThreadReply(context.client, thread, deps.logger) : undefined;
  let started = false;
  let shown: Promise<void> = Promise.resolve();
  const onStart = () => {
    // Claimed: the message shows the decision at once, and the thread that the agent works again.
    started = true;
    const message = { channel: press.channel, ts: press.messageTs ?? '' };
    shown = showDecision(context.client, message, item.workspace_id, toApprovalView(item), {
      status,
      decidedBy: decider.name,
      reason: null,
    }).catch((error: unknown) =>
      deps.logger.warn('team-chat approval message not updated', { approvalId: item.id, error: errorMessage(error) }),
    );
    void reply?.start();
  };
  let result: Awaited<ReturnType<typeof decideApproval>>;
  try {
    const decision = { decision: status === 'approved' ? ('approve' as const) : ('deny' as const) };
    result = await decideApproval(deps, decider, item.workspace_id, item.id, decision, {
      onStart,
      ...(reply ? { onEvent: (event) => reply.onEvent(event) } : {}),
    });
  } catch (error) {
    await reply?.abandon();
    const notice = started ? undefined : await nothingDecided(deps, item, error);
    if (notice) {
      await tell(notice, threadTs);
      return;
    }
    // Decided, but the query could not go on: the thread says so (the bridge logs why).
    await shown;
    if (threadTs) await context.client.chat.postMessage({ channel: press.channel, thread_ts: threadTs, text: GONE_WRONG });
    throw error;
  }
  await shown;
  if (!reply || !thread) return;
  const ask = { channel: press.channel, threadTs: thread.threadTs, orgId: item.org_id, workspaceId: item.workspace_id };
  await finishAnswer(deps, context.client, reply, ask, result);
}
