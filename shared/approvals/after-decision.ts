import type { QueryResponse } from '../agent/index.js';
import type { Deps } from '../deps.js';
import type { ApprovalStatus } from './entities.js';

/*
 * The port through which the owner of a conversation hears how its paused query ended once the
 * approval it waited on was decided (approved, denied or expired) and the query went on
 * (agent/approvals/resume.ts), in whichever process decided it: the API, a chat button, the expiry
 * job. Its one user is a routine's run, which delivers the answer and records how it ended
 * (shared/routines/resumed-run.ts); the wiring fills it (shared/wiring/deps.ts), since neither the
 * agent nor approvals may import routines (routines → agent → approvals).
 */

/** A paused query that went on after its approval was decided, and how it ended this time. */
export interface DecidedQuery {
  orgId: string;
  workspaceId: string;
  conversationId: string;
  /** Whose conversation it is (`routine:<id>` for a routine's run; `Caller.owner`). */
  owner: string;
  /** The approval that was decided. */
  approvalId: string;
  decision: Exclude<ApprovalStatus, 'pending'>;
  /** The query's result: its whole answer, what it cost in all, or its next pending approval. */
  response: QueryResponse;
}

/** Told of every decided query that went on; an owner it does not concern is ignored. */
export type DecisionFollower = (deps: Deps, decided: DecidedQuery) => Promise<void>;
