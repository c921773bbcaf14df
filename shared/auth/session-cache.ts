import { BriefCache } from '../platform/brief-cache.js';
import type { ApiKeyItem } from '../consumers/index.js';
import type { Principal } from './tokens.js';

/**
 * How long a process trusts what it read of a session and its user, or of an API key. A
 * revocation, a role change or a removed user reaches every other process (Lambda container)
 * within this time; in the process that made the change it takes effect on the next request,
 * because that process forgets at once.
 */
const AUTH_CACHE_MS = 5_000;

export interface CachedSession {
  principal: Principal | null;
  userId: string;
}

/** What this process read of sessions and of people's standing, briefly (platform/brief-cache.ts: read again behind a request past half its life). */
export class SessionCache {
  private readonly entries: BriefCache<CachedSession>;
  /** Whether a person is an active user of their organisation, by `<org> <user>`: asked before their grant goes to a tool server. */
  private readonly people: BriefCache<boolean>;

  constructor(onRefreshFailed: (error: unknown) => void) {
    this.entries = new BriefCache(AUTH_CACHE_MS, onRefreshFailed);
    this.people = new BriefCache(AUTH_CACHE_MS, onRefreshFailed);
  }

  /** Whether `userId` is an active user of `orgId`, cached as sessions are, or read by `load`. */
  personActive(orgId: string, userId: string, load: () => Promise<boolean>): Promise<boolean> {
    return this.people.read(`${orgId} ${userId}`, load);
  }

  /** The session `sessionId` of `userId` (the token's claims), cached or read by `load`. */
  read(sessionId: string, userId: string, load: () => Promise<CachedSession>): Promise<CachedSession> {
    return this.entries.read(`${sessionId} ${userId}`, load);
  }

  forgetSession(sessionId: string): void {
    this.entries.forget((_entry, key) => key.startsWith(`${sessionId} `));
  }

  /** After a user's role changed or the user was removed: every session of theirs is read again. */
  forgetUser(userId: string): void {
    this.entries.forget((entry) => entry.userId === userId);
    this.people.forget((_active, key) => key.endsWith(` ${userId}`));
  }

  /** After an MCP client's grants were revoked: the access tokens issued under them are read again (shared/oauth). */
  forgetGrants(grantIds: readonly string[]): void {
    this.entries.forget((entry) => entry.principal?.oauth !== undefined && grantIds.includes(entry.principal.oauth.grantId));
  }
}

/** What this process read of API keys, by their hash: the active key record, or null (unknown or revoked). */
export class ApiKeyCache {
  private readonly entries: BriefCache<ApiKeyItem | null>;

  constructor(onRefreshFailed: (error: unknown) => void) {
    this.entries = new BriefCache(AUTH_CACHE_MS, onRefreshFailed);
  }

  read(hash: string, load: () => Promise<ApiKeyItem | null>): Promise<ApiKeyItem | null> {
    return this.entries.read(hash, load);
  }

  /** After consumers were revoked here (or their workspace deleted): every key is read again. */
  forgetAll(): void {
    this.entries.forget(() => true);
  }
}
