import { describe, expect, it } from 'vitest';
import { prefixCacheTtlFor } from '../../shared/agent/query/run.js';
import type { WorkspaceItem } from '../../shared/workspaces/workspaces.js';

/** A workspace that has answered `queries` this month (only the counter the choice reads). */
const workspaceWith = (queries: number, month = '2026-11') => ({ [`month#${month}#queries`]: queries }) as unknown as WorkspaceItem;

describe('the prompt cache lifetime of the tools and system prompt', () => {
  // 10 days and 12 hours into November: 252 hours.
  const now = new Date('2026-11-11T12:00:00Z');

  it('is one hour for a workspace that has averaged a query an hour this month, else five minutes', () => {
    expect(prefixCacheTtlFor(workspaceWith(252), now)).toBe('1h');
    expect(prefixCacheTtlFor(workspaceWith(251), now)).toBe('5m');
    expect(prefixCacheTtlFor(workspaceWith(0), now)).toBe('5m');
  });

  it('counts the first minutes of a month as one hour', () => {
    expect(prefixCacheTtlFor(workspaceWith(1, '2026-12'), new Date('2026-12-01T00:10:00Z'))).toBe('1h');
    expect(prefixCacheTtlFor(workspaceWith(0, '2026-12'), new Date('2026-12-01T00:10:00Z'))).toBe('5m');
  });
});
