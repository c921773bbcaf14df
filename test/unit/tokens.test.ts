import * as jose from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { sessionKey, signSessionToken, verifySessionToken } from '../../shared/auth/tokens.js';
import { UnauthorizedError } from '../../shared/platform/errors.js';
import { TestClock } from '../support/clock.js';

// jose itself, watched: how many times a signature is really verified.
vi.mock('jose', async (original) => {
  const real = await original<typeof import('jose')>();
  return { ...real, jwtVerify: vi.fn(real.jwtVerify) };
});

const user = { id: 'u-1', org_id: 'o-1', email: 'a@example.com', name: 'A', org_role: 'admin' as const };

describe('session tokens verified again from memory', () => {
  it('answers the same claims for a token seen before, and refuses it once it has expired', async () => {
    const clock = new TestClock();
    const key = sessionKey('a session secret of at least thirty-two characters');
    const expires = Math.floor(clock.now().getTime() / 1000) + 60;
    const { token } = await signSessionToken(key, clock, user, 's-1', expires);
    const verified = vi.mocked(jose.jwtVerify);
    verified.mockClear();
    const first = await verifySessionToken(key, clock, token);
    expect(first).toEqual({ userId: 'u-1', orgId: 'o-1', sessionId: 's-1', expiresAt: new Date(expires * 1000) });
    expect(await verifySessionToken(key, clock, token)).toEqual(first);
    expect(verified).toHaveBeenCalledTimes(1);
    clock.advance(60_000);
    await expect(verifySessionToken(key, clock, token)).rejects.toBeInstanceOf(UnauthorizedError);
    // Forgotten once expired: a clock set back (tests only) verifies it from scratch, and jose agrees.
    clock.advance(-1_000);
    expect(await verifySessionToken(key, clock, token)).toEqual(first);
    expect(verified).toHaveBeenCalledTimes(2);
  });

  it('does not take a token verified with one key for another key, nor a token altered by one character', async () => {
    const clock = new TestClock();
    const key = sessionKey('a session secret of at least thirty-two characters');
    const other = sessionKey('another session secret, thirty-two characters or more');
    const { token } = await signSessionToken(key, clock, user, 's-1', Math.floor(clock.now().getTime() / 1000) + 60);
    await verifySessionToken(key, clock, token);
    await expect(verifySessionToken(other, clock, token)).rejects.toBeInstanceOf(UnauthorizedError);
    // A character in the middle of the signature (the last one may only carry padding bits).
    const at = token.lastIndexOf('.') + 10;
    const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    await expect(verifySessionToken(key, clock, altered)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
