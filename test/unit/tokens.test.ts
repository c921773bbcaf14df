import { describe, expect, it } from 'vitest';
import { sessionKey, signSessionToken, verifySessionToken } from '../../shared/auth/tokens.js';
import { UnauthorizedError } from '../../shared/platform/errors.js';
import { TestClock } from '../support/clock.js';

const user = { id: 'u-1', org_id: 'o-1', email: 'a@example.com', name: 'A', org_role: 'admin' as const };

describe('session tokens verified again from memory', () => {
  it('answers the same claims for a token seen before, and refuses it once it has expired', async () => {
    const clock = new TestClock();
    const key = sessionKey('a session secret of at least thirty-two characters');
    const expires = Math.floor(clock.now().getTime() / 1000) + 60;
    const { token } = await signSessionToken(key, clock, user, 's-1', expires);
    const first = await verifySessionToken(key, clock, token);
    expect(first).toEqual({ userId: 'u-1', orgId: 'o-1', sessionId: 's-1', expiresAt: new Date(expires * 1000) });
    expect(await verifySessionToken(key, clock, token)).toEqual(first);
    clock.advance(60_000);
    await expect(verifySessionToken(key, clock, token)).rejects.toBeInstanceOf(UnauthorizedError);
    // Forgotten once expired: a clock set back (tests only) verifies it from scratch, and jose agrees.
    clock.advance(-1_000);
    expect(await verifySessionToken(key, clock, token)).toEqual(first);
  });

  it('does not take a token verified with one key for another key, nor a token altered by one character', async () => {
    const clock = new TestClock();
    const key = sessionKey('a session secret of at least thirty-two characters');
    const other = sessionKey('another session secret, thirty-two characters or more');
    const { token } = await signSessionToken(key, clock, user, 's-1', Math.floor(clock.now().getTime() / 1000) + 60);
    await verifySessionToken(key, clock, token);
    await expect(verifySessionToken(other, clock, token)).rejects.toBeInstanceOf(UnauthorizedError);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await expect(verifySessionToken(key, clock, altered)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
