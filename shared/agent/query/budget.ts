import {
  coveringBudgets,
  estimateOf,
  NO_HOLD,
  reserveBudgets,
  type BudgetHold,
  type BudgetSubject,
  type StoredBudget,
} from '../../budgets/index.js';
import type { Deps } from '../../deps.js';
import { type WorkspaceItem, roundUsd } from '../../workspaces/index.js';
import { MAX_TOKENS, type Caller } from './types.js';
import { modelTierOrDefault, type ModelTier, costOf, type TokenUsage } from '../../models/index.js';
import type { PaymentRequiredError } from '../../platform/errors.js';
import type { BeforeModelCall } from '../loop.js';

/*
 * A query's budgets (budgets/admission.ts): who it is for them, and its hold, taken before the
 * model is called and settled when it ends.
 */

/** The id after `user:` in an owner or grant subject. */
const userOf = (subject: string | undefined) => (subject?.startsWith('user:') ? subject.slice('user:'.length) : undefined);

/**
 * Who asks, for the budgets: the user (signed in, or linked in chat, or a routine's `run_as`), the
 * consumer (its key, the workspace's team chat, or a routine's run: consumer `routine:<id>`, as its
 * audit entry names it), and the routine of a run (its owner names it, so admission reads nothing).
 */
export function budgetSubjectOf(caller: Caller, workspaceId: string): BudgetSubject {
  const routineId = caller.owner.startsWith('routine:') ? caller.owner.slice('routine:'.length) : undefined;
  const consumerId = caller.owner.startsWith('consumer:')
    ? caller.owner.slice('consumer:'.length)
    : caller.owner.startsWith('team-chat:')
      ? `tc-${workspaceId}`
      : routineId !== undefined
        ? caller.owner
        : undefined;
  return { orgId: caller.orgId, workspaceId, consumerId, userId: userOf(caller.owner) ?? userOf(caller.grantSubject), routineId };
}

/** A question as the model is first sent it: its text and the history it comes with. */
export interface AskedQuestion {
  text: string;
  history: readonly unknown[];
}

/** UTF-8 bytes of a question and its history (none for a resumed query). */
function questionBytesOf(question: AskedQuestion | undefined): number {
  if (!question) return 0;
  return Buffer.byteLength(question.text) + (question.history.length ? Buffer.byteLength(JSON.stringify(question.history)) : 0);
}

/**
 * Reserves the query's expected cost in each budget that covers it (its workspace's average, and at
 * least a bound on a first model round for its question: the rest of the prompt is added before the
 * round, `budgetGate`); 402 when one has no room. None covering: nothing is sized or written.
 */
export function holdBudgets(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  budgets: StoredBudget[],
  /** The workspace's counters of the month (`countersOf`): the estimate's average. */
  counters: object,
  question?: AskedQuestion,
): Promise<BudgetHold> {
  const covering = coveringBudgets(budgets, budgetSubjectOf(caller, workspace.id));
  if (!covering.length) return Promise.resolve(NO_HOLD);
  const now = deps.clock.now();
  const tier = modelTierOrDefault(workspace.model);
  const firstRound = roundCostBound(tier, { promptBytes: questionBytesOf(question), maxTokens: MAX_TOKENS });
  return reserveBudgets(deps, caller.orgId, covering, Math.max(estimateOf(counters, now), roundUsd(firstRound)), now);
}

/** Tokens a provider adds to a round's prompt beyond what is sent (its tool-use instructions, the messages' framing). */
const ROUND_OVERHEAD_TOKENS = 1_000;

/**
 * A bound on what one model round can cost: every byte of its prompt a token (a token is at least
 * a byte) at the dearest input price (a cache write: 1.25× the input price, 2× for an hour), and the
 * whole output limit at the output price.
 */
function roundCostBound(tier: ModelTier, round: { promptBytes: number; maxTokens: number; prefixCacheTtl?: '5m' | '1h' }): number {
  const hourWrite = round.prefixCacheTtl === '1h' ? 2 * tier.inputCostPerMtok : 0;
  const inputPerMtok = Math.max(tier.inputCostPerMtok, tier.cacheWriteCostPerMtok, hourWrite);
  return ((round.promptBytes + ROUND_OVERHEAD_TOKENS) * inputPerMtok + round.maxTokens * tier.outputCostPerMtok) / 1_000_000;
}

/** Asked before a model call of a run: the 402 of a budget without room for it, or nothing. */
export type BudgetGate = (call: Parameters<BeforeModelCall>[0]) => Promise<PaymentRequiredError | undefined>;

/**
 * The check before each model call of a run (the loop's rounds, then an evaluation's judge): the
 * hold raised to what the run has spent since the hold was taken plus the call's bound, so no run
 * spends past the room it holds. Without room, the call is not made; before its first round a query
 * (`refuseFirst`) is refused with the 402 instead. None when no budget covers the run: nothing then
 * sizes a prompt.
 */
export function budgetGate(hold: BudgetHold | undefined, tier: ModelTier, refuseFirst: boolean): BudgetGate | undefined {
  if (!hold?.covers) return undefined;
  let since: TokenUsage | undefined;
  let rounds = 0;
  return async (round) => {
    // A resumed query's hold covers what it spends from here on (what it spent before was settled).
    since ??= round.usage;
    rounds += 1;
    const spent = costOf(round.usage, tier) - costOf(since, tier);
    const refused = await hold.holdAtLeast(spent + roundCostBound(tier, round), spent);
    if (refused && rounds === 1 && refuseFirst) throw refused;
    return refused;
  };
}

/** The gate as the loop asks it before each round: without room, the answer stops there, saying so. */
export function beforeRounds(gate: BudgetGate | undefined): BeforeModelCall | undefined {
  if (!gate) return undefined;
  return async (round) => {
    const refused = await gate(round);
    return refused && `${refused.message} (the answer stopped before the model's next round)`;
  };
}
