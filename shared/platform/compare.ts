import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented secret with the expected one in time independent of where they differ (both hashed to one length first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** What is stored of a long random token (an API key, a link's or a SCIM token): its SHA-256, in hex. The token itself never is. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
