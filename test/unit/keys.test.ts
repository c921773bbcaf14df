import { describe, expect, it } from 'vitest';
import { failedJobs, jobEntries, jobKey, pendingEntry, pendingJobShards } from '../../shared/jobs/entities.js';
import { queueCounterItems, queueCountersKey } from '../../shared/jobs/counter-entities.js';
import { keys } from '../../shared/platform/keys.js';

/**
 * The stored key layout of `docs/data-model.md`, spelled out: a builder that changes a byte here
 * would orphan stored items, so this test must change with the docs (and a migration with it).
 */
describe('table keys', () => {
  it('build the job ledger’s items of docs/data-model.md byte for byte', () => {
    expect(jobKey('j1')).toEqual({ pk: 'JOB#j1', sk: 'JOB' });
    expect(failedJobs('o1', 'lifecycle')).toEqual({ index: 'listings', pk: 'JOBS#o1#lifecycle#failed' });
    expect(jobEntries('o1', 'lifecycle', 'j1', 'failed', 'T', 'R')).toEqual({ gsi1pk: 'JOBS#o1#lifecycle#failed', gsi1sk: 'T#j1' });
    expect(pendingEntry('lifecycle', 'j1', 'R')).toEqual({ gsi5pk: expect.stringMatching(/^JOBPENDING#lifecycle#\d+$/), gsi5sk: 'R#j1' });
    expect(jobEntries('o1', 'lifecycle', 'j1', 'delayed', 'T', 'R')).toEqual(pendingEntry('lifecycle', 'j1', 'R'));
    expect(jobEntries('o1', 'lifecycle', 'j1', 'completed', 'T', 'R')).toEqual({});
    expect(pendingJobShards('lifecycle').at(-1)).toEqual({ index: 'pending', pk: 'JOBPENDING#lifecycle#63' });
    expect(queueCountersKey('o1', 7)).toEqual({ pk: 'QSTAT#o1#7', sk: 'QUEUES' });
    expect(queueCounterItems('o1')).toHaveLength(8);
    expect(keys.timeOrdered('T', 'x')).toBe('T#x');
  });

  it('bound time-ordered sort keys after every entry of that time', () => {
    const at = '2024-01-01T00:00:00.000Z';
    expect(keys.timeOrdered(at, 'zzz') < keys.afterTime(at)).toBe(true);
    expect(keys.afterTime(at) < keys.timeOrdered('2024-01-01T00:00:00.001Z', 'a')).toBe(true);
  });
});
