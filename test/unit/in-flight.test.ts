import { describe, expect, it } from 'vitest';
import { QueriesInFlight } from '../../shared/agent/in-flight.js';
import { TooManyRequestsError } from '../../shared/platform/errors.js';

describe('QueriesInFlight', () => {
  it('refuses past the organisation limit and the process limit, and frees a place once per release', () => {
    const inFlight = new QueriesInFlight({ total: 3, perOrganisation: 2 });
    const first = inFlight.admit('org-a');
    inFlight.admit('org-a');
    expect(() => inFlight.admit('org-a')).toThrow(TooManyRequestsError);
    const other = inFlight.admit('org-b');
    expect(() => inFlight.admit('org-c')).toThrow(/as many queries as it can/);
    first();
    first();
    expect(inFlight.running('org-a')).toBe(1);
    expect(inFlight.running()).toBe(2);
    other();
    expect(inFlight.running('org-b')).toBe(0);
    inFlight.admit('org-c');
    expect(inFlight.running()).toBe(2);
  });

  it('keeps no entry for an organisation with nothing in flight', () => {
    const inFlight = new QueriesInFlight({ total: 10_000, perOrganisation: 1 });
    for (let org = 0; org < 1000; org += 1) inFlight.admit(`org-${org}`)();
    // Every organisation's entry went with its last query.
    expect(inFlight.running()).toBe(0);
    const entries = (inFlight as unknown as { byOrganisation: Map<string, number> }).byOrganisation;
    expect(entries.size).toBe(0);
  });
});
