import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/platform/keys.js';

/**
 * The stored key layout of `docs/data-model.md`, spelled out: a builder that changes a byte here
 * would orphan stored items (there is no migration), so this test must change with the docs.
 */
describe('table keys', () => {
  it('build the items of docs/data-model.md byte for byte', () => {
    expect(keys.job('j1')).toEqual({ pk: 'JOB#j1', sk: 'JOB' });
    expect(keys.jobsByStateIndex('o1', 'lifecycle', 'failed')).toBe('JOBS#o1#lifecycle#failed');
    expect(keys.pendingJobsIndex('lifecycle', 31)).toBe('JOBPENDING#lifecycle#31');
    expect(keys.unshardedPendingJobsIndex('lifecycle')).toBe('JOBPENDING#lifecycle');
    expect(keys.queueCounters('o1', 7)).toEqual({ pk: 'QSTAT#o1#7', sk: 'QUEUES' });
    expect(keys.unshardedQueueCounters('o1')).toEqual({ pk: 'QSTAT#o1', sk: 'QUEUES' });
    expect(keys.timeOrdered('T', 'x')).toBe('T#x');
  });

  it('bound time-ordered sort keys after every entry of that time', () => {
    const at = '2024-01-01T00:00:00.000Z';
    expect(keys.timeOrdered(at, 'zzz') < keys.afterTime(at)).toBe(true);
    expect(keys.afterTime(at) < keys.timeOrdered('2024-01-01T00:00:00.001Z', 'a')).toBe(true);
  });
});
