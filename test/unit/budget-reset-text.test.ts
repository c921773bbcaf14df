import { describe, expect, it } from 'vitest';
import { resetsAt, resetText } from '../../shared/budgets/store.js';

describe('when a budget resets, as a refusal and an alert say it', () => {
  it('names the UTC midnight its period ends at in words, not as an ISO instant', () => {
    const at = new Date('2026-12-06T21:30:00.000Z');
    expect(resetText(resetsAt('day', at))).toBe('00:00 UTC on 7 December 2026');
    expect(resetText(resetsAt('month', at))).toBe('00:00 UTC on 1 January 2027');
  });
});
