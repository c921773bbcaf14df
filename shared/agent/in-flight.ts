import { TooManyRequestsError } from '../platform/errors.js';

/**
 * The metric each agent service task reports its queries in flight under (functions/agent-service/
 * main.ts), and the one its scaling tracks (lib/agent-service.ts): one spelling for both.
 */
export const QUERIES_IN_FLIGHT_METRIC = { name: 'QueriesInFlight', dimension: { Service: 'AgentService' } } as const;

/** What a refused query is told to wait: queries last seconds, so a place is likely free by then. */
const RETRY_AFTER_SECONDS = 5;

/** The limits of `QueriesInFlight`: all queries of the process, and those of one organisation. */
export interface InFlightLimits {
  total: number;
  perOrganisation: number;
}

/**
 * The queries this process runs now (CONTRACT.md, "Tool servers are not trusted either"). A query
 * takes a place before anything of it starts — before the first store call, before a stream's
 * headers, before the bot answers in a thread — and gives it back when it has finished and been
 * stored, whether or not its client is still there. Past either limit it is refused at once with 429
 * and `Retry-After`, so one organisation's slow tool servers or unread streams cannot hold the
 * process's sockets, memory or file handles, nor the places other organisations' queries need.
 *
 * Held in memory, per process: locally that is the whole deployment; on Lambda an instance runs one
 * request at a time, so there the bound is the function's concurrency (docs/security.md).
 * An organisation's entry is deleted when its last query ends: the map never holds more entries
 * than queries in flight.
 */
export class QueriesInFlight {
  private total = 0;
  private readonly byOrganisation = new Map<string, number>();

  constructor(private readonly limits: InFlightLimits) {}

  /** Takes a place for a query of `orgId`, or throws a 429; the answer gives the place back (once, however often it is called). */
  admit(orgId: string): () => void {
    const mine = this.byOrganisation.get(orgId) ?? 0;
    if (mine >= this.limits.perOrganisation) {
      throw new TooManyRequestsError(
        `too many queries at once: this organisation may run ${this.limits.perOrganisation} at a time; try again when one has finished`,
        RETRY_AFTER_SECONDS,
      );
    }
    if (this.total >= this.limits.total) {
      throw new TooManyRequestsError('the service is running as many queries as it can; try again shortly', RETRY_AFTER_SECONDS);
    }
    this.total += 1;
    this.byOrganisation.set(orgId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byOrganisation.get(orgId) ?? 1) - 1;
      if (left > 0) this.byOrganisation.set(orgId, left);
      else this.byOrganisation.delete(orgId);
    };
  }

  /** Queries running now: in all, and of one organisation. */
  running(orgId?: string): number {
    return orgId === undefined ? this.total : (this.byOrganisation.get(orgId) ?? 0);
  }
}
