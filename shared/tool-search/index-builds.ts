import { TooManyRequestsError } from '../platform/errors.js';
import { Slots } from '../platform/slots.js';

/*
 * Who may build a tool index when (docs/connections.md, "Tool search under load"). A build yields
 * between its slices, so it never holds the process; what is bounded here is how many run and wait:
 * an organisation builds one index at a time (its other builds wait their turn, so one tenant's
 * builds take at most one place), the process runs `atOnce` at a time, and a search of the same
 * tools as a build under way waits on that build instead of starting another.
 */

export interface IndexBuildLimits {
  /** Builds of one organisation that may wait behind its running one; past that, a search is a 429. */
  waitingPerOrg: number;
  /** Builds running at once in the process, all organisations together. */
  atOnce: number;
}

const DEFAULT_INDEX_BUILD_LIMITS: IndexBuildLimits = { waitingPerOrg: 4, atOnce: 2 };

/** An organisation's turn: builds queued (the running one included), and the end of the last one. */
interface OrgTurns {
  queued: number;
  last: Promise<void>;
}

export class IndexBuilds<T> {
  private readonly underWay = new Map<string, Promise<T>>();
  private readonly orgs = new Map<string, OrgTurns>();
  /** The process's places: a build waits for one after its organisation's turn has come. */
  private readonly slots: Slots;

  constructor(private readonly limits: IndexBuildLimits = DEFAULT_INDEX_BUILD_LIMITS) {
    this.slots = new Slots({ concurrency: limits.atOnce });
  }

  /**
   * Runs `build` for `key` in the organisation's turn and within the process's bound; a build of the
   * same key under way is shared. Refused (429) when the organisation has too many waiting.
   */
  run(orgId: string, key: string, build: () => Promise<T>): Promise<T> {
    const pending = this.underWay.get(key);
    if (pending) return pending;
    const started = this.inTurn(orgId, build).finally(() => this.underWay.delete(key));
    this.underWay.set(key, started);
    return started;
  }

  private async inTurn(orgId: string, build: () => Promise<T>): Promise<T> {
    const org = this.orgs.get(orgId) ?? { queued: 0, last: Promise.resolve() };
    if (org.queued > this.limits.waitingPerOrg) {
      throw new TooManyRequestsError("this organisation's tool indexes are being built: search again in a moment", 1);
    }
    org.queued += 1;
    this.orgs.set(orgId, org);
    const before = org.last;
    let ended = () => {};
    org.last = new Promise<void>((resolve) => {
      ended = resolve;
    });
    try {
      await before;
      return await this.slots.run(build);
    } finally {
      ended();
      org.queued -= 1;
      if (org.queued === 0) this.orgs.delete(orgId);
    }
  }
}
