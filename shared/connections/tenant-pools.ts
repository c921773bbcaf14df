import { LRUCache } from 'lru-cache';
import type { GuardedFetch } from '../platform/url-policy.js';

/** Organisations whose pools are kept; past it the least recently used one's pools are closed. */
const MAX_ORGANISATIONS = 1000;

/**
 * The guarded fetches of the MCP hub, one per organisation: each has pools of its own, so the cap on
 * connections per tool-server origin (`MCP_MAX_CONNECTIONS_PER_ORIGIN`) is per organisation and
 * origin. With one pool for all, one organisation's hanging calls to a shared origin (a gateway, a
 * popular hosted server) would hold every connection to it and the others' calls would wait in the
 * queue until they time out. Requests of no organisation use a pool of their own.
 *
 * At most `MAX_ORGANISATIONS` are kept (tenants make organisations); a dropped one's pools are
 * closed once their requests end, and a session still using them fails its next request, is
 * dropped and made again with new pools.
 */
export class TenantPools {
  private readonly unscoped: GuardedFetch;
  private readonly byOrganisation: LRUCache<string, GuardedFetch>;
  private closing = false;

  constructor(private readonly make: () => GuardedFetch) {
    this.unscoped = make();
    this.byOrganisation = new LRUCache({
      max: MAX_ORGANISATIONS,
      dispose: (pools) => {
        if (!this.closing) void pools.close().catch(() => undefined);
      },
    });
  }

  /** The fetches of an organisation's requests (or of requests of none). */
  of(orgId: string | undefined): GuardedFetch {
    if (orgId === undefined) return this.unscoped;
    let pools = this.byOrganisation.get(orgId);
    if (!pools) {
      pools = this.make();
      this.byOrganisation.set(orgId, pools);
    }
    return pools;
  }

  /** Closes every pool (shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    const all = [this.unscoped, ...this.byOrganisation.values()];
    this.byOrganisation.clear();
    await Promise.all(all.map((pools) => pools.close()));
  }
}
