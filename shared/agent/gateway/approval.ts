import { setTimeout as sleep } from 'node:timers/promises';
import {
  approvalUsable,
  consumeApproval,
  getApproval,
  latestGatewayApproval,
  requestGatewayApproval,
  type ApprovalItem,
  type GatewayCall,
} from '../../approvals/index.js';
import type { Deps } from '../../deps.js';
import type { ToolCallAudit } from '../../workspaces/index.js';
import type { Notify } from './progress.js';

/*
 * A person's call of a tool that needs approval (the workspace's approval setting): it runs on an
 * approval of this very call (the person, the tool, the hash of the arguments), once. Without one,
 * it asks for one and waits for the decision, up to MCP_GATEWAY_APPROVAL_WAIT_SECONDS, polling the
 * approval (a consistent read a second) and telling progress when asked; past that bound it
 * answers the approval's id and where to decide it, and the same call made again once it is
 * approved runs.
 */

/** How often a waiting call reads its approval. */
const POLL_MS = 1000;

/** Whether the call runs, and if not what its person is told. */
export type Gate =
  | { run: true; approval: NonNullable<ToolCallAudit['approval']> }
  | { run: false; outcome: 'approval_pending' | 'denied' | 'expired'; text: string; approval: NonNullable<ToolCallAudit['approval']> };

/** The decision as the audit entry keeps it. */
const recordOf = (item: ApprovalItem) => ({
  id: item.id,
  status: item.status,
  decided_by: item.decided_by,
  decided_at: item.decided_at,
  reason: item.reason,
});

/** Where a person decides (or sees) the approvals of a workspace in the console. */
export function approvalsLink(origin: string, workspaceId: string): string {
  return `${origin}/workspaces/${workspaceId}/approvals`;
}

interface Waiting {
  call: GatewayCall;
  notify: Notify | undefined;
  /** The console's origin, for the link. */
  origin: string;
  signal: AbortSignal;
}

/** Runs the call on this person's approval of it, asking for one and waiting when there is none. */
export async function approvalGate(deps: Deps, waiting: Waiting): Promise<Gate> {
  const { call } = waiting;
  const now = deps.clock.now();
  let item = await latestGatewayApproval(deps, call);
  if (item && approvalUsable(item, call.workspace, now) && (await consumeApproval(deps, item)))
    return { run: true, approval: recordOf(item) };
  // The same call still waiting is waited on again; anything else (decided, used, expired) asks anew.
  if (item?.status !== 'pending' || item.expires_at <= now.toISOString()) item = await requestGatewayApproval(deps, call);
  return waitFor(deps, waiting, item);
}

function refusedBy(item: ApprovalItem, now: string): Gate | undefined {
  const approval = recordOf(item);
  if (item.status === 'denied') {
    const why = item.reason ? `: ${item.reason}` : '';
    return { run: false, outcome: 'denied', text: `${item.decided_by ?? 'A person'} denied this call; it did not run${why}.`, approval };
  }
  if (item.status === 'expired' || (item.status === 'pending' && item.expires_at <= now))
    return { run: false, outcome: 'expired', text: 'Nobody approved this call in time; it did not run.', approval };
  return undefined;
}

async function waitFor(deps: Deps, { call, notify, origin, signal }: Waiting, asked: ApprovalItem): Promise<Gate> {
  const link = approvalsLink(origin, call.workspace.id);
  const deadline = performance.now() + deps.config.mcpGatewayApprovalWaitSeconds * 1000;
  let step = 0;
  notify?.(++step, `waiting for approval ${asked.id} of ${call.tool}: ${link}`);
  for (;;) {
    const item = (await getApproval(deps, asked.org_id, asked.workspace_id, asked.id)) ?? asked;
    const refused = refusedBy(item, deps.clock.now().toISOString());
    if (refused) return refused;
    if (item.status === 'approved') {
      if (await consumeApproval(deps, item)) return { run: true, approval: recordOf(item) };
      const text = `Approval ${item.id} was used by another call with the same arguments; call again to ask for a new one.`;
      return { run: false, outcome: 'approval_pending', text, approval: recordOf(item) };
    }
    const left = deadline - performance.now();
    if (left <= 0 || signal.aborted) {
      const text =
        `This call waits for approval ${item.id} (${call.tool}) until ${item.expires_at}: it is decided in the console at ${link}. ` +
        'Once it is approved, make the same call again (same arguments): it runs once.';
      return { run: false, outcome: 'approval_pending', text, approval: recordOf(item) };
    }
    await sleep(Math.min(POLL_MS, left), undefined, { signal }).catch(() => undefined);
    notify?.(++step, `still waiting for approval ${item.id} of ${call.tool}`);
  }
}
