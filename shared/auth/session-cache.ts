import { LRUCache } from 'lru-cache';
import type { Principal } from './tokens.js';

/**
 * How long a process trusts what it read of a session and its user. A revocation, a role change or
 * a removed user reaches every other process (Lambda container) within this time; in the process
 * that made the change it takes effect on the next request, because that process forgets at once.
 */
const SESSION_CACHE_MS = 5_000;

export interface CachedSession {
  principal: Principal | null;
  userId: string;
}

/**
 * What this process read of sessions, briefly. Bounded (the least recently used go first), so a
 * flood of forged or expired tokens cannot grow it.
 */
export class SessionCache {
  private readonly entries = new LRUCache<string, CachedSession>({ max: 10_000, ttl: SESSION_CACHE_MS });

  get(sessionId: string): CachedSession | undefined {
    return this.entries.get(sessionId);
  }

  set(sessionId: string, entry: CachedSession): void {
    this.entries.set(sessionId, entry);
  }

  forgetSession(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  /** After a user's role changed or the user was removed: every session of theirs is read again. */
  forgetUser(userId: string): void {
    for (const [sessionId, entry] of this.entries.entries()) {
      if (entry.userId === userId) this.entries.delete(sessionId);
    }
  }
}
