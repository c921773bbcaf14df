import type { Principal } from '../auth/index.js';
import { ownerOf } from '../conversations/index.js';
import { callerOf, type ApprovalItem } from './approvals.js';

/* Who may decide an approval: the rule, apart from deciding (which runs the agent), so a list can say it too. */

/**
 * Who decides: their organisation and role, who they are as a conversation owner (`user:<id>`; in
 * team chat the user their chat account is linked to), their name.
 */
export interface Decider {
  orgId: string;
  role: string;
  owner: string;
  name: string;
  /**
   * A team-chat user deciding with a button in the conversation's thread (`chat:<org>:<user>`):
   * they are the asker if they asked, and the bridge shows what follows in the thread itself.
   */
  chatUser?: string;
}

/**
 * Who asked, as a decider is compared with them: in team chat the user of the service the asker's
 * chat account was linked to (`user:<id>`), or the chat user (`chat:<org>:<user>`) when it was not
 * (all threads of a workspace share one owner, so the owner does not say who asked); else the owner.
 */
function askerOf(item: ApprovalItem): string {
  const caller = callerOf(item);
  return caller.consumerType === 'team-chat' && caller.grantSubject ? caller.grantSubject : item.requester;
}

/** The decider a principal is: an api key is never an admin. */
export function deciderOf(principal: Principal): Decider {
  return { orgId: principal.orgId, role: principal.apiKey ? 'key' : principal.role, owner: ownerOf(principal), name: principal.name };
}

/**
 * Whether this person may decide this approval (the workspace's `approvers` when it was asked). The
 * asker is the same user of the service, or the same chat account (linked since it asked).
 */
export function mayDecide(item: ApprovalItem, decider: Decider): boolean {
  if (item.approvers === 'admins') return decider.role === 'admin';
  const asker = askerOf(item);
  return decider.owner === asker || decider.chatUser === asker;
}

export function whoMayDecide(item: ApprovalItem): string {
  return item.approvers === 'admins' ? 'an admin of the organisation' : `the person who asked (${item.requested_by})`;
}
