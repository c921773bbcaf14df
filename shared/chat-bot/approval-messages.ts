import type { types } from '@slack/bolt';
import type { PendingApproval } from '../agent/index.js';
import { escapeMrkdwn as escaped, type DecisionForThread } from '../chat/index.js';

/*
 * The approval message in a team-chat thread: what tool would run with which arguments, who asked,
 * who may decide and until when, with Approve / Deny buttons; once decided, the same without the
 * buttons and with who decided what.
 */

type KnownBlock = types.KnownBlock;
type Decision = DecisionForThread['decision'];

export const APPROVAL_ACTIONS = { approve: 'approval_approve', deny: 'approval_deny' } as const;

/** The arguments shown in the message, at most this long (all of them: `GET …/approvals`). */
const MAX_ARGUMENT_CHARS = 1_500;

/** Which approval a button decides: small, in the button's value. */
interface ApprovalRef {
  w: string;
  a: string;
}

export function approvalRefOf(value: string | undefined): { workspaceId: string; approvalId: string } | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as Partial<ApprovalRef>;
    if (typeof parsed.w === 'string' && typeof parsed.a === 'string') return { workspaceId: parsed.w, approvalId: parsed.a };
  } catch {
    // not one of our buttons
  }
  return undefined;
}

/** The arguments as indented JSON in a code block, trimmed to a readable length (the section's limit is 3 000). */
function argumentsBlock(workspaceId: string, input: Record<string, unknown>): string {
  // A run of three backticks in a value would end the code block early.
  const json = escaped(JSON.stringify(input, null, 2) ?? '{}').replace(/```/g, '`\u200b`\u200b`');
  if (json.length <= MAX_ARGUMENT_CHARS) return `\`\`\`${json}\`\`\``;
  // Cut, but not inside an escape (`&amp;`).
  const cut = json.slice(0, MAX_ARGUMENT_CHARS).replace(/&[a-z]*$/, '');
  return `\`\`\`${cut}\n…\`\`\`\n_Trimmed: all the arguments are in GET /api/workspaces/${workspaceId}/approvals._`;
}

/** A time the platform shows in the reader's own time zone (the ISO time where it cannot). */
function chatTime(iso: string): string {
  const seconds = Math.floor(new Date(iso).getTime() / 1000);
  return `<!date^${seconds}^{date_short_pretty} at {time}|${iso}>`;
}

function toolLabel(approval: { tool: string; connection: string | null }): string {
  return `\`${escaped(approval.tool)}\`${approval.connection ? ` of *${escaped(approval.connection)}*` : ''}`;
}

/** The part of the message that stays once decided: the call and its arguments (its block id names the approval). */
function callBlock(workspaceId: string, approval: PendingApproval, heading: string): KnownBlock {
  return {
    type: 'section',
    block_id: approvalBlockId(approval.id),
    text: { type: 'mrkdwn', text: `${heading} ${toolLabel(approval)} with:\n${argumentsBlock(workspaceId, approval.input)}` },
  };
}

/** How the approval message is found again in its thread. */
export function approvalBlockId(approvalId: string): string {
  return `approval:${approvalId}`;
}

function context(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

/** The approval message with its Approve / Deny buttons. */
export function approvalRequestMessage(
  workspaceId: string,
  approval: PendingApproval,
  approvers: 'admins' | 'requester' | undefined,
): { text: string; blocks: KnownBlock[] } {
  const value = JSON.stringify({ w: workspaceId, a: approval.id } satisfies ApprovalRef);
  const who = approvers === 'requester' ? 'the person who asked' : 'an admin of the organisation';
  const button = (actionId: string, label: string, style: 'primary' | 'danger') => ({
    type: 'button' as const,
    action_id: actionId,
    text: { type: 'plain_text' as const, text: label },
    style,
    value,
  });
  return {
    text: `Approval needed: ${escaped(approval.tool)}, asked by ${escaped(approval.requested_by)}`,
    blocks: [
      callBlock(workspaceId, approval, '*Approval needed* to call'),
      context(`Asked by ${escaped(approval.requested_by)} · may be decided by ${who} until ${chatTime(approval.expires_at)}`),
      {
        type: 'actions',
        block_id: 'approval',
        elements: [button(APPROVAL_ACTIONS.approve, 'Approve', 'primary'), button(APPROVAL_ACTIONS.deny, 'Deny', 'danger')],
      },
    ],
  };
}

/** A decision in words: who decided what (and why), or that nobody did in time. */
function decisionLine(decision: Decision): string {
  const by = escaped(decision.decidedBy ?? 'someone');
  const why = decision.reason ? `: ${escaped(decision.reason)}` : '';
  if (decision.status === 'approved') return `:white_check_mark: *Approved* by ${by}${why}`;
  if (decision.status === 'denied') return `:no_entry_sign: *Denied* by ${by}${why}; the call did not run`;
  return ':hourglass: *Expired*: nobody decided in time; the call did not run';
}

/** The approval message once decided: the call, who asked, and the decision; no buttons. */
export function decidedApprovalMessage(
  workspaceId: string,
  approval: PendingApproval,
  decision: Decision,
): { text: string; blocks: KnownBlock[] } {
  const line = decisionLine(decision);
  return {
    text: `${escaped(approval.tool)}: ${line.replace(/:[a-z_]+: /, '').replace(/\*/g, '')}`,
    blocks: [callBlock(workspaceId, approval, 'A call to'), context(`Asked by ${escaped(approval.requested_by)}`), context(line)],
  };
}
