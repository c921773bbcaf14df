import { describe, expect, it } from 'vitest';
import { NO_HOLD, type BudgetHold } from '../../shared/budgets/admission.js';
import type { StoredBudget } from '../../shared/budgets/store.js';
import { beforeRounds, budgetGate, holdBudgets } from '../../shared/agent/query/budget.js';
import type { Caller } from '../../shared/agent/query/types.js';
import type { Deps } from '../../shared/deps.js';
import { modelTierOrDefault } from '../../shared/models/catalogue.js';
import { PaymentRequiredError } from '../../shared/platform/errors.js';
import type { WorkspaceItem } from '../../shared/workspaces/workspaces.js';

/*
 * A query's budgets (agent/query/budget.ts): a query no budget covers costs nothing (no store call,
 * no prompt sized before its rounds); a covered one is raised before each model call to what it has
 * spent plus the call's bound.
 */

const balanced = modelTierOrDefault('balanced');
const caller: Caller = { orgId: 'org_1', role: 'admin', userName: 'A', consumerType: 'api', channel: null, owner: 'user:usr_1' };
const workspace = { id: 'ws_1', model: 'balanced' } as WorkspaceItem;
const budget = (scope: StoredBudget['scope'], scopeId: string | null): StoredBudget => ({
  id: `bud_${scope}`,
  scope,
  scope_id: scopeId,
  name: scope,
  period: 'day',
  limit_usd: 1,
  alert_percent: [],
  created_at: '2026-11-01T00:00:00.000Z',
});

/** Deps whose store fails every call: what is held without a store call can use them. */
const noStore = {
  clock: { now: () => new Date('2026-11-11T12:00:00Z') },
  table: new Proxy({}, { get: () => () => Promise.reject(new Error('the store was called')) }),
} as unknown as Deps;

/** A hold that records what it was asked to hold, refusing past `room`. */
function recordingHold(room: number) {
  const asked: { totalUsd: number; spentUsd: number }[] = [];
  const refusal = new PaymentRequiredError('budget exceeded', {});
  const hold: BudgetHold = {
    covers: true,
    holdAtLeast: async (totalUsd, spentUsd) => {
      asked.push({ totalUsd, spentUsd });
      return totalUsd > room ? refusal : undefined;
    },
    settle: async () => {},
  };
  return { hold, asked, refusal };
}

const round = (usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }) => ({ promptBytes: 1_000, maxTokens: 4_096, usage });

describe('holdBudgets', () => {
  it('holds nothing and calls no store for a query no budget covers, whatever its question', async () => {
    const others = [budget('workspace', 'ws_other'), budget('user', 'usr_other'), budget('consumer', 'cons_other')];
    const question = { text: 'x'.repeat(100_000), history: [{ role: 'user', content: 'y'.repeat(100_000) }] };
    await expect(holdBudgets(noStore, caller, workspace, others, {}, question)).resolves.toBe(NO_HOLD);
    await expect(holdBudgets(noStore, caller, workspace, [], {})).resolves.toBe(NO_HOLD);
  });

  it('asks the store for a query a budget covers', async () => {
    await expect(holdBudgets(noStore, caller, workspace, [budget('user', 'usr_1')], {})).rejects.toThrow('the store was called');
  });
});

describe('budgetGate', () => {
  it('is none for a query no budget covers: the loop then sizes no prompt', () => {
    expect(budgetGate(NO_HOLD, balanced, true)).toBeUndefined();
    expect(budgetGate(undefined, balanced, false)).toBeUndefined();
    expect(beforeRounds(undefined)).toBeUndefined();
  });

  it('holds what the run spent since its first call plus the next call’s bound', async () => {
    const { hold, asked } = recordingHold(1);
    const gate = budgetGate(hold, balanced, false);
    // A resumed query: what it had spent before the gate's first call is not counted.
    await gate?.(round({ input: 5_000, output: 0, cacheRead: 0, cacheWrite: 0 }));
    await gate?.(round({ input: 5_000, output: 1_000, cacheRead: 0, cacheWrite: 0 }));
    // (1 000 + 1 000) bytes at $3.75 a million and 4 096 tokens at $15: $0.06894.
    expect(asked[0]?.totalUsd).toBeCloseTo(0.06894, 9);
    expect(asked[0]?.spentUsd).toBe(0);
    expect(asked[1]?.spentUsd).toBeCloseTo(0.015, 9);
    expect(asked[1]?.totalUsd).toBeCloseTo(0.015 + 0.06894, 9);
  });

  it('bounds an hour-long cache write at twice the input price', async () => {
    const { hold, asked } = recordingHold(1);
    await budgetGate(hold, balanced, false)?.({ ...round(), prefixCacheTtl: '1h' });
    expect(asked[0]?.totalUsd).toBeCloseTo((2_000 * 6 + 4_096 * 15) / 1_000_000, 9);
  });

  it('throws the 402 before a first round without room when the query is refused so, else answers it', async () => {
    const refusing = recordingHold(0);
    await expect(budgetGate(refusing.hold, balanced, true)?.(round())).rejects.toBe(refusing.refusal);
    await expect(budgetGate(refusing.hold, balanced, false)?.(round())).resolves.toBe(refusing.refusal);
    const stops = beforeRounds(budgetGate(refusing.hold, balanced, false));
    await expect(stops?.(round())).resolves.toBe("budget exceeded (the answer stopped before the model's next round)");
  });
});
