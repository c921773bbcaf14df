import type { Deps } from '../../deps.js';
import { TooManyRequestsError } from '../../platform/errors.js';
import { admitQuery } from '../query.js';

/*
 * A person's calls through the gateway meet the limits a query meets — the organisation's places
 * in flight in this process and its queries a minute — and the person's own: at most half of
 * each, so one person's client stuck in a loop leaves room for the rest of the organisation.
 */

/** What a refused call is told to wait when it is refused for the calls it has in flight. */
const RETRY_AFTER_SECONDS = 5;

/** One person's share of their organisation's limits. */
const personShare = (limit: number) => Math.max(1, Math.ceil(limit / 2));

/** The calls each person has in flight, per process (keyed by the process's own count of queries). */
const inFlightByProcess = new WeakMap<object, Map<string, number>>();

function personInFlight(deps: Deps): Map<string, number> {
  const known = inFlightByProcess.get(deps.inFlight);
  if (known) return known;
  const created = new Map<string, number>();
  inFlightByProcess.set(deps.inFlight, created);
  return created;
}

/** Takes a place among the person's calls in flight, or throws a 429; the answer gives it back (once). */
function admitPerson(deps: Deps, person: { orgId: string; userId: string }): () => void {
  const places = personInFlight(deps);
  const key = `${person.orgId}:${person.userId}`;
  const limit = personShare(deps.config.maxQueriesInFlightPerOrg);
  const mine = places.get(key) ?? 0;
  if (mine >= limit) {
    throw new TooManyRequestsError(
      `too many calls at once: one person may have ${limit} in flight; try again when one has finished`,
      RETRY_AFTER_SECONDS,
    );
  }
  places.set(key, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (places.get(key) ?? 1) - 1;
    if (left > 0) places.set(key, left);
    else places.delete(key);
  };
}

/** Counts the person's call in their per-minute window: past their share of the organisation's query rate, a 429. */
function countPerson(deps: Deps, person: { orgId: string; userId: string }): Promise<void> | undefined {
  const limit = personShare(deps.config.queryRateLimitPerMinute);
  return deps.requestRate.admit(
    `queries:${person.orgId}:user:${person.userId}`,
    limit,
    `too many calls: one person may make ${limit} a minute`,
  );
}

/**
 * Admits a call of a person: their own place in flight and their rate, and, for a tool call (not
 * an `ask`, which `runQuery` admits itself), the organisation's place and query rate. Answers
 * the release of every place taken and the rate counts' adds (to be awaited with the first reads).
 * @throws TooManyRequestsError past any limit, with nothing taken
 */
export function admitCall(
  deps: Deps,
  person: { orgId: string; userId: string },
  options: { organisation: boolean },
): { release: () => void; counting: Promise<unknown> } {
  const releases: (() => void)[] = [];
  const release = () => {
    for (const give of releases.splice(0)) give();
  };
  try {
    releases.push(admitPerson(deps, person));
    if (options.organisation) releases.push(deps.inFlight.admit(person.orgId));
    const counts = [countPerson(deps, person), options.organisation ? admitQuery(deps, person.orgId) : undefined];
    return { release, counting: Promise.all(counts) };
  } catch (error) {
    release();
    throw error;
  }
}
