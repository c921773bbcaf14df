import { describe, expect, it } from 'vitest';
import { backtracksCatastrophically, probesFor } from '../../shared/guardrails/backtracking.js';

describe('backtracksCatastrophically (guardrail patterns tried in a worker with a time limit)', () => {
  it('flags patterns with nested or overlapping quantifiers, and stops the worker at the limit', async () => {
    for (const pattern of ['(a+)+$', '(\\w+\\s?)*$', '(x+x+)+y', '(a|aa)+$', '(\\d+)*-', '^(([a-z])+.)+[A-Z]([a-z])+$']) {
      const started = performance.now();
      expect(await backtracksCatastrophically(pattern, 200), pattern).toBe(true);
      // The worker was stopped, not waited for: an exponential pattern would take minutes.
      expect(performance.now() - started, pattern).toBeLessThan(3_000);
    }
  });

  it('passes ordinary patterns, the presets among them, and Unicode ones', async () => {
    for (const pattern of [
      'secret',
      'TICKET-\\d+',
      '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}',
      '\\b(?:\\d[ -]?){12,18}\\d\\b',
      '(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)',
      'sk-[A-Za-z0-9]{20,}',
      '\\p{L}+ project',
      '(?<code>[A-Z]{3})-\\k<code>',
    ]) {
      expect(await backtracksCatastrophically(pattern), pattern).toBe(false);
    }
  });

  it('answers false for a pattern that does not compile (refused as invalid elsewhere)', async () => {
    expect(await backtracksCatastrophically('a(')).toBe(false);
  });

  it('probes with runs of the characters the pattern names, each ended by a different character', () => {
    const probes = probesFor('(x+x+)+y');
    expect(probes).toContain(`${'x'.repeat(32)}!`);
    expect(probes).toContain(`${'a'.repeat(32)}1`);
    expect(probes.every((probe) => probe.length === 33 && probe.at(-1) !== probe[0])).toBe(true);
    expect(probes.some((probe) => probe.startsWith('('))).toBe(false);
  });
});
